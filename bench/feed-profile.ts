/**
 * `npx tsx bench/feed-profile.ts [--tree=<worktree>] [--db=<strucc.sqlite> | --data-dir=<dir>] [--pages=N] [--warm=N] [--mixed] [--digest] [--json]`:
 * the CPU of one follows page (mega_feed_directive "latest", as bench/server.ts asks for it) in process, without
 * sockets: the server of `--tree` (default this one) on a copy of the ≥ 1M-event bench database, `--warm` pages
 * (default 300) to fill its caches as the socket bench's first seconds do, then `--pages` (default 1000) measured,
 * each with process.cpuUsage around the command and, apart, around its reply frame (framing.ts, zlib level 3).
 * Viewers and pages come from a fixed sequence, so two trees get the same requests.
 *
 * `--digest`: the SHA-256 of every reply (and of each page's ids), for proving that two trees answer alike:
 * run it with `--tree=<baseline>` and without, and compare. `--mixed` adds older pages (until), offsets and
 * forward polls (since) to the first pages. Start it under `node --cpu-prof` (via tsx's --import) for a profile.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { deflateSync } from 'node:zlib';
import { BENCH_NOW, finishedBenchDb } from './server-data.ts';

const args = process.argv.slice(2);
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const TREE = resolve(opt('tree') ?? process.cwd());
const PAGES = Number(opt('pages') ?? 1000);
const WARM = Number(opt('warm') ?? 300);
const log = (msg: string) => console.error(`[feed-profile] ${msg}`);

/** A fixed sequence (the same on every tree). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const treeModule = <T>(path: string): Promise<T> => import(pathToFileURL(join(TREE, path)).href) as Promise<T>;

type CacheObject = Record<string, unknown>;

async function main() {
  // --data-dir: a copy made once and reused (A/B rounds; the first run's own writes, score expiry, stay in it).
  const given = opt('data-dir');
  const dataDir = given ?? mkdtempSync(join(tmpdir(), 'strucc-feed-profile-'));
  if (!given) {
    const source = finishedBenchDb(opt('db'));
    log(`copying ${source}…`);
    copyFileSync(source, join(dataDir, 'strucc.sqlite'));
  }
  const { startServer } = await treeModule<typeof import('../server/app.ts')>('server/app.ts');
  const { readConfig } = await treeModule<typeof import('../server/config.ts')>('server/config.ts');
  const { commandEnv } = await treeModule<typeof import('../server/cache/registry.ts')>('server/cache/registry.ts');
  const { eventsFrame } = await treeModule<typeof import('../server/cache/framing.ts')>('server/cache/framing.ts');
  const server = await startServer(readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DEMO: '0' }));
  try {
    const viewers = (await server.ctx.db.all<{ v: string }>('SELECT pubkey AS v FROM follows GROUP BY pubkey ORDER BY pubkey LIMIT 2000')).map((r) => r.v);
    const rand = rng(18);
    const mixed = args.includes('--mixed');
    const nextArgs = (): Record<string, unknown> => {
      const page: Record<string, unknown> = { spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: viewers[Math.floor(rand() * viewers.length)], limit: 20 };
      const r = rand();
      if (!mixed || r < 0.6) return page;
      // The bench data spans the 30 days before BENCH_NOW.
      const at = BENCH_NOW - Math.floor(rand() * 30 * 86_400);
      if (r < 0.8) return { ...page, until: at };
      if (r < 0.9) return { ...page, offset: 1 + Math.floor(rand() * 40) };
      return { ...page, since: at, limit: 100 };
    };
    // --statements: how many statements of each text a measured page runs (the wrapper costs a little CPU).
    const statements = new Map<string, number>();
    let measuring = false;
    if (args.includes('--statements')) {
      const db = server.ctx.db;
      for (const m of ['all', 'get'] as const) {
        const orig = db[m].bind(db);
        (db as unknown as Record<string, unknown>)[m] = (sql: string, params?: never[]) => {
          if (measuring) statements.set(sql, (statements.get(sql) ?? 0) + 1);
          return orig(sql, params);
        };
      }
    }
    const env = commandEnv(server.ctx, {});
    const digest = createHash('sha256');
    const idsDigest = createHash('sha256');
    const command: number[] = [];
    const frame: number[] = [];
    const wall: number[] = [];
    let bytes = 0;
    const t0 = performance.now();
    for (let i = 0; i < WARM + PAGES; i++) {
      const kwargs = nextArgs();
      measuring = i >= WARM;
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const objects = (await env.run('mega_feed_directive', kwargs)) as CacheObject[];
      const c1 = process.cpuUsage(c0);
      const w1 = performance.now();
      const out = deflateSync(eventsFrame('feed', objects as never), { level: 3 });
      const c2 = process.cpuUsage(c0);
      if (i >= WARM) {
        command.push((c1.user + c1.system) / 1000);
        frame.push((c2.user + c2.system - c1.user - c1.system) / 1000);
        wall.push(w1 - w0);
        bytes += out.length;
      }
      if (args.includes('--digest')) {
        digest.update(JSON.stringify([kwargs, objects]));
        const range = objects.at(-1);
        idsDigest.update(JSON.stringify([kwargs, range?.content]));
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const figures = {
      tree: TREE,
      pages: PAGES,
      warm: WARM,
      mixed,
      commandCpuMs: mean(command),
      commandCpuP99Ms: quantile(command, 0.99),
      frameCpuMs: mean(frame),
      wallMeanMs: mean(wall),
      wallP99Ms: quantile(wall, 0.99),
      replyKB: bytes / PAGES / 1024,
      seconds: (performance.now() - t0) / 1000,
      load: loadavg()[0],
      ...(args.includes('--digest') ? { digest: digest.digest('hex'), idsDigest: idsDigest.digest('hex') } : {}),
    };
    for (const [sql, n] of [...statements].sort((a, b) => b[1] - a[1]).slice(0, 15)) log(`${(n / PAGES).toFixed(3)} per page: ${sql.replace(/\s+/g, ' ').slice(0, 160)}`);
    if (args.includes('--json')) console.log(JSON.stringify(figures));
    else for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${typeof v === 'number' ? v.toFixed(3) : v}`);
  } finally {
    // Not awaited: with every handle closed, an unsettled close would let Node exit before the figures print.
    void server.close().catch(() => undefined);
    if (!given) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
