/**
 * `npx tsx bench/search-window.ts --db=<copy of the 1M bench strucc.sqlite>`: CPU and wall time per orderby
 * search (the `search (orderby:likes|score|replies)` row of bench/server.ts: one of its frequent words,
 * one of the three metrics, 20 a page), in one process, interleaved:
 * - plain: the statement sql.ts builds, as every request ran it before the window cache;
 * - hit: a page from the window kept in memory (server/search/window-cache.ts), the first of its metric
 *   (which sorts the window by it) and the next;
 * - miss: the window's one packed statement and its unpacking (what the first request of a word pays).
 * Every page is compared with the plain statement's first (20, offset 0 / 20 / 4,900). Use a copy of the
 * database, never the cached one itself.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseQuery } from '../server/search/grammar.ts';
import { buildSearch, type SearchPage } from '../server/search/sql.ts';
import { WindowCache } from '../server/search/window-cache.ts';
import { openSqlite } from '../server/store/sqlite.ts';
import { benchEvents } from './server-data.ts';
import { benchTargets } from './server-targets.ts';

const file = process.argv.find((a) => a.startsWith('--db='))?.slice(5);
if (!file) throw new Error('--db=<copy of the bench database> is required');
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 5);
const { words } = await benchTargets(file, await benchEvents());
const db = openSqlite(file);
const now = Math.floor(Date.now() / 1000);
const METRICS = ['likes', 'score', 'replies'];
const queries = words.flatMap((w) => METRICS.map((m) => `${w} orderby:${m}`));
const opts = { defaultKinds: [1] };

const plain = async (text: string, page: SearchPage) => {
  const b = buildSearch(parseQuery(text, now), { ...opts, dialect: 'sqlite', page });
  return (await db.all<{ id: string; k: number | null }>(b.sql, b.params)).map((r) => ({ id: r.id, key: Number(r.k ?? 0) }));
};
const cache = new WindowCache();
const cached = async (text: string, page: SearchPage) => (await cache.page(db, parseQuery(text, now), { ...opts, dialect: 'sqlite', page }))!;

let mismatches = 0;
for (const text of queries) {
  for (const page of [{ limit: 20, offset: 0 }, { limit: 20, offset: 20 }, { limit: 100, offset: 4900 }]) {
    if (JSON.stringify(await plain(text, page)) !== JSON.stringify(await cached(text, page))) {
      mismatches++;
      console.log(`MISMATCH ${text} ${JSON.stringify(page)}`);
    }
  }
}

const per: Record<'plain' | 'firstHit' | 'hit' | 'miss', { cpu: number[]; wall: number[] }> = {
  plain: { cpu: [], wall: [] },
  firstHit: { cpu: [], wall: [] },
  hit: { cpu: [], wall: [] },
  miss: { cpu: [], wall: [] },
};
const time = async (kind: keyof typeof per, batch: string[], run: (text: string) => Promise<unknown>) => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const text of batch) await run(text);
  const c = process.cpuUsage(c0);
  per[kind].wall.push((performance.now() - t0) / batch.length);
  per[kind].cpu.push((c.user + c.system) / 1000 / batch.length);
};
const page = { limit: 20, offset: 0 };
for (let r = 0; r < rounds; r++) {
  const batch = [...queries].sort(() => Math.random() - 0.5).slice(0, 30);
  await time('plain', batch, (t) => plain(t, page));
  await time('firstHit', batch, (t) => cached(t, page));
  await time('hit', batch, (t) => cached(t, page));
  cache.clear();
  // A miss of each word once (the three metrics share a window).
  await time('miss', batch.filter((t, i) => batch.findIndex((x) => x.split(' ')[0] === t.split(' ')[0]) === i), (t) => cached(t, page));
  // Every window back for the next round's hits.
  for (const w of words) await cached(`${w} orderby:likes`, page);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${queries.length * 3} pages compared, ${mismatches} mismatches; windows ${JSON.stringify(cache.stats)}`);
console.log(
  `| per request, median of ${rounds} interleaved rounds of 30 | plain statement | window miss (build) | first hit of its metric (sorts) | hit |\n|---|---|---|---|---|`,
);
for (const k of ['cpu', 'wall'] as const) {
  const cells = [per.plain, per.miss, per.firstHit, per.hit].map((x, i) => med(x[k]).toFixed(i < 2 ? 2 : 3));
  console.log(`| ${k === 'cpu' ? 'CPU ms' : 'wall ms'} | ${cells.join(' | ')} |`);
}
await db.close();
