/**
 * `npx tsx bench/search-orderby.ts --db=<copy of the 1M bench strucc.sqlite>`: SQLite's orderby:<count> search,
 * the two-step window (server/search/sql.ts, counts read in event_id order through event_stats_metrics) against
 * the one-statement window (plainWindow, the form before s8-hot1m), same process, interleaved: rows compared page
 * by page, then wall and CPU time of four queries per round. Opening the copy creates the index if it is missing
 * (a few seconds); use a copy, never the cached database itself.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseQuery } from '../server/search/grammar.ts';
import { buildSearch } from '../server/search/sql.ts';
import { openSqlite } from '../server/store/sqlite.ts';

const file = process.argv.find((a) => a.startsWith('--db='))?.slice(5);
if (!file) throw new Error('--db=<copy of the bench database> is required');
const db = openSqlite(file);
const now = Math.floor(Date.now() / 1000);
const QUERIES = ['minden orderby:likes', 'strucc orderby:score', 'nostr orderby:replies', 'https since:2025-01-01 orderby:likes',
  'kind:1 orderby:satszapped', 'orderby:likes', 'reggel orderby:likes minlikes:1', 'minden orderby:relevance'];
const run = async (text: string, page: { limit: number; offset: number }, plainWindow: boolean) => {
  const b = buildSearch(parseQuery(text, now), { dialect: 'sqlite', defaultKinds: [1], page, plainWindow });
  return db.all(b.sql, b.params);
};
let mismatches = 0;
let checked = 0;
for (const text of QUERIES) {
  for (const page of [{ limit: 20, offset: 0 }, { limit: 20, offset: 20 }, { limit: 100, offset: 4950 }]) {
    checked++;
    if (JSON.stringify(await run(text, page, true)) !== JSON.stringify(await run(text, page, false))) {
      mismatches++;
      console.log(`MISMATCH ${text} ${JSON.stringify(page)}`);
    }
  }
}
const wall: Record<string, number[]> = { plain: [], twoStep: [] };
const cpu: Record<string, number[]> = { plain: [], twoStep: [] };
for (let r = 0; r < 10; r++) {
  for (const k of ['plain', 'twoStep']) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (const text of QUERIES.slice(0, 4)) await run(text, { limit: 20, offset: 0 }, k === 'plain');
    const c = process.cpuUsage(c0);
    wall[k].push(performance.now() - t0);
    cpu[k].push((c.user + c.system) / 1000);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${checked} pages compared, ${mismatches} mismatches`);
console.log('| 4 orderby queries, 10 interleaved rounds | one statement (before) | two steps (new) | new ÷ before |\n|---|---|---|---|');
for (const [name, xs] of [['wall median ms', wall], ['CPU median ms', cpu]] as const) {
  console.log(`| ${name} | ${med(xs.plain).toFixed(1)} | ${med(xs.twoStep).toFixed(1)} | ${(med(xs.twoStep) / med(xs.plain)).toFixed(2)} |`);
}
await db.close();
