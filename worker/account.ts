/**
 * The one account of the worker, shared by every tab: runs the login, account and settings
 * machines with the real signer, storage and cache server, and pushes one AccountSnapshot to
 * every watching tab on each change (so a login, follow or mute shows everywhere at once).
 */
import { createActor, fromPromise, waitFor, type Actor } from 'xstate';
import { accountMachine, followRepairOpen, showPremiumReminder } from '../machines/account.ts';
import { keyStateOf, loginMachine, type KeyState, type LoginSnapshot, type StoredLoginInfo } from '../machines/login.ts';
import { cachePublisher, fetchMembership, fetchRemoteList, fetchRemoteLists, publishDraft, type CacheRequest, type Publisher } from './accountRemote.ts';
import { AccountError, MSG_INVALID_NSEC, parsePubkey, parseSecret, secretFromHex, secretToHex, toNpubOrEmpty, toNsec } from '../core/keys.ts';
import { NOSTR_CONNECT_FALLBACK_RELAYS, NOSTR_CONNECT_WAIT_MS } from '../core/config.ts';
import {
  acceptNostrConnect,
  isBunkerSession,
  newBunkerSession,
  nostrConnectOffer,
  openBunker,
  parseBunkerUri,
  type NostrConnectOffer,
} from './nip46.ts';
import { decryptWithPin, encryptWithPin } from './pin.ts';
import { isPinEncrypted, isWeakPin, pinProblem } from '../core/pin.ts';
import { SettingsService } from './settings.ts';
import { Signer } from './signer.ts';
import { defaultStorage, type AccountStorage, type StoredLogin } from './storage.ts';
import type {
  AccountAction,
  AccountSnapshot,
  ActionResult,
  LoginRequest,
  LoginState,
  RelayFlags,
  SettingsAction,
  SignerBridge,
} from '../core/types.ts';

export interface AccountServiceOptions {
  request: CacheRequest;
  storage?: AccountStorage;
  signer?: Signer;
  /** The relay pool's publish; the cache server's import_events when absent. */
  publish?: Publisher;
  /** How long a remote signer may take per request (tests shorten it). */
  remoteSignerTimeoutMs?: number;
  /** Told whenever signing becomes possible or impossible (the publish service's signer). */
  onSignerChange?: (canSign: boolean) => void;
}

interface Watcher {
  tabId: string;
  cb: (s: AccountSnapshot) => void;
  release: () => void;
}

const LOGIN_STATES: Record<string, LoginState> = {
  idle: 'booting',
  booting: 'booting',
  usingStoredBunker: 'detecting',
  savingBunker: 'busy',
  preparing: 'detecting',
  detecting: 'detecting',
  retrying: 'detecting',
  fallback: 'detecting',
  usingStoredKey: 'detecting',
  pinPrompt: 'pinPrompt',
  unlocking: 'unlocking',
  signedIn: 'signedIn',
  readOnly: 'readOnly',
  locked: 'locked',
  loggedOut: 'loggedOut',
};

function secretKind(login: StoredLogin): StoredLoginInfo['secret'] {
  if (!login.secret) return 'none';
  return isPinEncrypted(login.secret) ? 'pin' : 'plain';
}

export class AccountService {
  readonly signer: Signer;
  readonly storage: AccountStorage;
  readonly settings: SettingsService;
  readonly login: Actor<typeof loginMachine>;
  readonly account: Actor<typeof accountMachine>;
  private publisher: Publisher;
  private readonly watchers = new Map<number, Watcher>();
  private readonly bridgeReleases = new Map<string, () => void>();
  private nextWatch = 1;
  private nextAction = 1;
  private readonly pending = new Map<number, (r: ActionResult) => void>();
  private booted = false;
  private lastUser: { pubkey?: string; keyState: KeyState } = { keyState: 'none' };
  private lastLoginState = '';
  private lastSettingsKey = '';
  private lastCanSign = false;
  private notifyScheduled = false;
  /** Unlocked with a PIN shorter than new PINs may be: the app asks the person to choose another. */
  private weakPin = false;
  private writes: Promise<void> = Promise.resolve();
  /** The write relays of the pool, where a nostrconnect:// offer listens. */
  private writeRelays: string[] = [];
  /** The nostrconnect:// QR code on show, if any; logging in with its URI waits for the signer app. */
  private offer?: NostrConnectOffer;

  constructor(private readonly options: AccountServiceOptions) {
    const { request } = options;
    const signer = (this.signer = options.signer ?? new Signer({ remoteTimeoutMs: options.remoteSignerTimeoutMs }));
    const storage = (this.storage = options.storage ?? defaultStorage());
    this.publisher = options.publish ?? cachePublisher(request);

    this.login = createActor(
      loginMachine.provide({
        actors: {
          loadStored: fromPromise(async () => {
            const login = await storage.loadLogin();
            return login && { method: login.method, pubkey: login.pubkey, secret: secretKind(login) };
          }),
          detectExtension: fromPromise(async () => {
            const pubkey = await signer.detectExtension();
            signer.useExtension(pubkey);
            const stored = await storage.loadLogin();
            // The local key stays as the fallback only for the same account.
            const keep = stored && stored.pubkey === pubkey ? stored.secret : undefined;
            await storage.saveLogin(keep ? { method: 'extension', pubkey, secret: keep } : { method: 'extension', pubkey });
            return pubkey;
          }),
          useStoredKey: fromPromise(async () => {
            const stored = await storage.loadLogin();
            if (!stored?.secret || isPinEncrypted(stored.secret)) throw new AccountError('sign-no-nsec');
            return signer.useLocal(secretFromHex(stored.secret));
          }),
          unlock: fromPromise(async ({ input }) => {
            const stored = await storage.loadLogin();
            if (!stored?.secret) throw new AccountError('bad-cipher');
            const hex = await decryptWithPin(stored.secret, input.pin);
            this.weakPin = isWeakPin(input.pin);
            return signer.useLocal(secretFromHex(hex));
          }),
          saveNsec: fromPromise(async ({ input }) => {
            const secret = parseSecret(input.nsec);
            const hex = secretToHex(secret);
            // With a PIN, only the encrypted form is ever written.
            const stored = input.pin !== undefined ? await encryptWithPin(hex, input.pin) : hex;
            const pubkey = signer.useLocal(secret);
            await storage.saveLogin({ method: 'nsec', pubkey, secret: stored });
            this.weakPin = false;
            return { pubkey, secret: input.pin !== undefined ? ('pin' as const) : ('plain' as const) };
          }),
          saveNpub: fromPromise(async ({ input }) => {
            const pubkey = parsePubkey(input.npub);
            if (!pubkey) throw new Error('invalid-npub');
            signer.clear();
            signer.useReadOnly(pubkey);
            await storage.saveLogin({ method: 'npub', pubkey });
            return pubkey;
          }),
          saveBunker: fromPromise(async ({ input }) => {
            if (input.uri.startsWith('nostrconnect://')) {
              const offer = this.offer;
              if (!offer || offer.uri !== input.uri) throw new AccountError('bunker-bad-uri');
              try {
                const { connection, pubkey, session } = await acceptNostrConnect(offer, NOSTR_CONNECT_WAIT_MS, signer.timeoutMs);
                signer.useRemote(pubkey, session.relays, connection);
                await storage.saveLogin({ method: 'bunker', pubkey, bunker: session });
                this.weakPin = false;
                return pubkey;
              } finally {
                if (this.offer === offer) this.offer = undefined;
              }
            }
            const { remotePubkey, relays, secret } = parseBunkerUri(input.uri);
            const session = newBunkerSession(remotePubkey, relays);
            const { connection, pubkey } = await openBunker(session, signer.timeoutMs, { secret });
            if (!pubkey) throw new AccountError('bunker-rejected');
            signer.useRemote(pubkey, relays, connection);
            await storage.saveLogin({ method: 'bunker', pubkey, bunker: session });
            this.weakPin = false;
            return pubkey;
          }),
          useStoredBunker: fromPromise(async () => {
            const stored = await storage.loadLogin();
            if (!stored || !isBunkerSession(stored.bunker)) throw new AccountError('bunker-bad-uri');
            const { connection } = await openBunker(stored.bunker, signer.timeoutMs);
            signer.useRemote(stored.pubkey, stored.bunker.relays, connection);
            return stored.pubkey;
          }),
          clear: fromPromise(async () => {
            this.weakPin = false;
            signer.clear();
            await storage.saveLogin(undefined);
          }),
        },
      }),
    );

    this.account = createActor(
      accountMachine.provide({
        actors: {
          loadRecord: fromPromise(({ input }) => storage.loadAccount(input.pubkey)),
          fetchLists: fromPromise(({ input }) => fetchRemoteLists(request, signer, input.pubkey, input.lists)),
          fetchList: fromPromise(({ input }) => fetchRemoteList(request, signer, input.pubkey, input.list, true)),
          publish: fromPromise(({ input }) => publishDraft(signer, this.publisher, input.draft)),
          checkMembership: fromPromise(() => fetchMembership(request, signer)),
        },
      }),
    );
    this.account.on('done', ({ id, result }) => {
      const resolve = this.pending.get(id);
      this.pending.delete(id);
      resolve?.(result);
    });
    this.account.on('needPin', () => this.login.send({ type: 'REQUIRE_PIN' }));

    this.settings = new SettingsService({ request, signer, storage, onChange: () => this.changed() });

    let lastRecord: unknown;
    this.account.subscribe((snap) => {
      const record = snap.context.record;
      if (record && record !== lastRecord) this.writes = this.writes.then(() => storage.saveAccount(record)).catch(() => undefined);
      lastRecord = record;
      this.changed();
    });
    this.login.subscribe((snap) => this.onLogin(snap));
    this.account.start();
    this.login.start();
  }

  /** Reads the stored login once; later calls do nothing. */
  boot(): void {
    if (this.booted) return;
    this.booted = true;
    this.login.send({ type: 'BOOT' });
  }

  setPublisher(publisher: Publisher): void {
    this.publisher = publisher;
  }

  /** The relay pool's current relays, kept in the account's relaySettings. */
  setRelaySnapshot(relays: Record<string, RelayFlags>): void {
    this.writeRelays = Object.keys(relays).filter((url) => relays[url].write);
    this.account.send({ type: 'SET_RELAY_SNAPSHOT', relays });
  }

  /** `release` frees the tab's Comlink proxy when the tab goes away or registers again. */
  registerBridge(tabId: string, bridge: SignerBridge, release?: () => void): void {
    this.bridgeReleases.get(tabId)?.();
    this.signer.addBridge(tabId, bridge);
    if (release) this.bridgeReleases.set(tabId, release);
  }

  watch(tabId: string, cb: (s: AccountSnapshot) => void, release: () => void): number {
    const handle = this.nextWatch++;
    this.watchers.set(handle, { tabId, cb, release });
    this.send(cb, this.snapshot());
    return handle;
  }

  unwatch(handle: number): void {
    const w = this.watchers.get(handle);
    if (!w) return;
    this.watchers.delete(handle);
    w.release();
  }

  closeTab(tabId: string): void {
    this.signer.removeBridge(tabId);
    this.bridgeReleases.get(tabId)?.();
    this.bridgeReleases.delete(tabId);
    for (const [handle, w] of [...this.watchers]) if (w.tabId === tabId) this.unwatch(handle);
  }

  async loginWith(request: LoginRequest): Promise<ActionResult> {
    this.booted = true;
    if (request.method === 'extension') this.login.send({ type: 'LOGIN_EXTENSION' });
    else if (request.method === 'nsec') this.login.send({ type: 'LOGIN_NSEC', nsec: request.nsec, pin: request.pin, pinConfirm: request.pinConfirm });
    else if (request.method === 'bunker') this.login.send({ type: 'LOGIN_BUNKER', uri: request.uri });
    else this.login.send({ type: 'LOGIN_NPUB', npub: request.npub });
    const snap = await waitFor(this.login, (s) => s.hasTag('settled'));
    const error = snap.context.error;
    if (error) return this.loginError(error);
    if (snap.matches('pinPrompt')) return { ok: false, code: 'pin-required' };
    return { ok: snap.matches('signedIn') || (request.method === 'npub' && snap.matches('readOnly')) };
  }

  /**
   * A nostrconnect:// URI for a signer app to scan; login({ method: 'bunker', uri }) with it then
   * waits for the app. A new offer, or cancelNostrConnect, withdraws the previous one.
   */
  async nostrConnect(relays?: string[]): Promise<string> {
    this.cancelNostrConnect();
    const chosen = (relays && relays.length > 0 ? relays : this.writeRelays).filter((r) => /^wss?:\/\//.test(r)).slice(0, 3);
    this.offer = await nostrConnectOffer(chosen.length > 0 ? chosen : NOSTR_CONNECT_FALLBACK_RELAYS);
    return this.offer.uri;
  }

  cancelNostrConnect(): void {
    this.offer?.abort.abort();
    this.offer = undefined;
  }

  async unlock(pin: string): Promise<ActionResult> {
    if (this.login.getSnapshot().matches('locked')) this.login.send({ type: 'REQUIRE_PIN' });
    if (!this.login.getSnapshot().matches('pinPrompt')) return { ok: false, code: 'ignored' };
    this.login.send({ type: 'UNLOCK', pin });
    const snap = await waitFor(this.login, (s) => s.hasTag('settled'));
    return snap.matches('signedIn') ? { ok: true } : this.loginError(snap.context.error ?? 'bad-cipher');
  }

  askPin(): void {
    if (this.login.getSnapshot().matches('locked')) this.login.send({ type: 'REQUIRE_PIN' });
  }

  cancelPin(): void {
    this.login.send({ type: 'CANCEL_PIN' });
  }

  /**
   * Only a key this worker holds in memory; an extension's key never leaves the extension. A
   * PIN-protected key is shown only to someone who knows the PIN now (the key being unlocked
   * means only that someone knew it once, maybe hours ago on an unattended screen).
   */
  async revealSecret(pin?: string): Promise<string | null> {
    const mode = this.signer.current;
    if (mode.kind !== 'local') return null;
    const stored = await this.storage.loadLogin();
    if (stored?.secret && isPinEncrypted(stored.secret)) {
      if (pin === undefined) return null;
      const hex = await decryptWithPin(stored.secret, pin).catch(() => undefined);
      if (hex === undefined || hex !== secretToHex(mode.secret)) return null;
    }
    return toNsec(mode.secret);
  }

  /** Re-encrypts the stored key under a new PIN; the current PIN must open it, the new one follow the rules. */
  async changePin(current: string, next: string, confirm: string): Promise<ActionResult> {
    const problem = pinProblem(next, confirm);
    if (problem) return { ok: false, code: 'invalid-pin', message: problem };
    const stored = await this.storage.loadLogin();
    if (!stored?.secret || !isPinEncrypted(stored.secret)) return { ok: false, code: 'no-pin' };
    let hex: string;
    try {
      hex = await decryptWithPin(stored.secret, current);
    } catch (err) {
      return { ok: false, code: err instanceof AccountError ? err.code : 'bad-cipher' };
    }
    await this.storage.saveLogin({ ...stored, secret: await encryptWithPin(hex, next) });
    this.weakPin = false;
    this.changed();
    return { ok: true };
  }

  async logout(): Promise<void> {
    this.login.send({ type: 'LOGOUT' });
    await waitFor(this.login, (s) => s.matches('loggedOut'));
  }

  /** Re-reads the membership tier (after a purchase or a rename); every tab's snapshot follows. */
  refreshMembership(): void {
    this.account.send({ type: 'MEMBERSHIP_CHANGED' });
  }

  act(action: AccountAction): Promise<ActionResult> {
    const id = this.nextAction++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.account.send({ type: 'ACTION', id, action });
    });
  }

  settingsAction(action: SettingsAction): Promise<ActionResult> {
    return this.settings.act(action);
  }

  snapshot(): AccountSnapshot {
    const login = this.login.getSnapshot();
    const account = this.account.getSnapshot();
    const state = typeof login.value === 'string' ? (LOGIN_STATES[login.value] ?? 'busy') : 'busy';
    const out: AccountSnapshot = {
      login: {
        state,
        npub: toNpubOrEmpty(login.context.pubkey),
        hasPinSecret: login.context.secret === 'pin',
        weakPin: this.weakPin && login.context.secret === 'pin',
      },
      showPremiumReminder: showPremiumReminder(account),
      followRepair: followRepairOpen(account),
      settings: this.settings.snapshot(),
    };
    if (login.context.pubkey) out.login.pubkey = login.context.pubkey;
    if (login.context.method) out.login.method = login.context.method;
    const mode = this.signer.current;
    if (mode.kind === 'remote' && login.context.method === 'remote') out.login.remoteRelays = [...mode.relays];
    if (login.context.error) out.login.error = login.context.error;
    if (account.context.record) out.account = account.context.record;
    return out;
  }

  /** Every queued IndexedDB write has finished; for tests and shutdown. */
  async flush(): Promise<void> {
    await this.writes;
    await this.settings.flush();
  }

  dispose(): void {
    for (const handle of [...this.watchers.keys()]) this.unwatch(handle);
    for (const resolve of this.pending.values()) resolve({ ok: false, code: 'no-pubkey' });
    this.pending.clear();
    this.login.stop();
    this.account.stop();
    this.settings.stop();
  }

  private loginError(error: string): ActionResult {
    if (error === 'invalid-nsec') return { ok: false, code: error, message: MSG_INVALID_NSEC };
    if (error.startsWith('A PIN')) return { ok: false, code: 'invalid-pin', message: error };
    return { ok: false, code: error };
  }

  /** Keeps the signer, the account, the settings and the publish service in step with the login. */
  private onLogin(snap: LoginSnapshot): void {
    const { pubkey } = snap.context;
    // States where the machine knows the pubkey but no actor set up the signer for it.
    if ((snap.matches('readOnly') || snap.matches('locked')) && pubkey && this.signer.pubkey !== pubkey) {
      this.signer.clear();
      this.signer.useReadOnly(pubkey);
    }
    if (snap.matches('loggedOut') && this.signer.current.kind !== 'none') this.signer.clear();

    const stateName = JSON.stringify(snap.value);
    if (this.lastLoginState === '"pinPrompt"' && snap.matches('locked')) this.account.send({ type: 'PIN_CANCELLED' });
    this.lastLoginState = stateName;

    const keyState = keyStateOf(snap);
    const user = { pubkey: keyState === 'none' ? undefined : pubkey, keyState };
    const prev = this.lastUser;
    if (user.pubkey !== prev.pubkey) this.account.send({ type: 'SET_USER', pubkey: user.pubkey, keyState });
    else if (keyState !== prev.keyState) this.account.send({ type: 'KEY_STATE', keyState });
    this.lastUser = user;

    const canSign = keyState === 'sign';
    // The settings wait until the login has settled; the guest's also until the stored login was read.
    if (keyState !== 'pending' && (user.pubkey || (snap.hasTag('settled') && !snap.matches('idle')))) {
      const key = `${user.pubkey ?? ''}|${canSign}`;
      if (key !== this.lastSettingsKey) {
        this.lastSettingsKey = key;
        this.settings.load(user.pubkey, canSign);
      }
    }
    if (canSign !== this.lastCanSign) {
      this.lastCanSign = canSign;
      this.options.onSignerChange?.(canSign);
    }
    this.changed();
  }

  /** Coalesces a burst of machine updates into one snapshot per watcher. */
  private changed(): void {
    if (this.notifyScheduled || this.watchers.size === 0) return;
    this.notifyScheduled = true;
    queueMicrotask(() => {
      this.notifyScheduled = false;
      const snap = this.snapshot();
      for (const w of this.watchers.values()) this.send(w.cb, snap);
    });
  }

  private send(cb: (s: AccountSnapshot) => void, snap: AccountSnapshot): void {
    try {
      const r: unknown = cb(snap);
      if (r instanceof Promise) r.catch(() => undefined);
    } catch {
      // The tab's port is gone; closeTab will drop the watcher.
    }
  }
}
