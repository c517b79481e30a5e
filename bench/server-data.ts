/**
 * Data for `npm run bench:server`, built once and cached under .cache/bench/ so reruns are fast:
 * - real signed events from the demo generator (≥ 50,000), for the verifying ingest measure;
 * - a SQLite database of ≥ 1,000,000 events for the latency measure. Signing a million events
 *   would take minutes, so the extra events are synthetic (valid ids, unverifiable sigs) and are
 *   written through the real derived-table path (applyEvent and every registered indexer) without
 *   verification. The latency part therefore does not re-verify; the ingest part does.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NostrEvent } from '../server/context.ts';
import { applyEvent } from '../server/ingest/apply.ts';
import { createImporter } from '../server/ingest/importer.ts';
import { INDEXERS } from '../server/ingest/indexers.ts';
import { startVerifyPool } from '../server/ingest/verify-pool.ts';
import { SCHEMA, SCHEMA_VERSION } from '../server/store/schema.ts';
import { searchSchema } from '../server/store/search-schema.ts';
import { openSqlite } from '../server/store/sqlite.ts';
import { EventEmitter } from 'node:events';

export const CACHE_DIR = join(process.cwd(), '.cache', 'bench');
/** Fixed, so the cached events and database stay valid across runs (every created_at lies before it). */
export const BENCH_NOW = 1_790_000_000;
const EVENTS_SCALE = 1.35;

const log = (msg: string) => console.error(`[bench] ${msg}`);

/** `given` (a --db=<file> option), else the finished million-event database under CACHE_DIR. */
export function finishedBenchDb(given?: string): string {
  if (given) return given;
  for (const d of existsSync(CACHE_DIR) ? readdirSync(CACHE_DIR) : []) {
    if (d.startsWith('db-') && existsSync(join(CACHE_DIR, d, 'done.json'))) return join(CACHE_DIR, d, 'strucc.sqlite');
  }
  throw new Error(`no finished bench database under ${CACHE_DIR} (npm run bench:server builds it), or pass --db=<file>`);
}

/** Real signed demo events, generated once (~20 s) and read from disk afterwards. */
export async function benchEvents(): Promise<NostrEvent[]> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = join(CACHE_DIR, `events-strucc-${EVENTS_SCALE}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as NostrEvent[];
  log(`generating signed demo events (scale ${EVENTS_SCALE})…`);
  const { generateDemoNetwork } = await import('../server/demo/generate.ts');
  const events = (await generateDemoNetwork({ seed: 'strucc', scale: EVENTS_SCALE, now: BENCH_NOW })).flat();
  writeFileSync(`${file}.tmp`, JSON.stringify(events));
  renameSync(`${file}.tmp`, file);
  return events;
}

/** Deterministic PRNG (mulberry32): the same synthetic network on every build. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function synth(pubkey: string, created_at: number, kind: number, tags: string[][], content: string): NostrEvent {
  const id = createHash('sha256').update(JSON.stringify([0, pubkey, created_at, kind, tags, content])).digest('hex');
  return { id, pubkey, created_at, kind, tags, content, sig: createHash('sha512').update(id).digest('hex') };
}

export interface SyntheticPlan {
  users: number;
  notes: number;
  reactions: number;
  reposts: number;
}

export const PLAN: SyntheticPlan = { users: 10_000, notes: 420_000, reactions: 470_000, reposts: 60_000 };

/**
 * The synthetic part of the big network, in time order: profiles and contact lists first, then
 * notes (a third of them replies), reactions and reposts aimed at recent notes with a skew
 * towards popular ones, as on a real relay.
 */
export function* syntheticEvents(texts: string[], realPubkeys: string[], plan: SyntheticPlan): Generator<NostrEvent> {
  const rand = rng(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const users = Array.from({ length: plan.users }, (_, i) => createHash('sha256').update(`bench-user-${i}`).digest('hex'));
  // A skewed author choice: a few users write and receive most of the traffic.
  const skewed = () => users[Math.floor(users.length * rand() ** 2.5)];
  const start = BENCH_NOW - 30 * 86_400;
  for (let i = 0; i < users.length; i++) {
    const pk = users[i];
    yield synth(pk, start + i, 0, [], JSON.stringify({ name: `bench${i}`, display_name: `Bench ${i}`, about: pick(texts).slice(0, 120) }));
    const follows = new Set<string>();
    const n = 10 + Math.floor(rand() * 60);
    while (follows.size < n) follows.add(rand() < 0.1 ? pick(realPubkeys) : skewed());
    follows.delete(pk);
    yield synth(pk, start + i, 3, [...follows].map((f) => ['p', f]), '');
  }
  const total = plan.notes + plan.reactions + plan.reposts;
  const span = BENCH_NOW - 3600 - (start + users.length);
  const recent: { id: string; pubkey: string; root: string }[] = [];
  const RECENT = 5000;
  for (let i = 0; i < total; i++) {
    const created = start + users.length + Math.floor((i / total) * span);
    const author = skewed();
    const r = rand() * total;
    const target = recent.length > 0 ? recent[Math.floor(recent.length * (1 - rand() ** 3))] : undefined;
    if (r < plan.notes || !target) {
      const reply = target && rand() < 0.33;
      const tags: string[][] = reply
        ? [['e', target.root, '', 'root'], ['e', target.id, '', 'reply'], ['p', target.pubkey]]
        : rand() < 0.2
          ? [['t', pick(['bitcoin', 'nostr', 'magyar', 'budapest', 'zene', 'foto'])]]
          : [];
      const ev = synth(author, created, 1, tags, pick(texts));
      recent.push({ id: ev.id, pubkey: author, root: reply ? target.root : ev.id });
      if (recent.length > RECENT) recent.splice(0, recent.length - RECENT);
      yield ev;
    } else if (r < plan.notes + plan.reactions) {
      yield synth(author, created, 7, [['e', target.id], ['p', target.pubkey]], rand() < 0.8 ? '+' : '🤙');
    } else {
      yield synth(author, created, 6, [['e', target.id, ''], ['p', target.pubkey]], '');
    }
  }
}

/**
 * Changes whenever the tables or the set of derived-table indexers change, so a stale database is
 * rebuilt. Indexes are left out on purpose: opening the store creates (or drops) them in place.
 */
export function dbKey(plan: SyntheticPlan = PLAN): string {
  const h = createHash('sha256');
  h.update(String(SCHEMA_VERSION));
  h.update([...SCHEMA, ...searchSchema('sqlite')].filter((stmt) => !/^\s*(?:CREATE (UNIQUE )?INDEX|DROP INDEX)/i.test(stmt)).join('\n'));
  h.update(INDEXERS.map((i) => i.name).join(','));
  h.update(JSON.stringify(plan));
  return h.digest('hex').slice(0, 12);
}

/**
 * The ≥ 1M-event database: the real events through the verifying importer, then the synthetic
 * ones through applyEvent in large transactions. Returns the cached directory (holding strucc.sqlite).
 */
export async function benchDatabase(real: NostrEvent[], plan: SyntheticPlan = PLAN, cacheDir = CACHE_DIR): Promise<{ dir: string; events: number }> {
  // The server's full module graph registers every indexer; the database must hold what they derive.
  await import('../server/app.ts');
  const dir = join(cacheDir, `db-${dbKey(plan)}`);
  const done = join(dir, 'done.json');
  if (existsSync(done)) return { dir, events: (JSON.parse(readFileSync(done, 'utf8')) as { events: number }).events };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const db = openSqlite(join(dir, 'strucc.sqlite'));
  const started = Date.now();
  const verifier = await startVerifyPool();
  try {
    const importer = createImporter({ db, live: new EventEmitter(), now: () => BENCH_NOW, verifier });
    for (let i = 0; i < real.length; i += 1000) await importer.importEvents(real.slice(i, i + 1000), 'bench');
    const texts = real.filter((e) => e.kind === 1 && e.content.length > 0).map((e) => e.content);
    const realPubkeys = [...new Set(real.map((e) => e.pubkey))];
    let batch: NostrEvent[] = [];
    let count = real.length;
    const flush = async () => {
      const events = batch;
      batch = [];
      await db.transaction(async (tx) => {
        for (const e of events) await applyEvent(tx, e, BENCH_NOW);
      });
    };
    for (const ev of syntheticEvents(texts, realPubkeys, plan)) {
      batch.push(ev);
      if (batch.length >= 5000) {
        await flush();
        count += 5000;
        if (count % 50_000 < 5000) log(`database: ${count} events (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
    }
    count += batch.length;
    await flush();
    const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events');
    writeFileSync(done, JSON.stringify({ events: Number(row?.n ?? count), builtInSeconds: (Date.now() - started) / 1000 }));
    log(`database built: ${row?.n} events in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return { dir, events: Number(row?.n ?? count) };
  } finally {
    await verifier.close();
    await db.close();
  }
}
