import { eventsByIds } from '../cache/data.ts';
import type { ServerContext } from '../context.ts';
import { markDmThreadRead, TOTAL_PEER } from '../ingest/index-dms.ts';
import { DEMO_LOGIN_PUBKEY } from './accounts.ts';
import { DEFAULT_DEMO_SEED, generateDemoNetwork } from './generate.ts';
import { seedDemoMemberships } from './memberships.ts';
import { seedDemoTiers } from './tiers.ts';

const SEEDED_KEY = 'demo_seeded';
/** Written before the first batch, so an interrupted seed resumes with the same `now` (and so the same ids). */
const SEEDING_KEY = 'demo_seeding';
const PROGRESS_STEP = 5000;

interface SeedingState {
  seed: string;
  scale: number;
  now: number;
}

async function readMeta(ctx: ServerContext, key: string): Promise<string | undefined> {
  const row = await ctx.db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [key]);
  return row?.value;
}

async function writeMeta(ctx: ServerContext, key: string, value: string): Promise<void> {
  await ctx.db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}

function parseState(raw: string | undefined): SeedingState | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<SeedingState>;
    if (typeof v.seed === 'string' && typeof v.scale === 'number' && typeof v.now === 'number') return v as SeedingState;
  } catch {
    // An unreadable marker is treated as absent: the seed starts over with a fresh `now`.
  }
  return null;
}

/**
 * Seeds the demo network into an empty store, through the real importer so every event is
 * verified and indexed like any other. A store that already holds events of its own (for
 * instance from upstream relays) is left alone; an interrupted seed is resumed.
 */
export async function seedDemoIfEmpty(ctx: ServerContext): Promise<void> {
  if (await readMeta(ctx, SEEDED_KEY)) return;
  let state = parseState(await readMeta(ctx, SEEDING_KEY));
  if (!state) {
    const row = await ctx.db.get<{ n: number | bigint }>('SELECT COUNT(*) AS n FROM events');
    if (Number(row?.n ?? 0) > 0) return;
    state = { seed: DEFAULT_DEMO_SEED, scale: ctx.config.demoScale, now: ctx.now() };
    await writeMeta(ctx, SEEDING_KEY, JSON.stringify(state));
  }
  const log = ctx.config.verbose ? (line: string) => console.log(line) : () => undefined;
  const started = Date.now();
  log(`Demó hálózat generálása (méret: ${state.scale})…`);
  const batches = await generateDemoNetwork({
    seed: state.seed,
    scale: state.scale,
    now: state.now,
    nip05Domain: ctx.config.nip05Domain,
    mediaDomain: ctx.config.mediaDomain,
  });
  const total = batches.reduce((n, b) => n + b.length, 0);
  log(`Demó hálózat: ${total} esemény elkészült ${((Date.now() - started) / 1000).toFixed(1)} mp alatt.`);

  let done = 0;
  let stored = 0;
  let rejected = 0;
  let firstRejection = '';
  let nextReport = PROGRESS_STEP;
  for (const batch of batches) {
    const results = await ctx.importer.importEvents(batch, 'demo');
    for (const r of results) {
      if (r.ok) stored++;
      // On a resumed seed the events stored before the interruption come back as duplicates.
      else if (!r.reason.startsWith('duplicate')) {
        rejected++;
        firstRejection ||= `${r.id}: ${r.reason}`;
      }
    }
    done += batch.length;
    if (done >= nextReport || done === total) {
      log(`Demó hálózat feltöltése: ${done}/${total} esemény`);
      nextReport = (Math.floor(done / PROGRESS_STEP) + 1) * PROGRESS_STEP;
    }
  }
  await markDemoLoginRepliesRead(ctx);
  await seedDemoMemberships(ctx, state.now);
  await seedDemoTiers(ctx, state.now);
  if (rejected > 0) console.warn(`Demó hálózat: ${rejected} esemény elutasítva (első: ${firstRejection})`);
  await writeMeta(ctx, SEEDED_KEY, JSON.stringify({ ...state, events: total, stored, rejected, at: Math.floor(Date.now() / 1000) }));
  await ctx.db.run('DELETE FROM meta WHERE key = ?', [SEEDING_KEY]);
  log(`Demó hálózat kész: ${stored} új esemény, ${((Date.now() - started) / 1000).toFixed(1)} mp.`);
}

/**
 * Unread counts are the server's state, not events: the demo login has read the conversations
 * it answered last (the generator makes that every second one), the others stay unread.
 */
async function markDemoLoginRepliesRead(ctx: ServerContext): Promise<void> {
  const owner = DEMO_LOGIN_PUBKEY;
  const rows = await ctx.db.all<{ peer: string; latest_event_id: string }>(
    'SELECT peer, latest_event_id FROM dm_threads WHERE owner = ? AND peer <> ?',
    [owner, TOTAL_PEER],
  );
  const latest = await eventsByIds(ctx.db, rows.map((r) => r.latest_event_id));
  for (const r of rows) {
    if (latest.get(r.latest_event_id)?.pubkey !== owner) continue;
    await ctx.db.transaction((tx) => markDmThreadRead(tx, owner, r.peer));
  }
}
