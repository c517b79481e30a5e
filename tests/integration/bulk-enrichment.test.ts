/**
 * A page of notes costs the same number of store queries whatever its size (issue 18): the data
 * around the notes (authors, stats, the viewer's actions, replies' parents, zaps) is read once
 * per kind of data for the whole page, never once per note. A per-note query would make a page
 * of 30 cost six times a page of 5. The follows feed's own source reads (follows-feed.ts) are counted
 * apart: on SQLite they go one author at a time until the page has its cut, so a larger page reads more
 * authors by design, but never more statements than there are followed authors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCacheServer, watchReads, type CacheTestServer } from './cache-server.ts';
import { person, sign } from './people.ts';

const AUTHORS = 40;

describe('statements per page do not grow with the page', () => {
  let srv: CacheTestServer;
  let statements = 0;
  let sourceReads = 0;

  beforeAll(async () => {
    srv = await startCacheServer('sqlite');
    const now = srv.ctx.now();
    const people = Array.from({ length: AUTHORS }, () => person());
    const profiles = people.map((p, i) => sign(p, 0, now - 5000, JSON.stringify({ name: `ember${i}` })));
    const notes = people.map((p, i) => sign(p, 1, now - 4000 + i, `Jegyzet ${i} a kávéról`));
    const around = notes.flatMap((n, i) => [
      sign(people[(i + 1) % AUTHORS], 7, now - 100 + i, '+', [['e', n.id], ['p', n.pubkey]]),
      sign(people[(i + 2) % AUTHORS], 1, now - 50 + i, 'Egyetértek a kávéval.', [['e', n.id, '', 'root'], ['p', n.pubkey]]),
      sign(srv.net.alice, 7, now - 20 + i, '+', [['e', n.id], ['p', n.pubkey]]),
    ]);
    const follows = sign(srv.net.alice, 3, now - 10, '', people.map((p) => ['p', p.pk]));
    const results = await srv.ctx.importer.importEvents([...profiles, ...notes, ...around, follows]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    watchReads(srv, (sql) => {
      if (sql.includes('SELECT pubkey AS a, event_id AS id, created_at AS k FROM posts')) sourceReads++;
      else statements++;
    });
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it.each([
    ['mega_feed_directive latest', 'mega_feed_directive', { spec: JSON.stringify({ id: 'latest', kind: 'notes' }) }],
    ['mega_feed_directive all-notes', 'mega_feed_directive', { spec: JSON.stringify({ id: 'all-notes', kind: 'notes' }) }],
    ['search', 'search', { query: 'kávé' }],
  ] as const)('%s', async (_name, command, args) => {
    const c = await srv.connect();
    const cost = async (limit: number) => {
      statements = 0;
      sourceReads = 0;
      const r = await c.req(`p${limit}`, command, { ...args, user_pubkey: srv.net.alice.pk, limit });
      expect(r.notices).toEqual([]);
      expect(r.events.filter((e) => e.kind === 1).length).toBeGreaterThanOrEqual(limit);
      expect(sourceReads).toBeLessThanOrEqual(AUTHORS);
      return statements;
    };
    const small = await cost(5);
    const large = await cost(30);
    expect(large).toBeLessThanOrEqual(small + 2);
  });
});
