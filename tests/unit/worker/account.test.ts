import { afterEach, describe, expect, it } from 'vitest';
import * as nip04 from 'nostr-tools/nip04';
import { nsecEncode, npubEncode } from 'nostr-tools/nip19';
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { AccountService } from '../../../worker/account.ts';
import { bytesToHex, EXTENSION_NOT_FOUND } from '../../../core/keys.ts';
import { sealWithPin } from '../../../worker/pin.ts';
import { MemoryStorage } from '../../../worker/storage.ts';
import type { AccountSnapshot, CacheObject, CacheReply, NostrEvent, SignerBridge } from '../../../core/types.ts';
import { until } from '../../support/until.ts';

type Handler = (payload: Record<string, unknown> | undefined) => CacheReply;

function fakeServer(handlers: Record<string, Handler> = {}) {
  const calls: { command: string; payload?: Record<string, unknown> }[] = [];
  const request = async (command: string, payload?: Record<string, unknown>): Promise<CacheReply> => {
    calls.push({ command, payload });
    const h = handlers[command];
    return h ? h(payload) : { events: [], notice: `unknown command ${command}` };
  };
  return { request, calls };
}

const feedsReply = (kind: number, names: string[]): CacheReply => ({
  events: [{ kind, content: JSON.stringify(names.map((n) => ({ name: n, spec: JSON.stringify({ id: n }), description: '', enabled: true }))) }],
});

const services: AccountService[] = [];
function service(opts: ConstructorParameters<typeof AccountService>[0]) {
  const s = new AccountService(opts);
  services.push(s);
  return s;
}

function tabs(s: AccountService) {
  const seen: Record<string, AccountSnapshot[]> = { tab1: [], tab2: [] };
  s.watch('tab1', (snap) => seen.tab1.push(snap), () => undefined);
  s.watch('tab2', (snap) => seen.tab2.push(snap), () => undefined);
  return { last: (tab: 'tab1' | 'tab2') => seen[tab].at(-1) as AccountSnapshot, seen };
}

describe('AccountService (worker, real crypto, in-memory storage)', () => {
  afterEach(() => {
    for (const s of services.splice(0)) s.dispose();
  });

  it('nsec login shows in every tab; logout clears the key and the stored login everywhere', async () => {
    const sk = generateSecretKey();
    const storage = new MemoryStorage();
    const s = service({ request: fakeServer().request, storage });
    const t = tabs(s);
    expect(await s.loginWith({ method: 'nsec', nsec: nsecEncode(sk) })).toEqual({ ok: true });
    await until(() => t.last('tab2').login.state === 'signedIn', 'tab2 signed in');
    expect(t.last('tab1').login).toMatchObject({ state: 'signedIn', pubkey: getPublicKey(sk), npub: npubEncode(getPublicKey(sk)), method: 'local' });
    expect(await storage.loadLogin()).toEqual({ method: 'nsec', pubkey: getPublicKey(sk), secret: bytesToHex(sk) });

    await s.logout();
    await until(() => t.last('tab1').login.state === 'loggedOut' && t.last('tab2').login.state === 'loggedOut', 'both logged out');
    expect(t.last('tab2').login.pubkey).toBeUndefined();
    expect(t.last('tab2').account).toBeUndefined();
    expect(await storage.loadLogin()).toBeUndefined();
    expect(s.signer.current.kind).toBe('none');
  });

  it('an invalid nsec gives invalid-nsec with the Hungarian message', async () => {
    const s = service({ request: fakeServer().request, storage: new MemoryStorage() });
    expect(await s.loginWith({ method: 'nsec', nsec: 'nsec1hibas' })).toEqual({
      ok: false,
      code: 'invalid-nsec',
      message: 'Adj meg egy érvényes privát kulcsot!',
    });
    expect(await s.loginWith({ method: 'nsec', nsec: nsecEncode(generateSecretKey()), pin: '12', pinConfirm: '12' })).toEqual({
      ok: false,
      code: 'invalid-pin',
      message: 'A PIN-kódnak legalább 6 karakterből kell állnia.',
    });
  });

  it('with a PIN only the encrypted secret is stored; the next start opens the PIN prompt', async () => {
    const sk = generateSecretKey();
    const storage = new MemoryStorage();
    const first = service({ request: fakeServer().request, storage });
    expect(await first.loginWith({ method: 'nsec', nsec: nsecEncode(sk), pin: '432198', pinConfirm: '432198' })).toEqual({ ok: true });
    const stored = JSON.stringify(await storage.loadLogin());
    expect(stored).toContain('strucc-pin1:');
    expect(stored).not.toContain(bytesToHex(sk));
    expect(stored).not.toContain(nsecEncode(sk));
    first.dispose();

    const second = service({ request: fakeServer().request, storage });
    second.boot();
    await until(() => second.snapshot().login.state === 'pinPrompt', 'PIN prompt');
    expect(second.snapshot().login).toMatchObject({ pubkey: getPublicKey(sk), hasPinSecret: true });
    expect(await second.unlock('000000')).toEqual({ ok: false, code: 'bad-cipher' });
    expect(await second.unlock('432198')).toEqual({ ok: true });
    expect(second.snapshot().login.weakPin).toBe(false);
    const signed = await second.signer.sign({ kind: 1, tags: [], content: 'x', created_at: 1 });
    expect(signed.pubkey).toBe(getPublicKey(sk));
  });

  it('a key stored under an old 4-character PIN still unlocks, then asks for a new PIN until one is set', async () => {
    const sk = generateSecretKey();
    const storage = new MemoryStorage();
    // What the app stored before the 6-character rule.
    await storage.saveLogin({ method: 'nsec', pubkey: getPublicKey(sk), secret: await sealWithPin(bytesToHex(sk), '1234') });
    const s = service({ request: fakeServer().request, storage });
    s.boot();
    await until(() => s.snapshot().login.state === 'pinPrompt', 'PIN prompt');
    expect(await s.unlock('1234')).toEqual({ ok: true });
    expect(s.snapshot().login).toMatchObject({ state: 'signedIn', hasPinSecret: true, weakPin: true });

    expect(await s.changePin('9999', '135790', '135790')).toEqual({ ok: false, code: 'bad-cipher' });
    expect(await s.changePin('1234', '13579', '13579')).toEqual({ ok: false, code: 'invalid-pin', message: 'A PIN-kódnak legalább 6 karakterből kell állnia.' });
    expect(s.snapshot().login.weakPin).toBe(true);
    expect(await s.changePin('1234', '135790', '135790')).toEqual({ ok: true });
    expect(s.snapshot().login.weakPin).toBe(false);
    s.dispose();

    const next = service({ request: fakeServer().request, storage });
    next.boot();
    await until(() => next.snapshot().login.state === 'pinPrompt', 'PIN prompt');
    expect(await next.unlock('1234')).toEqual({ ok: false, code: 'bad-cipher' });
    expect(await next.unlock('135790')).toEqual({ ok: true });
    expect(next.snapshot().login.weakPin).toBe(false);
  });

  it('read-only npub login: actions that sign say sign-no-nsec', async () => {
    const pk = getPublicKey(generateSecretKey());
    const s = service({ request: fakeServer().request, storage: new MemoryStorage() });
    expect(await s.loginWith({ method: 'npub', npub: npubEncode(pk) })).toEqual({ ok: true });
    expect(s.snapshot().login).toMatchObject({ state: 'readOnly', method: 'readonly', pubkey: pk });
    expect(await s.act({ type: 'mute', pubkey: 'b'.repeat(64) })).toEqual({ ok: false, code: 'sign-no-nsec' });
    await expect(s.signer.sign({ kind: 1, tags: [], content: '', created_at: 1 })).rejects.toThrow('sign-no-nsec');
  });

  it('an extension in a tab signs; without one the login retries and falls back to the stored key', async () => {
    const sk = generateSecretKey();
    const bridge: SignerBridge = {
      available: async () => true,
      getPublicKey: async () => getPublicKey(sk),
      signEvent: async (e) => finalizeEvent({ kind: e.kind, tags: e.tags, content: e.content, created_at: e.created_at }, sk) as NostrEvent,
      nip04Encrypt: async (pk, t) => nip04.encrypt(sk, pk, t),
      nip04Decrypt: async (pk, t) => nip04.decrypt(sk, pk, t),
      nip44Encrypt: async () => '',
      nip44Decrypt: async () => '',
    };
    const storage = new MemoryStorage();
    const s = service({ request: fakeServer().request, storage });
    s.registerBridge('tab1', bridge);
    expect(await s.loginWith({ method: 'extension' })).toEqual({ ok: true });
    expect(s.snapshot().login.method).toBe('extension');
    expect(verifyEvent({ ...(await s.signer.sign({ kind: 1, tags: [], content: 'e', created_at: 5 })) })).toBe(true);

    // The tab goes away: with a stored local key for the same account, the fallback signs.
    await storage.saveLogin({ method: 'extension', pubkey: getPublicKey(sk), secret: bytesToHex(sk) });
    s.closeTab('tab1');
    const gone: SignerBridge = { ...bridge, available: async () => false, getPublicKey: () => Promise.reject(new Error(EXTENSION_NOT_FOUND)) };
    s.registerBridge('tab2', gone);
    const started = Date.now();
    expect(await s.loginWith({ method: 'extension' })).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(s.snapshot().login.method).toBe('local');
  });

  it('follow: the latest contact list is fetched, a signed kind 3 is published, every tab sees it, the record persists', async () => {
    const sk = generateSecretKey();
    const me = getPublicKey(sk);
    const [bob, carol, dave] = [1, 2, 3].map(() => getPublicKey(generateSecretKey()));
    const server = fakeServer({
      contact_list: () => ({
        events: [{ kind: 3, pubkey: me, created_at: 100, tags: [['p', bob], ['p', carol]], content: 'relays', id: 'x', sig: 'y' } as CacheObject],
      }),
      mutelist: () => ({ events: [] }),
      get_bookmarks: () => ({ events: [] }),
      mutelists: () => ({ events: [] }),
      allowlist: () => ({ events: [] }),
    });
    const published: NostrEvent[] = [];
    const storage = new MemoryStorage();
    const s = service({
      request: server.request,
      storage,
      publish: async (e) => {
        published.push(e);
        return { success: true, reasons: {} };
      },
    });
    const t = tabs(s);
    await s.loginWith({ method: 'nsec', nsec: nsecEncode(sk) });
    await until(() => t.last('tab2').account?.following.length === 2, 'contacts synced');
    expect(await s.act({ type: 'follow', pubkey: dave })).toEqual({ ok: true });
    expect(published).toHaveLength(1);
    const ev = published[0];
    expect(verifyEvent({ ...ev })).toBe(true);
    expect(ev).toMatchObject({ kind: 3, pubkey: me, content: 'relays', tags: [['p', bob], ['p', carol], ['p', dave]] });
    await until(() => t.last('tab1').account?.following.includes(dave) && t.last('tab2').account?.following.includes(dave), 'tabs see follow');
    await s.flush();
    expect((await storage.loadAccount(me))?.following).toEqual([bob, carol, dave]);

    // Private mutes go into content, NIP-04-encrypted to oneself.
    expect(await s.act({ type: 'mute', pubkey: bob, private: true })).toEqual({ ok: true });
    const mute = published[1];
    expect(mute.kind).toBe(10000);
    expect(mute.tags).toEqual([]);
    expect(JSON.parse(nip04.decrypt(sk, me, mute.content))).toEqual([['p', bob]]);
    await until(() => t.last('tab2').account?.muted.includes(bob), 'tabs see mute');
  });

  it('settings: a guest gets the defaults; a signed-in user whose get_app_settings fails is warned and uses offline settings', async () => {
    const server = fakeServer({
      get_default_app_settings: () => ({ events: [{ kind: 10000103, content: JSON.stringify({ theme: 'sunrise', zapOptions: [21] }) }] }),
      get_home_feeds: () => feedsReply(10000153, ['latest']),
      get_reads_feeds: () => feedsReply(10000152, ['reads']),
    });
    const storage = new MemoryStorage();
    const s = service({ request: server.request, storage });
    s.boot();
    await until(() => s.snapshot().settings.state === 'ready', 'guest settings');
    expect(s.snapshot().settings).toMatchObject({ settings: { zapOptions: [21] }, theme: 'sunrise', animated: true });
    expect(s.snapshot().settings.homeFeeds.map((f) => f.name)).toEqual(['latest']);
    expect(server.calls.map((c) => c.command)).toEqual(['get_default_app_settings', 'get_home_feeds', 'get_reads_feeds']);

    await s.settingsAction({ type: 'setTheme', theme: 'midnight' });
    await s.loginWith({ method: 'nsec', nsec: nsecEncode(generateSecretKey()) });
    await until(() => s.snapshot().settings.warning === 'settings-offline', 'offline warning');
    const signedCall = server.calls.find((c) => c.command === 'get_app_settings');
    const ev = signedCall?.payload?.event_from_user as NostrEvent;
    expect(ev.kind).toBe(30078);
    expect(ev.tags).toEqual([['d', 'Primal-Web App', 'get_app_settings']]);
    expect(verifyEvent({ ...ev })).toBe(true);
    await s.flush();
    expect((await storage.loadSettings('guest'))?.theme).toBe('midnight');
  });
});
