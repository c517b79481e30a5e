/**
 * Login through a remote signer (NIP-46) in the worker, in Node against the real Strucc server:
 * a bunker of ours (tests/support/bunker.ts) holds the user's key and answers over the server's
 * own /relay. The session is the worker's, so both tabs see the login; a follow is signed by the
 * bunker; a refusal, an unreachable relay and a silent bunker each give their own code.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { createApi, type StruccWorker } from '../../worker/api.ts';
import type { WebSocketFactory, WebSocketLike } from '../../worker/relays.ts';
import { MemoryStorage } from '../../worker/storage.ts';
import type { AccountSnapshot, NostrEvent } from '../../core/types.ts';
import { startBunker, type TestBunker } from '../support/bunker.ts';
import { until } from '../support/until.ts';
import { startStrucc } from '../support/strucc-server.ts';

const wsFactory: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;
const TIMEOUT_MS = 2500;

describe('remote signer (NIP-46) login against the real server', () => {
  const userSecret = generateSecretKey();
  const [alice, bob, carol, dave] = [1, 2, 3, 4].map(() => getPublicKey(generateSecretKey()));
  let dir: string;
  let server: RunningServer;
  let relayUrl: string;
  let bunker: TestBunker;
  const storage = new MemoryStorage();
  const apis: StruccWorker[] = [];
  const snaps: Record<string, AccountSnapshot[]> = { tab1: [], tab2: [], tab3: [] };
  const last = (tab: string) => snaps[tab].at(-1);
  const savedWebSocket = globalThis.WebSocket;

  async function worker(tabs: string[]): Promise<StruccWorker> {
    const api = createApi({ relaySocketFactory: wsFactory, publishTimeoutMs: 4000, accountStorage: storage, remoteSignerTimeoutMs: TIMEOUT_MS });
    apis.push(api);
    const cfg = { cacheServer: `ws://127.0.0.1:${server.port}/v1`, mediaServer: server.url, noBinary: false, devMode: false };
    for (const tab of tabs) {
      await api.hello(tab, cfg);
      await api.watchAccount!(tab, (s) => snaps[tab].push(s));
    }
    return api;
  }

  /** The relay the follow is published to is the server's own, as in account.test.ts. */
  async function connectRelay(api: StruccWorker, tab: string): Promise<void> {
    expect(await api.addRelay!(relayUrl)).toEqual({ ok: true, url: relayUrl });
    await until(() => last(tab)?.account?.relaySettings[relayUrl], 'relay in the account');
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strucc-nip46-'));
    server = await startStrucc(dir);
    relayUrl = `ws://127.0.0.1:${server.port}/relay`;
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
    // Two contacts already, so a follow is not held by the "fewer than 2 contacts" repair dialog.
    const old = finalizeEvent({ kind: 3, tags: [['p', alice], ['p', dave]], content: '', created_at: Math.floor(Date.now() / 1000) - 60 }, userSecret);
    await server.ctx.importer.importEvents([old]);
    bunker = await startBunker([relayUrl], userSecret);
  });

  afterAll(async () => {
    for (const api of apis) api.dispose();
    bunker?.close();
    (globalThis as { WebSocket?: unknown }).WebSocket = savedWebSocket;
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a malformed bunker URI is refused with its own code', async () => {
    const api = await worker(['tab1', 'tab2']);
    expect(await api.login!({ method: 'bunker', uri: 'bunker://nem-kulcs?relay=wss://x' })).toEqual({ ok: false, code: 'bunker-bad-uri' });
    expect(await api.login!({ method: 'bunker', uri: `bunker://${bunker.bunkerPubkey}` })).toEqual({ ok: false, code: 'bunker-bad-uri' });
    expect(last('tab1')?.login.state).toBe('loggedOut');
  });

  it('bunker:// login asks for the permissions up front and shows the user in both tabs', async () => {
    const api = apis[0];
    expect(await api.login!({ method: 'bunker', uri: bunker.uri })).toEqual({ ok: true });
    const snap = await until(() => last('tab2')?.login.pubkey === bunker.userPubkey && last('tab2'), 'tab2 signed in');
    expect(snap.login).toMatchObject({ state: 'signedIn', method: 'remote', remoteRelays: [relayUrl] });
    const connect = bunker.requests.find((r) => r.method === 'connect');
    expect(connect?.params[0]).toBe(bunker.bunkerPubkey);
    expect(connect?.params[2].split(',')).toEqual(expect.arrayContaining(['sign_event:3', 'nip04_encrypt', 'nip44_decrypt']));
    const stored = await storage.loadLogin();
    expect(stored).toMatchObject({ method: 'bunker', pubkey: bunker.userPubkey, bunker: { remotePubkey: bunker.bunkerPubkey, relays: [relayUrl] } });
    expect(stored?.secret).toBeUndefined();
  });

  it('a follow is signed by the remote signer and reaches the relay with the user’s signature', async () => {
    const api = apis[0];
    await connectRelay(api, 'tab1');
    expect(await api.accountAction!({ type: 'follow', pubkey: bob })).toEqual({ ok: true });
    await until(() => last('tab2')?.account?.following.includes(bob), 'tab2 sees the follow');
    expect(bunker.requests.some((r) => r.method === 'sign_event' && JSON.parse(r.params[0]).kind === 3)).toBe(true);
    const reply = await api.request('contact_list', { pubkey: bunker.userPubkey, extended_response: false });
    const kind3 = reply.events.find((e) => e.kind === 3) as NostrEvent | undefined;
    expect(kind3?.pubkey).toBe(bunker.userPubkey);
    expect(kind3?.tags).toContainEqual(['p', bob]);
    expect(verifyEvent({ ...(kind3 as NostrEvent) })).toBe(true);
  });

  it('a refused signature gives bunker-rejected and changes nothing', async () => {
    const api = apis[0];
    bunker.refuse.add('sign_event');
    try {
      const result = await api.accountAction!({ type: 'follow', pubkey: carol });
      expect(result).toMatchObject({ ok: false, code: 'bunker-rejected' });
      expect(last('tab1')?.account?.following).not.toContain(carol);
    } finally {
      bunker.refuse.delete('sign_event');
    }
  });

  it('a reload reconnects with the stored session, without a new connect', async () => {
    const connects = bunker.requests.filter((r) => r.method === 'connect').length;
    const api = await worker(['tab3']);
    const snap = await until(() => last('tab3')?.login.state === 'signedIn' && last('tab3'), 'reloaded login');
    expect(snap.login).toMatchObject({ pubkey: bunker.userPubkey, method: 'remote' });
    await connectRelay(api, 'tab3');
    expect(await api.accountAction!({ type: 'follow', pubkey: carol })).toEqual({ ok: true });
    expect(bunker.requests.filter((r) => r.method === 'connect').length).toBe(connects);
    const reply = await api.request('contact_list', { pubkey: bunker.userPubkey, extended_response: false });
    expect((reply.events.find((e) => e.kind === 3) as NostrEvent | undefined)?.tags).toContainEqual(['p', carol]);
  });

  it('a bunker that never answers times out; an unreachable relay says so', async () => {
    const api = apis[1];
    const silent = getPublicKey(generateSecretKey());
    expect(await api.login!({ method: 'bunker', uri: `bunker://${silent}?relay=${encodeURIComponent(relayUrl)}` })).toEqual({ ok: false, code: 'bunker-timeout' });
    const closed = 'ws://127.0.0.1:9/relay';
    expect(await api.login!({ method: 'bunker', uri: `bunker://${silent}?relay=${encodeURIComponent(closed)}` })).toEqual({ ok: false, code: 'bunker-unreachable' });
    // The earlier session is kept: a failed login leaves the account as it was.
    expect(last('tab3')?.login).toMatchObject({ state: 'signedIn', pubkey: bunker.userPubkey, method: 'remote' });
  });

  it('a nostrconnect:// offer is accepted by the signer app; the login waits for it and asks for permissions in the URI', async () => {
    const api = apis[1];
    const uri = await api.nostrConnect!([relayUrl]);
    const url = new URL(uri);
    expect(url.protocol).toBe('nostrconnect:');
    expect(url.searchParams.getAll('relay')).toEqual([relayUrl]);
    expect(url.searchParams.get('perms')?.split(',')).toContain('sign_event:3');
    const login = api.login!({ method: 'bunker', uri });
    await bunker.acceptNostrConnect(uri);
    expect(await login).toEqual({ ok: true });
    expect(last('tab3')?.login).toMatchObject({ state: 'signedIn', pubkey: bunker.userPubkey, method: 'remote' });
    expect((await storage.loadLogin())?.bunker?.remotePubkey).toBe(bunker.bunkerPubkey);
    // An offer this worker did not make is refused.
    expect(await api.login!({ method: 'bunker', uri: uri.replace(/secret=[^&]+/, 'secret=mas') })).toEqual({ ok: false, code: 'bunker-bad-uri' });
  });
});
