/**
 * SQLite's page of a time-ordered search whose words have 5+ letters (server/search/engine.ts
 * longPrefixPage): the exact words set a floor, the indexed 4-letter starts above it are checked
 * against each event's indexed words. The page must be the one the plain prefix query gives: the
 * same rows in the same order at every limit and offset, never a note that only shares the first
 * four letters ("kávét" for "kávéház"). SQLite only: PostgreSQL answers prefixes from its GIN index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeOf, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { person, sign } from './people.ts';

describe('search of long prefix words on SQLite', () => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let n = 0;
  const ids: Record<string, string> = {};
  const page = async (query: string, limit: number, offset = 0) => {
    const r = await c.req(`p${++n}`, 'advanced_search', { query, limit, offset });
    expect(r.notices).toEqual([]);
    return rangeOf(r).elements;
  };

  beforeAll(async () => {
    srv = await startCacheServer('sqlite');
    const anna = person();
    const notes: [string, number, string][] = [
      ['both1', 5, 'Kávéház délután'],
      ['exact1', 10, 'Kávéház a sarkon'],
      ['inflected1', 20, 'A kávéházban ültünk'],
      ['exact2', 30, 'Kávéház, megint'],
      ['start1', 40, 'Kávét kérek'],
      ['inflected2', 50, 'Új kávéházak nyíltak'],
      ['inflected3', 60, 'Kávéházi délután'],
      ['both2', 65, 'Kávéház délután megint'],
      ['exact3', 70, 'A kávéház bezárt'],
      ['inflected4', 75, 'Délutáni kávéházak'],
      ['start2', 80, 'Kávé és tea'],
    ];
    const events = notes.map(([name, at, text]) => {
      const e = sign(anna, 1, srv.net.t(at), text);
      ids[e.id] = name;
      return e;
    });
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    c = await srv.connect();
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  const names = (xs: string[]) => xs.map((id) => ids[id]);

  it('pages a long prefix word as the plain prefix query does, without notes that share only four letters', async () => {
    // limit 100 is more than the exact word fills, so this is the plain prefix query's answer.
    const all = names(await page('kávéház', 100));
    expect(all).toEqual(['inflected4', 'exact3', 'both2', 'inflected3', 'inflected2', 'exact2', 'inflected1', 'exact1', 'both1']);
    expect(names(await page('kávéház', 2))).toEqual(['inflected4', 'exact3']);
    for (const [limit, offset] of [[1, 0], [3, 0], [2, 1], [1, 3], [3, 2], [5, 0], [2, 3]]) {
      expect(names(await page('kavehaz', limit, offset)), `${limit}+${offset}`).toEqual(all.slice(offset, offset + limit));
    }
  });

  it('pages two long prefix words ANDed, and a negated word beside them', async () => {
    const both = names(await page('kávéház délután', 100));
    expect(both).toEqual(['inflected4', 'both2', 'inflected3', 'both1']);
    for (const [limit, offset] of [[1, 0], [2, 0], [1, 1]]) {
      expect(names(await page('kávéház délután', limit, offset)), `${limit}+${offset}`).toEqual(both.slice(offset, offset + limit));
    }
    const notMegint = names(await page('kávéház -megint', 100));
    expect(notMegint).toEqual(['inflected4', 'exact3', 'inflected3', 'inflected2', 'inflected1', 'exact1', 'both1']);
    expect(names(await page('kávéház -megint', 2, 1))).toEqual(notMegint.slice(1, 3));
  });
});
