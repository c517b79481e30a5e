/**
 * Standing fuzz test: tens of thousands of malformed, oversized and adversarial frames (seeded,
 * tests/support/fuzz.ts) to /v1, /relay, /wallet and /upload of one real server process. The
 * server must stay up, end every readable REQ (EOSE, CLOSED or NOTICE), keep its memory bounded
 * and still answer valid requests at the end. FUZZ_FRAMES and FUZZ_SEED change the run
 * (`npm run fuzz` sends 200,000).
 */
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, expect, it } from 'vitest';
import { ASYNC_COMMANDS } from '../../server/cache/async.ts';
import { membershipAsyncCommands, membershipCommands } from '../../server/cache/commands/membership.ts';
import { leaderboardCommands } from '../../server/cache/commands/leaderboards.ts';
import { COMMANDS } from '../../server/cache/registry.ts';
import { walletCommands } from '../../server/wallet/ops.ts';
import { FuzzGenerator, type Endpoint } from '../support/fuzz.ts';
import { startServerProcess, type RunningServer } from '../support/server-process.ts';
import { RawClient } from '../support/ws-client.ts';

const FRAMES = Number(process.env.FUZZ_FRAMES ?? 20_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
/** Frames sent before waiting for the window's REQs to end; the wallet and upload sockets allow 16 pending. */
const WINDOW: Record<Endpoint, number> = { '/v1': 100, '/relay': 100, '/wallet': 12, '/upload': 12 };
const ENDPOINTS: Endpoint[] = ['/v1', '/relay', '/wallet', '/upload'];

const COMMAND_NAMES: Record<Endpoint, string[]> = {
  '/v1': [...COMMANDS.keys(), ...ASYNC_COMMANDS.keys(), 'set_primal_protocol'],
  '/relay': [],
  '/wallet': [...[...membershipCommands, ...walletCommands, ...leaderboardCommands, ...membershipAsyncCommands].map(([name]) => name)],
  '/upload': ['upload_chunk', 'upload_complete', 'upload_cancel'],
};
COMMAND_NAMES['/relay'] = COMMAND_NAMES['/v1'];

let server: RunningServer | undefined;
const clients: RawClient[] = [];

afterAll(async () => {
  for (const c of clients) c.close();
  await server?.stop();
});

interface Outcome {
  sent: number;
  tracked: number;
  reconnects: number;
  unanswered: string[];
  seconds: number;
}

async function rss(url: string): Promise<number> {
  const status = (await (await fetch(`${url}/api/status`)).json()) as { rssBytes: number };
  return status.rssBytes;
}

async function fuzzEndpoint(url: string, endpoint: Endpoint, count: number, seed: number): Promise<Outcome> {
  const gen = new FuzzGenerator(seed, COMMAND_NAMES);
  const wsUrl = `${url.replace(/^http/, 'ws')}${endpoint}`;
  const connect = async () => {
    const c = await RawClient.open(wsUrl);
    clients.push(c);
    return c;
  };
  const out: Outcome = { sent: 0, tracked: 0, reconnects: 0, unanswered: [], seconds: 0 };
  const started = Date.now();
  let c = await connect();
  while (out.sent < count) {
    const waiting = new Set<string>();
    const n = Math.min(WINDOW[endpoint], count - out.sent);
    for (let i = 0; i < n && !c.closed; i++) {
      const frame = gen.next(endpoint);
      c.send(frame.data, frame.binary);
      out.sent++;
      if (frame.tracked) waiting.add(frame.tracked);
    }
    out.tracked += waiting.size;
    const ended = () => {
      for (const f of c.frames) {
        if ((f[0] === 'EOSE' || f[0] === 'CLOSED' || f[0] === 'NOTICE' || f[0] === 'COUNT') && typeof f[1] === 'string') waiting.delete(f[1]);
      }
      c.frames.length = 0;
      return waiting.size === 0;
    };
    try {
      await c.until(() => ended() || c.closed, `${endpoint}: every REQ of the window ends`, 30_000);
    } catch {
      out.unanswered.push(...[...waiting].slice(0, 20));
    }
    if (c.closed) {
      // The server may hang up on a client this hostile (frame over the ws limit, too many pending); it must take the next one.
      out.reconnects++;
      c = await connect();
    }
  }
  c.close();
  out.seconds = Math.round((Date.now() - started) / 1000);
  return out;
}

async function answers(url: string, path: Endpoint, frame: unknown[], subid: string): Promise<unknown[][]> {
  const c = await RawClient.open(`${url.replace(/^http/, 'ws')}${path}`);
  clients.push(c);
  c.send(JSON.stringify(frame));
  await c.until(() => c.frames.some((f) => f[1] === subid && (f[0] === 'EOSE' || f[0] === 'CLOSED')), `${path} answers`);
  c.close();
  return c.frames.filter((f) => f[1] === subid);
}

it(`survives ${FRAMES} hostile frames on every websocket endpoint`, { timeout: 120_000 + FRAMES * 10 }, async () => {
  // A low in-flight cap, so the fuzzer's windows of 100 also run into it.
  server = await startServerProcess({ DEMO: '0', WS_MAX_QUEUED_FRAMES: '50' });
  const url = server.url;
  const before = await rss(url);
  const per = Math.ceil(FRAMES / ENDPOINTS.length);
  const outcomes = await Promise.all(ENDPOINTS.map((e, i) => fuzzEndpoint(url, e, per, SEED + i)));
  const report = Object.fromEntries(ENDPOINTS.map((e, i) => [e, outcomes[i]]));
  console.log(`fuzz seed ${SEED}:`, JSON.stringify(report));
  expect(outcomes.reduce((s, o) => s + o.sent, 0)).toBeGreaterThanOrEqual(FRAMES);
  for (const [endpoint, o] of Object.entries(report)) expect(o.unanswered, `${endpoint} REQs without an end (seed ${SEED})`).toEqual([]);

  // Still up, and still right, on every endpoint.
  expect((await answers(url, '/v1', ['REQ', 'fin', { cache: ['get_app_releases', {}] }], 'fin')).map((f) => f[0])).not.toContain('NOTICE');
  expect((await answers(url, '/relay', ['REQ', 'fin', { ids: ['0'.repeat(64)] }], 'fin')).map((f) => f[0])).toEqual(['EOSE']);
  const wallet = await answers(url, '/wallet', ['REQ', 'fin', { cache: ['membership_name_available', { name: 'fuzzvege' }] }], 'fin');
  expect(wallet.map((f) => f[0])).not.toContain('NOTICE');
  const key = generateSecretKey();
  const cancel = finalizeEvent(
    { kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [['p', getPublicKey(key)]], content: JSON.stringify({ upload_id: 'fin' }) },
    key,
  );
  expect((await answers(url, '/upload', ['REQ', 'fin', { cache: ['upload_cancel', { event_from_user: cancel }] }], 'fin')).at(-1)?.[0]).toBe('EOSE');

  const after = await rss(url);
  console.log(`server RSS: ${(before / 2 ** 20).toFixed(0)} MB before, ${(after / 2 ** 20).toFixed(0)} MB after`);
  expect(after - before).toBeLessThan(400 * 2 ** 20);
});
