/**
 * `npm run bench:search [-- --pg] [-- --baseline <worktree of older code>]`: search at a mid scale.
 * Builds a store of the real demo events plus synthetic ones (~190k events) through applyEvent and
 * every indexer, timing the search indexer's share of the write path, then runs searchItems (the
 * engine part of the search command, enrichment aside) for frequent words, rare words, phrases and
 * advanced-grammar queries, sequentially, and reports p50 / p99 per family; and searchUsers (user_search's
 * engine part) for short name prefixes (1-3 letters, the widest matches) and whole names.
 * With --baseline the same script runs in the other worktree too, the two alternating twice (or at
 * once with --parallel), and the table shows both side by side with the ratio (the machine is shared:
 * compare within a run). SEARCH_BENCH_SCALE=1 for ~196k events (default 0.5, ~130k).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NostrEvent } from '../server/context.ts';
import { applyEvent } from '../server/ingest/apply.ts';
import { INDEXERS } from '../server/ingest/indexers.ts';
import { searchItems, searchUsers } from '../server/search/engine.ts';
import { parseQuery } from '../server/search/grammar.ts';
import { terms } from '../server/search/tokens.ts';
import type { Database } from '../server/store/db.ts';
import { openPostgres } from '../server/store/postgres.ts';
import { openSqlite } from '../server/store/sqlite.ts';
import { startTempPostgres } from '../tests/support/postgres.ts';
import { BENCH_NOW, benchEvents, CACHE_DIR, syntheticEvents } from './server-data.ts';

/** SEARCH_BENCH_SCALE=1 is ~196k events with the real ones; the default 0.5 builds in a few minutes on a busy machine. */
const SCALE = Number(process.env.SEARCH_BENCH_SCALE ?? 0.5);
const PLAN = { users: Math.round(3_000 * SCALE), notes: Math.round(70_000 * SCALE), reactions: Math.round(60_000 * SCALE), reposts: Math.round(8_000 * SCALE) };
const RUNS = 150;
const args = process.argv.slice(2);
const pg = args.includes('--pg');
const log = (msg: string) => console.error(`[bench:search] ${msg}`);

interface Figures {
  events: number;
  buildSeconds: number;
  searchIndexerShare: number;
  searchIndexerMs: number;
  families: Record<string, { p50: number; p99: number; hits: number }>;
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Query families from the notes' own words, the same on every run (seeded). */
function queries(events: NostrEvent[]): Record<string, string[]> {
  const rand = rng(11);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const counts = new Map<string, number>();
  const notes = events.filter((e) => e.kind === 1 && e.content.length > 20);
  // Words as the index sees them (letters only: runs with digits are bech32 and hashes, nobody searches those).
  for (const e of notes) for (const w of terms(e.content)) if (w.length >= 4 && w.length <= 14 && /^\p{L}+$/u.test(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const frequent = sorted.slice(0, 40).map(([w]) => w);
  const rare = sorted.filter(([, n]) => n >= 2 && n <= 4).map(([w]) => w);
  const phrase = () => {
    const words = pick(notes).content.split(/\s+/).filter((w) => /^\p{L}{3,}$/u.test(w));
    if (words.length < 2) return `"${pick(frequent)} ${pick(frequent)}"`;
    const i = Math.floor(rand() * (words.length - 1));
    return `"${words[i]} ${words[i + 1]}"`;
  };
  const n = 30;
  const pk = pick(notes).pubkey;
  return {
    'frequent word': Array.from({ length: n }, () => pick(frequent)),
    'rare word': Array.from({ length: n }, () => pick(rare)),
    phrase: Array.from({ length: n }, phrase),
    'advanced (AND/OR/NOT, #tag, from:, orderby:)': Array.from({ length: n }, (_, i) =>
      [
        `${pick(frequent)} ${pick(frequent)}`,
        `${pick(frequent)} -${pick(frequent)}`,
        `${pick(rare)} OR ${pick(rare)}`,
        `#nostr ${pick(frequent)}`,
        `${pick(frequent)} from:${pk}`,
        `${pick(frequent)} orderby:likes`,
        `${phrase()} since:2026-01-01`,
      ][i % 7],
    ),
  };
}

/** user_search queries from the profiles' own names (seeded): 1-3 letter prefixes and whole names. */
function userQueries(events: NostrEvent[]): Record<string, string[]> {
  const rand = rng(13);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const names: string[] = [];
  for (const e of events) {
    if (e.kind !== 0) continue;
    try {
      const p = JSON.parse(e.content) as Record<string, unknown>;
      for (const k of ['name', 'display_name']) if (typeof p[k] === 'string' && terms(p[k]).length) names.push(p[k]);
    } catch {
      // Not JSON: not a name.
    }
  }
  const n = 30;
  return {
    'user_search, 1-3 letter prefix': Array.from({ length: n }, (_, i) => terms(pick(names))[0].slice(0, 1 + (i % 3))),
    'user_search, whole name': Array.from({ length: n }, () => pick(names)),
  };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function openStore(dir: string): Promise<{ db: Database; stop: () => Promise<void> }> {
  if (!pg) {
    const db = openSqlite(join(dir, 'strucc.sqlite'));
    return { db, stop: () => db.close() };
  }
  const server = await startTempPostgres();
  const db = await openPostgres(server.url);
  return {
    db,
    stop: async () => {
      await db.close();
      server.stop();
    },
  };
}

async function measure(): Promise<Figures> {
  await import('../server/app.ts');
  const real = await benchEvents();
  const dir = mkdtempSync(join(tmpdir(), 'strucc-bench-search-'));
  const { db, stop } = await openStore(dir);
  try {
    // The search indexer's own time, inside the same transactions as everything else.
    let indexerMs = 0;
    for (const ix of INDEXERS) {
      if (ix.name !== 'search') continue;
      const inner = ix.onEvent.bind(ix);
      ix.onEvent = async (tx, e, now) => {
        const t0 = performance.now();
        await inner(tx, e, now);
        indexerMs += performance.now() - t0;
      };
    }
    const texts = real.filter((e) => e.kind === 1 && e.content.length > 0).map((e) => e.content);
    const all = [...real, ...syntheticEvents(texts, [...new Set(real.map((e) => e.pubkey))], PLAN)];
    const started = performance.now();
    for (let i = 0; i < all.length; i += 2000) {
      const batch = all.slice(i, i + 2000);
      await db.transaction(async (tx) => {
        for (const e of batch) await applyEvent(tx, e, BENCH_NOW);
      });
      if (i % 40_000 === 0) log(`${i} events…`);
    }
    const buildMs = performance.now() - started;
    const families: Figures['families'] = {};
    for (const [family, qs] of Object.entries(queries(all))) {
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < RUNS; i++) {
        const q = parseQuery(qs[i % qs.length], BENCH_NOW);
        const t0 = performance.now();
        const items = await searchItems(db, q, { defaultKinds: [1], page: { limit: 20, offset: 0 } });
        times.push(performance.now() - t0);
        hits += items.length;
      }
      families[family] = { p50: quantile(times, 0.5), p99: quantile(times, 0.99), hits: hits / RUNS };
    }
    for (const [family, qs] of Object.entries(userQueries(all))) {
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const users = await searchUsers(db, { query: qs[i % qs.length], limit: 10 });
        times.push(performance.now() - t0);
        hits += users.length;
      }
      families[family] = { p50: quantile(times, 0.5), p99: quantile(times, 0.99), hits: hits / RUNS };
    }
    return { events: all.length, buildSeconds: buildMs / 1000, searchIndexerMs: indexerMs, searchIndexerShare: indexerMs / buildMs, families };
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runIn(cwd: string): Promise<Figures> {
  const extra = pg ? ['--pg'] : [];
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'bench/search.ts', '--json', ...extra], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`bench in ${cwd} failed`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Figures);
    });
  });
}

const fmt = (n: number, d = 1) => n.toFixed(d);

async function main() {
  if (args.includes('--json')) {
    console.log(JSON.stringify(await measure()));
    return;
  }
  const bi = args.indexOf('--baseline');
  const baseline = bi >= 0 ? args[bi + 1] : undefined;
  if (baseline) {
    // The baseline tree gets this script and the cached demo events.
    mkdirSync(join(baseline, 'bench'), { recursive: true });
    copyFileSync(new URL(import.meta.url).pathname, join(baseline, 'bench', 'search.ts'));
    // Older trees did not export the synthetic generator yet.
    const data = join(baseline, 'bench', 'server-data.ts');
    writeFileSync(data, readFileSync(data, 'utf8').replace(/^function\* syntheticEvents\(/m, 'export function* syntheticEvents('));
    const events = join(CACHE_DIR, 'events-strucc-1.35.json');
    mkdirSync(join(baseline, '.cache', 'bench'), { recursive: true });
    if (existsSync(events)) copyFileSync(events, join(baseline, '.cache', 'bench', 'events-strucc-1.35.json'));
  }
  const runs: { label: string; f: Figures }[] = [];
  // --parallel: one round, both trees at once (they share whatever load the machine has); otherwise
  // two rounds, alternating.
  const parallel = args.includes('--parallel');
  for (let round = 0; round < (baseline && !parallel ? 2 : 1); round++) {
    if (baseline && parallel) {
      log('baseline and this tree at once');
      const [b, n] = await Promise.all([runIn(baseline), runIn(process.cwd())]);
      runs.push({ label: 'baseline', f: b }, { label: 'new', f: n });
      continue;
    }
    if (baseline) {
      log(`round ${round + 1}: baseline`);
      runs.push({ label: 'baseline', f: await runIn(baseline) });
    }
    log(`round ${round + 1}: this tree`);
    runs.push({ label: 'new', f: await runIn(process.cwd()) });
  }
  const best = (label: string, get: (f: Figures) => number) => Math.min(...runs.filter((r) => r.label === label).map((r) => get(r.f)));
  const f0 = runs.find((r) => r.label === 'new')!.f;
  console.log(`\n## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} — search bench (${pg ? 'PostgreSQL' : 'SQLite'}, ${f0.events} events)\n`);
  console.log(`Load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' / ')}. searchItems alone, one client, ${RUNS} queries per family; best of ${runs.length / (baseline ? 2 : 1)} run(s)${parallel ? ', baseline and new running at the same time' : ''}.\n`);
  const cols = baseline ? '| figure | baseline | new | new ÷ baseline |\n|---|---|---|---|' : '| figure | value |\n|---|---|';
  console.log(cols);
  const row = (name: string, get: (f: Figures) => number, unit: string, d = 1) => {
    const n = best('new', get);
    if (!baseline) return console.log(`| ${name} | ${fmt(n, d)} ${unit} |`);
    const b = best('baseline', get);
    console.log(`| ${name} | ${fmt(b, d)} ${unit} | ${fmt(n, d)} ${unit} | ${fmt(n / b, 2)} |`);
  };
  row('build (applyEvent, every indexer)', (f) => f.buildSeconds, 's');
  row('search indexer time', (f) => f.searchIndexerMs / 1000, 's');
  row('search indexer share of the write path', (f) => f.searchIndexerShare * 100, '%');
  for (const family of Object.keys(f0.families)) {
    row(`${family}: p50`, (f) => f.families[family].p50, 'ms', 2);
    row(`${family}: p99 (target < 100 ms)`, (f) => f.families[family].p99, 'ms', 2);
  }
  for (const r of runs) console.error(`[bench:search] ${r.label}: hits per query ${Object.entries(r.f.families).map(([k, v]) => `${k} ${v.hits.toFixed(1)}`).join(', ')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
