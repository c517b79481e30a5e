/**
 * The worker's login, account and settings services in Node against the real Strucc server:
 * the cache socket at /v1 and its NIP-01 relay at /relay. Login with an nsec, follow someone
 * (the signed kind 3 reaches the server through the relay), and the settings load sequence.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nsecEncode } from 'nostr-tools/nip19';
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { createApi, type StruccWorker } from '../../worker/api.ts';
import type { WebSocketFactory, WebSocketLike } from '../../worker/relays.ts';
import { MemoryStorage } from '../../worker/storage.ts';
import type { AccountSnapshot, NostrEvent, RelayInfo } from '../../core/types.ts';
import { until } from '../support/until.ts';
import { startStrucc } from '../support/strucc-server.ts';

const wsFactory: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;

describe('account services against the real server', () => {
  const sk = generateSecretKey();
  const me = getPublicKey(sk);
  const [bob, carol, dave] = [1, 2, 3].map(() => getPublicKey(generateSecretKey()));
  let dir: string;
  let server: RunningServer;
  let api: StruccWorker;
  let relayUrl: string;
  const snaps: Record<'tab1' | 'tab2', AccountSnapshot[]> = { tab1: [], tab2: [] };
  const last = (tab: 'tab1' | 'tab2') => snaps[tab].at(-1);
  const savedWebSocket = globalThis.WebSocket;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strucc-account-'));
    server = await startStrucc(dir);
    relayUrl = `ws://127.0.0.1:${server.port}/relay`;
    // An older contact list of ours is already known to the server.
    const old = finalizeEvent({ kind: 3, tags: [['p', bob], ['p', carol]], content: '', created_at: Math.floor(Date.now() / 1000) - 60 }, sk);
    await server.ctx.importer.importEvents([old]);

    // The cache socket actor uses the global WebSocket, which Node 20 lacks.
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
    api = createApi({ relaySocketFactory: wsFactory, publishTimeoutMs: 4000, accountStorage: new MemoryStorage() });
    const cfg = { cacheServer: `ws://127.0.0.1:${server.port}/v1`, mediaServer: server.url, noBinary: false, devMode: false };
    await api.hello('tab1', cfg);
    await api.hello('tab2', cfg);
    await api.watchAccount!('tab1', (s) => snaps.tab1.push(s));
    await api.watchAccount!('tab2', (s) => snaps.tab2.push(s));
  });

  afterAll(async () => {
    api?.dispose();
    (globalThis as { WebSocket?: unknown }).WebSocket = savedWebSocket;
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a guest gets the default settings and feeds from the server', async () => {
    const snap = await until(() => last('tab2')?.settings.state === 'ready' && last('tab2'), 'guest settings');
    expect(snap.login.state).toBe('loggedOut');
    expect(snap.settings.warning).toBeUndefined();
    expect(snap.settings.settings.zapDefault).toMatchObject({ amount: 42 });
    expect(snap.settings.homeFeeds.length).toBeGreaterThan(0);
    expect(snap.settings.readsFeeds.length).toBeGreaterThan(0);
  });

  it('nsec login shows in both tabs, and the contact list is taken from the server', async () => {
    expect(await api.login!({ method: 'nsec', nsec: 'nsec1rossz' })).toMatchObject({ ok: false, code: 'invalid-nsec' });
    expect(await api.login!({ method: 'nsec', nsec: nsecEncode(sk) })).toEqual({ ok: true });
    const snap = await until(() => last('tab2')?.account?.following.length === 2 && last('tab2'), 'contacts in tab2');
    expect(snap.login).toMatchObject({ state: 'signedIn', pubkey: me, method: 'local' });
    expect(snap.account?.following).toEqual([bob, carol]);
  });

  it('the signed-in settings load: get_app_settings, home and reads feeds, wallet — no warning', async () => {
    const snap = await until(() => {
      const s = last('tab1');
      return s?.login.state === 'signedIn' && s.settings.state === 'ready' && s;
    }, 'user settings');
    expect(snap.settings.warning).toBeUndefined();
    expect(snap.settings.homeFeeds.length).toBeGreaterThan(0);

    // A feed change is saved with set_app_subsettings and comes back from get_app_subsettings.
    const first = snap.settings.homeFeeds[0];
    expect(await api.settingsAction!({ type: 'renameFeed', list: 'home', spec: first.spec, name: 'Átnevezett' })).toEqual({ ok: true });
    await api.settingsAction!({ type: 'updateSettings', patch: { animated: false } });
    await until(() => last('tab1')?.settings.homeFeeds[0].name === 'Átnevezett', 'rename shown');
    expect(await api.settingsAction!({ type: 'reload' })).toEqual({ ok: true });
    const reloaded = await until(() => last('tab2')?.settings.state === 'ready' && last('tab2'), 'reloaded');
    expect(reloaded.settings.homeFeeds[0].name).toBe('Átnevezett');
    expect(reloaded.settings.settings.animated).toBe(false);
  });

  it('follow: a signed kind 3 with the new contact reaches the server through its relay', async () => {
    let relays: RelayInfo[] = [];
    await api.watchRelays!('tab1', (r) => (relays = r));
    expect(await api.addRelay!(relayUrl)).toEqual({ ok: true, url: relayUrl });
    await until(() => relays.some((r) => r.url === relayUrl && r.state === 'connected'), 'relay connected');
    await until(() => last('tab1')?.account?.relaySettings[relayUrl], 'relay in the account');

    expect(await api.accountAction!({ type: 'follow', pubkey: bob })).toEqual({ ok: true, code: 'ignored' });
    expect(await api.accountAction!({ type: 'follow', pubkey: dave })).toEqual({ ok: true });
    await until(() => last('tab2')?.account?.following.includes(dave), 'tab2 sees the follow');

    const reply = await api.request('contact_list', { pubkey: me, extended_response: false });
    const kind3 = reply.events.find((e) => e.kind === 3) as NostrEvent | undefined;
    expect(kind3?.tags).toEqual([['p', bob], ['p', carol], ['p', dave]]);
    expect(verifyEvent({ ...(kind3 as NostrEvent) })).toBe(true);

    expect(await api.accountAction!({ type: 'unfollow', pubkey: me })).toEqual({ ok: true, code: 'ignored' });
  });

  it('logout clears the login in every tab; the guest settings come back', async () => {
    await api.logout!();
    const snap = await until(() => last('tab2')?.login.state === 'loggedOut' && last('tab2'), 'tab2 logged out');
    expect(snap.login.pubkey).toBeUndefined();
    expect(snap.account).toBeUndefined();
    expect(last('tab1')?.login.state).toBe('loggedOut');
    expect(await api.accountAction!({ type: 'follow', pubkey: bob })).toEqual({ ok: false, code: 'no-pubkey' });
  });
});
