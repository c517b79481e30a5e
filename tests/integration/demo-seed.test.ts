import { readConfig } from '../../server/config.ts';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerContext } from '../../server/context.ts';
import { createImporter } from '../../server/ingest/importer.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { seedDemoIfEmpty } from '../../server/demo/seed.ts';
import { DEMO_LOGIN_PUBKEY, demoUser } from '../../server/demo/accounts.ts';

const NOW = 1_760_000_000;

function context(dataDir = ''): ServerContext {
  const db = openSqlite(':memory:');
  const live = new EventEmitter();
  const now = () => NOW;
  return {
    config: { ...readConfig({ PORT: '0', DATA_DIR: dataDir, DIST_DIR: '' }), demoScale: 0.03 },
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

  it('makes legends of several styles and premium members with orders and stored files, but not the demo login', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strucc-demo-'));
    const ctx = context(dir);
    try {
      await seedDemoIfEmpty(ctx);
      const members = await ctx.db.all<{ pubkey: string; tier: string; name: string | null }>('SELECT pubkey, tier, name FROM memberships');
      expect(members.filter((m) => m.tier === 'premium-legend').length).toBe(4);
      expect(members.filter((m) => m.tier === 'premium').length).toBeGreaterThanOrEqual(4);
      expect(members.every((m) => m.name && m.name.length >= 3)).toBe(true);
      expect(members.some((m) => m.pubkey === DEMO_LOGIN_PUBKEY)).toBe(false);
      const styles = await ctx.db.all<{ style: string }>('SELECT DISTINCT style FROM membership_legend_customization');
      expect(styles.map((s) => s.style).sort()).toEqual(['AQUA', 'GOLD', 'PURPLEHAZE', 'SUNFIRE']);
      const orders = await ctx.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM membership_quotes WHERE status = 'paid'");
      expect(Number(orders?.n)).toBe(members.length * 2);
      const owned = await ctx.db.all<{ sha256: string }>('SELECT sha256 FROM blob_owners WHERE pubkey = ?', [members[0].pubkey]);
      expect(owned.length).toBeGreaterThanOrEqual(3);
      expect((await stat(join(dir, 'blobs', owned[0].sha256))).size).toBeGreaterThan(100);
      // One legend publishes two paid tiers (NIP-88) and their list, for the author-subscribe modal.
      const tiers = await ctx.db.all<{ kind: number | string }>('SELECT kind FROM events WHERE pubkey = ? AND kind IN (17000, 37001)', [demoUser(2).pubkey]);
      expect(tiers.map((r) => Number(r.kind)).sort()).toEqual([17000, 37001, 37001]);
    } finally {
      await ctx.db.close();
      await rm(dir, { recursive: true, force: true });
    }
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
