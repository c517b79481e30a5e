import { readConfig } from '../../server/config.ts';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ServerContext } from '../../server/context.ts';
import { createImporter } from '../../server/ingest/importer.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { seedDemoIfEmpty } from '../../server/demo/seed.ts';
import { DEMO_LOGIN_PUBKEY } from '../../server/demo/accounts.ts';

const NOW = 1_760_000_000;

function context(): ServerContext {
  const db = openSqlite(':memory:');
  const live = new EventEmitter();
  const now = () => NOW;
  return {
    config: { ...readConfig({ PORT: '0', DATA_DIR: '', DIST_DIR: '' }), demoScale: 0.03 },
    db, live, now,
    importer: createImporter({ db, live, now }),
    stats: { cacheConnections: 0, cacheConnectionsTotal: 0, relayConnections: 0, relayConnectionsTotal: 0, asyncSubscriptions: {} },
  };
}

describe('seedDemoIfEmpty', () => {
  it('imports the whole demo network through the importer once, then leaves the store alone', { timeout: 120_000 }, async () => {
    const ctx = context();
    await seedDemoIfEmpty(ctx);
    const meta = await ctx.db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'demo_seeded'");
    const info = JSON.parse(meta!.value) as { events: number; stored: number; rejected: number; now: number };
    expect(info.rejected).toBe(0);
    expect(info.stored).toBe(info.events);
    expect(info.now).toBe(NOW);
    const count = async () => Number((await ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events'))!.n);
    const before = await count();
    // Deleted notes leave the store, so it holds slightly fewer events than were imported.
    expect(before).toBeGreaterThan(info.events * 0.9);
    await seedDemoIfEmpty(ctx);
    expect(await count()).toBe(before);
    await ctx.db.close();
  });

  it('gives the demo login several conversations, the ones it answered last read and the others unread', { timeout: 120_000 }, async () => {
    const ctx = context();
    await seedDemoIfEmpty(ctx);
    const rows = await ctx.db.all<{ peer: string; cnt: number }>('SELECT peer, cnt FROM dm_threads WHERE owner = ?', [DEMO_LOGIN_PUBKEY]);
    const threads = rows.filter((r) => r.peer !== '');
    const total = rows.find((r) => r.peer === '');
    expect(threads.length).toBe(5);
    const unread = threads.filter((r) => Number(r.cnt) > 0);
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.length).toBeLessThan(threads.length);
    expect(Number(total?.cnt)).toBe(unread.reduce((n, r) => n + Number(r.cnt), 0));
    await ctx.db.close();
  });

  it('does not seed a store that already holds other events', async () => {
    const ctx = context();
    await ctx.db.run("INSERT INTO meta (key, value) VALUES ('probe', '1')");
    const { generateDemoNetwork } = await import('../../server/demo/generate.ts');
    const [first] = await generateDemoNetwork({ now: NOW, scale: 0.01 });
    await ctx.importer.importEvents(first.slice(0, 1));
    await seedDemoIfEmpty(ctx);
    expect(await ctx.db.get("SELECT value FROM meta WHERE key = 'demo_seeded'")).toBeUndefined();
    await ctx.db.close();
  });
});
