/**
 * Several server processes on one PostgreSQL (issue 18): two real `server/main.ts` processes
 * share a throwaway cluster. An event published through one reaches a relay subscription and
 * a live notification push held on the other; exactly one runs the periodic jobs, and when it
 * dies the other takes them over. WORKERS=2 runs two processes behind one port.
 */
import { finalizeEvent, generateSecretKey, getPublicKey, type EventTemplate } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { startServerProcess, type RunningServer } from '../support/server-process.ts';
import { RawClient } from '../support/ws-client.ts';
import { twoProcessesOnPostgres } from '../support/two-processes.ts';
import { until } from '../support/until.ts';
import { BrowserKeys, startPushEndpoint, type PushEndpoint } from '../support/push-endpoint.ts';

const now = () => Math.floor(Date.now() / 1000);
const signAs = (sk: Uint8Array, t: Omit<EventTemplate, 'created_at'>) => finalizeEvent({ ...t, created_at: now() }, sk);
const wsUrl = (http: string, path: string) => `${http.replace(/^http/, 'ws')}${path}`;

interface Status {
  leader: boolean;
  processId: string;
}
const status = async (url: string): Promise<Status> => (await fetch(`${url}/api/status`, { headers: { connection: 'close' } })).json() as Promise<Status>;

describe('two server processes on one PostgreSQL', () => {
  // Private addresses: the push service of this test listens on the loopback.
  const procs = twoProcessesOnPostgres({ FETCH_PRIVATE_ADDRESSES: '1' });
  let a: RunningServer;
  let b: RunningServer;
  let pushEndpoint: PushEndpoint;

  beforeAll(async () => {
    ({ a, b } = procs);
    pushEndpoint = await startPushEndpoint();
  });

  afterAll(async () => {
    await pushEndpoint?.close();
  });

  it('an event published through one process reaches a REQ and a notification push on the other', async () => {
    const alice = generateSecretKey();
    const bob = generateSecretKey();
    const bobPk = getPublicKey(bob);

    const relayB = await RawClient.open(wsUrl(b.url, '/relay'));
    relayB.send(JSON.stringify(['REQ', 'watch', { kinds: [1], '#p': [bobPk] }]));
    await relayB.until(() => relayB.of('watch').some((f) => f[0] === 'EOSE'), 'EOSE on B');

    const cacheB = await RawClient.open(wsUrl(b.url, '/v1'));
    const request = signAs(bob, { kind: 30078, content: JSON.stringify({ description: 'notifications' }), tags: [['d', 'Primal-Web App', 'notifications']] });
    cacheB.send(JSON.stringify(['REQ', 'notes', { cache: ['notifications', { pubkey: bobPk, event_from_user: request }] }]));
    await cacheB.until(() => cacheB.of('notes').some((f) => f[0] === 'EOSE'), 'EOSE of the notification push on B');

    const mention = signAs(alice, { kind: 1, content: 'Szia Bob, ezt a másik folyamaton át küldöm.', tags: [['p', bobPk]] });
    const relayA = await RawClient.open(wsUrl(a.url, '/relay'));
    relayA.send(JSON.stringify(['EVENT', mention]));
    await relayA.until(() => relayA.frames.some((f) => f[0] === 'OK' && f[1] === mention.id), 'OK from A');
    expect(relayA.frames.find((f) => f[0] === 'OK')).toEqual(['OK', mention.id, true, '']);

    await relayB.until(() => relayB.of('watch').some((f) => f[0] === 'EVENT'), 'the event on B');
    expect(relayB.of('watch').filter((f) => f[0] === 'EVENT').map((f) => (f[2] as { id: string }).id)).toEqual([mention.id]);

    await cacheB.until(() => cacheB.of('notes').some((f) => f[0] === 'EVENT'), 'the notification on B');
    const pushed = cacheB.of('notes').find((f) => f[0] === 'EVENT')![2] as { content: string };
    expect(JSON.parse(pushed.content)).toMatchObject({ pubkey: bobPk, type: 7, you_were_mentioned_in: mention.id });
    for (const c of [relayA, relayB, cacheB]) c.close();
  });

  it('Web Push: one VAPID key for both, a subscription and a DM through the follower are pushed once, by the leader', async () => {
    const infoA = (await (await fetch(`${a.url}/api/info`)).json()) as { vapidPublicKey: string };
    const infoB = (await (await fetch(`${b.url}/api/info`)).json()) as { vapidPublicKey: string };
    expect(infoA.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(infoB.vapidPublicKey).toBe(infoA.vapidPublicKey);
    const follower = (await status(a.url)).leader ? b : a;
    const sender = generateSecretKey();
    const subscribeOn = async (url: string, who: Uint8Array, keys: BrowserKeys, path: string) => {
      const ev = signAs(who, { kind: 30078, content: JSON.stringify({ ...keys.subscription(pushEndpoint.origin + path), types: ['dm'] }), tags: [['d', 'Primal-Web App', 'push_subscribe']] });
      const res = await fetch(`${url}/api`, { method: 'POST', body: JSON.stringify(['push_subscribe', { event_from_user: ev }]) });
      expect(await res.json()).toEqual([]);
    };
    const dmTo = async (url: string, who: Uint8Array) => {
      // Messages push only from people followed (the default): the receiver follows the sender.
      const follow = signAs(who, { kind: 3, content: '', tags: [['p', getPublicKey(sender)]] });
      const dm = signAs(sender, { kind: 4, content: 'titkos?iv=AAAAAAAAAAAAAAAAAAAAAA==', tags: [['p', getPublicKey(who)]] });
      const relay = await RawClient.open(wsUrl(url, '/relay'));
      for (const ev of [follow, dm]) {
        relay.send(JSON.stringify(['EVENT', ev]));
        await relay.until(() => relay.frames.some((f) => f[0] === 'OK' && f[1] === ev.id), 'OK');
      }
      relay.close();
    };
    const carol = generateSecretKey();
    const carolKeys = new BrowserKeys();
    await subscribeOn(follower.url, carol, carolKeys, '/carol');
    await dmTo(follower.url, carol);
    await until(async () => pushEndpoint.received.some((r) => r.path === '/carol'), 'the push for carol');
    expect(JSON.parse(carolKeys.decrypt(pushEndpoint.received.find((r) => r.path === '/carol')!.body)).title).toMatch(/^Új üzenet npub1/);
    // A later push handled after it: by then a second sender would have sent carol's twice.
    const dave = generateSecretKey();
    await subscribeOn(follower.url, dave, new BrowserKeys(), '/dave');
    await dmTo(follower.url, dave);
    await until(async () => pushEndpoint.received.some((r) => r.path === '/dave'), 'the push for dave');
    expect(pushEndpoint.received.map((r) => r.path)).toEqual(['/carol', '/dave']);
  });

  it('one process leads the periodic jobs, and the other takes over when it dies', async () => {
    const [sa, sb] = await Promise.all([status(a.url), status(b.url)]);
    expect(sa.processId).not.toBe(sb.processId);
    expect([sa.leader, sb.leader].sort()).toEqual([false, true]);
    const [leader, follower] = sa.leader ? [a, b] : [b, a];
    await leader.kill();
    await until(async () => (await status(follower.url)).leader, 'the other process leads');
  });
});

describe('WORKERS=2 behind one port', () => {
  let pg: TempPostgres;
  let srv: RunningServer;

  beforeAll(async () => {
    pg = await startTempPostgres();
    srv = await startServerProcess({ DATABASE_URL: pg.url, DEMO: '0', WORKERS: '2' });
  }, 120_000);

  afterAll(async () => {
    await srv?.stop();
    pg?.stop();
  });

  it('answers from two processes, one of which leads', async () => {
    // Each process's latest answer: a process may answer before it has taken the lead (a busy start).
    const seen = new Map<string, boolean>();
    await until(async () => {
      const s = await status(srv.url);
      seen.set(s.processId, s.leader);
      return seen.size === 2 && [...seen.values()].includes(true);
    }, 'two distinct processes answering, one of them leading');
    expect([...seen.values()].sort()).toEqual([false, true]);
  });
});

describe('WORKERS without PostgreSQL', () => {
  it('refuses to start several processes on one SQLite file', async () => {
    await expect(startServerProcess({ DEMO: '0', WORKERS: '2', DATABASE_URL: '' })).rejects.toThrow(/WORKERS > 1 csak PostgreSQL-lel/);
  });
});
