/**
 * Storage growth is bounded, on both stores: superseded versions of replaceable and addressable
 * events are not kept (an older one arriving later is not stored either).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { CacheClient } from './cache-client.ts';
import { person, sign } from './people.ts';
import { startTestServer, type TestServer } from './services-support.ts';

describe.each(['sqlite', 'postgres'] as const)('storage bounds (%s)', (store) => {
  let pg: TempPostgres | null = null;
  let t: TestServer;
  let v1: CacheClient;
  let n = 0;
  const sub = () => `b${++n}`;

  beforeAll(async () => {
    pg = store === 'postgres' ? await startTempPostgres() : null;
    t = await startTestServer({ DATABASE_URL: pg?.url ?? '' });
    v1 = await CacheClient.connect(`${t.base.replace('http', 'ws')}/v1`);
  }, 60_000);
  afterAll(async () => {
    await v1?.close();
    await t?.stop();
    pg?.stop();
  });

  it('keeps only the current version of replaceable and addressable events', async () => {
    const u = person();
    const now = t.clock.now;
    const versions = (kind: number, tags: string[][] = []) =>
      [now - 200, now - 100, now - 300].map((at, i) => sign(u, kind, at, kind === 0 ? JSON.stringify({ name: `v${i}` }) : `v${i}`, tags));
    const all = [versions(0), versions(3, [['p', person().pk]]), versions(10002, [['r', 'wss://relay.example']]), versions(30023, [['d', 'cikk']])];
    // The middle one arrives first, then the newest, then an older one: only the newest is kept.
    for (const [middle, newest, oldest] of all) {
      for (const ev of [middle, newest, oldest]) {
        const r = await v1.req(sub(), 'import_events', { events: [ev] });
        expect(r.notices).toEqual([]);
      }
    }
    const ids = all.flat().map((e) => e.id);
    const got = await v1.req(sub(), 'events', { event_ids: ids });
    const stored = got.events.filter((e) => typeof e.id === 'string' && ids.includes(e.id as string)).map((e) => e.id);
    expect(stored.sort()).toEqual(all.map((v) => v[1].id).sort());
  });
});
