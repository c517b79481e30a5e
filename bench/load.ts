/**
 * `npm run load` (not in CI): N concurrent websocket clients (default 1,000) for a fixed time
 * (default 60 s) against one server, each mixing the hot cache commands the web client sends, with
 * a random pause of 0–2×LOAD_THINK_MS between its requests. Prints p50/p99 per command, errors
 * and the server's RSS (GET /api/status) as a markdown section for bench/RESULTS.md.
 *
 * Without LOAD_URL it starts its own server process with the demo network (LOAD_DEMO_SCALE,
 * default 1) and MAX_CONNECTIONS_PER_IP=0, since every client comes from this one address; a
 * server given by LOAD_URL (http://host:port) needs that cap raised the same way.
 */
import { availableParallelism, loadavg } from 'node:os';
import WebSocket from 'ws';
import { startServerProcess } from '../tests/support/server-process.ts';
import { Client } from './server-load.ts';

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 1000);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const THINK_MS = Number(process.env.LOAD_THINK_MS ?? 1000);
const DEMO_SCALE = process.env.LOAD_DEMO_SCALE ?? '1';

const log = (msg: string) => console.error(`[load] ${msg}`);
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface Ev {
  id: string;
  pubkey: string;
  kind: number;
  content: string;
  tags: string[][];
}

/** Events of the server's network through its own relay endpoint, to aim the requests at real people and threads. */
async function sample(wsBase: string, filter: Record<string, unknown>): Promise<Ev[]> {
  const ws = new WebSocket(`${wsBase}/relay`);
  const out: Ev[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify(['REQ', 's', filter])));
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as unknown[];
      if (msg[0] === 'EVENT') out.push(msg[2] as Ev);
      else if (msg[0] === 'EOSE' || msg[0] === 'CLOSED') resolve();
    });
  });
  ws.terminate();
  return out;
}

async function rssMb(httpBase: string): Promise<number> {
  const status = (await (await fetch(`${httpBase}/api/status`)).json()) as { rssBytes?: number };
  return (status.rssBytes ?? NaN) / 2 ** 20;
}

async function main() {
  const given = process.env.LOAD_URL?.replace(/\/+$/, '');
  let stop = async () => undefined as void;
  let httpBase = given ?? '';
  if (!given) {
    log(`starting a server with the demo network (scale ${DEMO_SCALE})…`);
    const server = await startServerProcess({ DEMO: '1', DEMO_SCALE, MAX_CONNECTIONS_PER_IP: '0' });
    httpBase = server.url;
    stop = () => server.stop();
  }
  const wsBase = httpBase.replace(/^http/, 'ws');
  try {
    const [contacts, notes, profiles] = await Promise.all([
      sample(wsBase, { kinds: [3], limit: 500 }),
      sample(wsBase, { kinds: [1], limit: 500 }),
      sample(wsBase, { kinds: [0], limit: 500 }),
    ]);
    const viewers = contacts.map((e) => e.pubkey);
    const people = profiles.map((e) => e.pubkey);
    const noteIds = notes.map((e) => e.id);
    const threads = [...new Set(notes.flatMap((e) => e.tags.filter((t) => t[0] === 'e').map((t) => t[1])))];
    const words = [...new Set(notes.flatMap((e) => e.content.toLowerCase().split(/[^\p{L}]+/u).filter((w) => w.length >= 5 && w.length <= 12)))].slice(0, 200);
    if (!viewers.length || !people.length || !noteIds.length) throw new Error('the server holds no network to aim at (empty store?)');
    log(`targets: ${viewers.length} viewers, ${people.length} profiles, ${noteIds.length} notes, ${threads.length} threads`);

    const viewer = () => pick(viewers);
    /** [command, weight, arguments]: the mix a feed-reading client sends. */
    const mix: [string, number, () => Record<string, unknown>][] = [
      ['mega_feed_directive', 30, () => ({ spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: viewer(), limit: 20 })],
      ['feed', 10, () => ({ pubkey: viewer(), notes: 'follows', limit: 20, user_pubkey: viewer() })],
      ['thread_view', 20, () => ({ event_id: pick(threads.length ? threads : noteIds), limit: 20, user_pubkey: viewer() })],
      ['user_profile', 15, () => ({ pubkey: pick(people), user_pubkey: viewer() })],
      ['user_infos', 10, () => ({ pubkeys: Array.from({ length: 20 }, () => pick(people)) })],
      ['events', 10, () => ({ event_ids: Array.from({ length: 10 }, () => pick(noteIds)), user_pubkey: viewer() })],
      ['search', 5, () => ({ query: pick(words), limit: 20, user_pubkey: viewer() })],
    ];
    const total = mix.reduce((s, m) => s + m[1], 0);
    const choose = () => {
      let r = Math.random() * total;
      for (const m of mix) if ((r -= m[1]) < 0) return m;
      return mix[0];
    };

    const rssBefore = await rssMb(httpBase);
    log(`connecting ${CLIENTS} clients…`);
    const clients: Client[] = [];
    let connectErrors = 0;
    for (let i = 0; i < CLIENTS; i += 20) {
      const batch = await Promise.all(Array.from({ length: Math.min(20, CLIENTS - i) }, () => Client.open(`${wsBase}/v1`).catch(() => null)));
      for (const c of batch) if (c) clients.push(c);
      else connectErrors++;
    }
    log(`${clients.length} connected (${connectErrors} failed); running ${SECONDS} s…`);
    const latencies = new Map<string, number[]>(mix.map(([name]) => [name, []]));
    const errors = new Map<string, number>(mix.map(([name]) => [name, 0]));
    let rssPeak = rssBefore;
    const until = Date.now() + SECONDS * 1000;
    const sampler = setInterval(() => {
      rssMb(httpBase).then((mb) => (rssPeak = Math.max(rssPeak, mb)), () => undefined);
    }, 2000);
    const started = Date.now();
    await Promise.all(
      clients.map(async (c, i) => {
        await sleep(((i + 0.5) / clients.length) * THINK_MS);
        while (Date.now() < until) {
          const [name, , args] = choose();
          const t0 = performance.now();
          const failed = await Promise.race([c.request(name, args()), sleep(30_000).then(() => true)]);
          latencies.get(name)!.push(performance.now() - t0);
          if (failed) errors.set(name, errors.get(name)! + 1);
          await sleep(Math.random() * 2 * THINK_MS);
        }
      }),
    );
    const elapsed = (Date.now() - started) / 1000;
    clearInterval(sampler);
    const rssAfter = await rssMb(httpBase);
    for (const c of clients) c.close();

    const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
    const rows: string[] = [];
    let requests = 0;
    let failed = 0;
    for (const [name] of mix) {
      const xs = latencies.get(name)!.sort((a, b) => a - b);
      requests += xs.length;
      failed += errors.get(name)!;
      rows.push(`| ${name} | ${fmt(xs.length)} | ${fmt(pct(xs, 50), 1)} | ${fmt(pct(xs, 99), 1)} | ${fmt(errors.get(name)!)} |`);
    }
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    console.log(`## ${when} — load test (npm run load)

${clients.length} concurrent websocket clients on /v1 (${connectErrors} could not connect), ${fmt(elapsed)} s, each pausing 0–${fmt((2 * THINK_MS) / 1000, 1)} s between requests; ${given ? `server ${given}` : `own server process, demo network scale ${DEMO_SCALE}`}; ${availableParallelism()} cores, Node ${process.version}, load average (1 min) at the end ${fmt(loadavg()[0], 2)}.

| command | requests | p50 ms | p99 ms | errors (NOTICE or no answer in 30 s) |
|---|---|---|---|---|
${rows.join('\n')}
| all | ${fmt(requests)} (${fmt(requests / elapsed)}/s) | | | ${fmt(failed)} |

Server RSS: ${fmt(rssBefore)} MB before the clients connected, ${fmt(rssPeak)} MB peak (sampled every 2 s), ${fmt(rssAfter)} MB at the end.
`);
  } finally {
    await stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
