/**
 * Login and keys (spec §4 Login, §5 PIN rules). Pure: reading storage, asking a tab's extension,
 * validating and encrypting secrets are actors the worker provides. The secret itself never
 * enters this machine's context, because snapshots travel to every tab.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { EXTENSION_RETRIES, EXTENSION_RETRY_MS } from '../core/config.ts';
import { pinProblem } from '../core/pin.ts';
import { EXTENSION_NOT_FOUND } from '../core/keys.ts';

/** What is stored, without the secret: enough to choose the path at boot. */
export interface StoredLoginInfo {
  method: 'extension' | 'nsec' | 'npub' | 'bunker';
  pubkey: string;
  secret: 'none' | 'plain' | 'pin';
}

export type LoginMethod = 'extension' | 'local' | 'readonly' | 'remote';

export interface LoginContext {
  pubkey?: string;
  method?: LoginMethod;
  /** What the stored secret is, for the fallback after the extension retries. */
  secret: 'none' | 'plain' | 'pin';
  /** Failed extension detections of this attempt. */
  attempts: number;
  /** The last §8 code or §5 message of a login step. */
  error?: string;
}

export type LoginEvent =
  | { type: 'BOOT' }
  | { type: 'LOGIN_EXTENSION' }
  | { type: 'LOGIN_NSEC'; nsec: string; pin?: string; pinConfirm?: string }
  | { type: 'LOGIN_NPUB'; npub: string }
  | { type: 'LOGIN_BUNKER'; uri: string }
  | { type: 'UNLOCK'; pin: string }
  | { type: 'CANCEL_PIN' }
  | { type: 'REQUIRE_PIN' }
  | { type: 'LOGOUT' };

export interface SaveNsecInput {
  nsec: string;
  pin?: string;
}

export interface SavedNsec {
  pubkey: string;
  secret: 'plain' | 'pin';
}

/** The worker must provide every actor; running without them is a wiring error. */
function missing<T, I>(name: string) {
  return fromPromise<T, I>(async () => {
    throw new Error(`login: the ${name} actor must be provided with machine.provide()`);
  });
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
  },
  actors: {
    loadStored: missing<StoredLoginInfo | undefined, void>('loadStored'),
    /** Resolves with the extension's pubkey (and remembers the login); rejects 'Nostr extension not found'. */
    detectExtension: missing<string, void>('detectExtension'),
    /** Puts the stored plain secret into the signer; resolves with its pubkey. */
    useStoredKey: missing<string, void>('useStoredKey'),
    /** Decrypts the stored secret with the PIN into the signer; rejects 'bad-cipher'. */
    unlock: missing<string, { pin: string }>('unlock'),
    /** Validates (invalid-nsec), encrypts with the PIN if given, stores, signs with it. */
    saveNsec: missing<SavedNsec, SaveNsecInput>('saveNsec'),
    /** Validates and stores a read-only login; resolves with the pubkey. */
    saveNpub: missing<string, { npub: string }>('saveNpub'),
    /** Connects to the bunker:// URI's remote signer and stores the session; resolves with the user's pubkey. */
    saveBunker: missing<string, { uri: string }>('saveBunker'),
    /** Reopens the stored remote signer session; resolves with its pubkey. */
    useStoredBunker: missing<string, void>('useStoredBunker'),
    /** Forgets the key and the stored login. */
    clear: missing<void, void>('clear'),
  },
  delays: { extensionRetry: EXTENSION_RETRY_MS },
  guards: {
    mayRetry: ({ context, event }) =>
      context.attempts < EXTENSION_RETRIES &&
      'error' in event &&
      errorText(event.error).includes(EXTENSION_NOT_FOUND),
    pinInvalid: ({ event }) =>
      event.type === 'LOGIN_NSEC' && event.pin !== undefined && pinProblem(event.pin, event.pinConfirm ?? '') !== undefined,
    hasPlainSecret: ({ context }) => context.secret === 'plain',
    hasPinSecret: ({ context }) => context.secret === 'pin',
    hasPubkey: ({ context }) => context.pubkey !== undefined,
    wasSigning: ({ context }) => context.method === 'extension' || context.method === 'local' || context.method === 'remote',
    wasReadOnly: ({ context }) => context.method === 'readonly',
  },
  actions: {
    clearError: assign({ error: undefined }),
    pinError: assign({
      error: ({ event }) => (event.type === 'LOGIN_NSEC' ? pinProblem(event.pin ?? '', event.pinConfirm ?? '') : undefined),
    }),
  },
}).createMachine({
  id: 'login',
  initial: 'idle',
  context: { secret: 'none', attempts: 0 },
  on: {
    LOGIN_EXTENSION: { target: '.preparing', actions: [assign({ attempts: 0 }), 'clearError'] },
    LOGIN_NSEC: [
      { guard: 'pinInvalid', target: '.settle', actions: 'pinError' },
      { target: '.savingNsec', actions: 'clearError' },
    ],
    LOGIN_NPUB: { target: '.savingNpub', actions: 'clearError' },
    LOGIN_BUNKER: { target: '.savingBunker', actions: 'clearError' },
    LOGOUT: '.loggingOut',
  },
  states: {
    idle: {
      tags: 'settled',
      on: { BOOT: 'booting' },
    },
    booting: {
      invoke: {
        src: 'loadStored',
        onDone: [
          { guard: ({ event }) => !event.output, target: 'loggedOut' },
          {
            guard: ({ event }) => event.output?.method === 'npub',
            target: 'readOnly',
            actions: assign(({ event }) => ({ pubkey: event.output?.pubkey, method: 'readonly' as const, secret: 'none' as const })),
          },
          {
            guard: ({ event }) => event.output?.method === 'bunker',
            target: 'usingStoredBunker',
            actions: assign(({ event }) => ({ pubkey: event.output?.pubkey, secret: 'none' as const })),
          },
          {
            // An nsec login was an explicit choice of the local key: no extension detour.
            guard: ({ event }) => event.output?.method === 'nsec',
            target: 'fallback',
            actions: assign(({ event }) => ({ pubkey: event.output?.pubkey, secret: event.output?.secret ?? 'none' })),
          },
          {
            target: 'detecting',
            actions: assign(({ event }) => ({ pubkey: event.output?.pubkey, secret: event.output?.secret ?? 'none', attempts: 0 })),
          },
        ],
        onError: { target: 'loggedOut', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    /** What the fallback may use if the extension stays missing: the stored key, read afresh. */
    preparing: {
      invoke: {
        src: 'loadStored',
        onDone: {
          target: 'detecting',
          actions: assign(({ context, event }) => ({
            secret: event.output?.secret ?? 'none',
            pubkey: context.pubkey ?? event.output?.pubkey,
          })),
        },
        onError: 'detecting',
      },
    },
    detecting: {
      invoke: {
        src: 'detectExtension',
        onDone: {
          target: 'signedIn',
          actions: assign(({ event }) => ({ pubkey: event.output, method: 'extension' as const, error: undefined })),
        },
        onError: [
          { guard: 'mayRetry', target: 'retrying', actions: assign({ attempts: ({ context }) => context.attempts + 1 }) },
          { target: 'fallback' },
        ],
      },
    },
    retrying: {
      after: { extensionRetry: 'detecting' },
    },
    /** The extension stayed missing (or an nsec login was stored): the local key, if there is one. */
    fallback: {
      always: [
        { guard: 'hasPlainSecret', target: 'usingStoredKey' },
        { guard: 'hasPinSecret', target: 'pinPrompt' },
        { guard: 'hasPubkey', target: 'readOnly', actions: assign({ method: 'readonly' as const, error: 'no_nostr_extension' }) },
        { target: 'loggedOut', actions: assign({ error: 'no_nostr_extension' }) },
      ],
    },
    usingStoredKey: {
      invoke: {
        src: 'useStoredKey',
        onDone: { target: 'signedIn', actions: assign(({ event }) => ({ pubkey: event.output, method: 'local' as const })) },
        onError: { target: 'loggedOut', actions: assign({ error: ({ event }) => errorText(event.error), pubkey: undefined, method: undefined }) },
      },
    },
    usingStoredBunker: {
      invoke: {
        src: 'useStoredBunker',
        onDone: { target: 'signedIn', actions: assign(({ event }) => ({ pubkey: event.output, method: 'remote' as const })) },
        // A damaged stored session still names the account: show it read-only rather than nothing.
        onError: { target: 'readOnly', actions: assign({ method: 'readonly' as const, error: ({ event }) => errorText(event.error) }) },
      },
    },
    savingBunker: {
      invoke: {
        src: 'saveBunker',
        input: ({ event }) => ({ uri: event.type === 'LOGIN_BUNKER' ? event.uri : '' }),
        onDone: {
          target: 'signedIn',
          actions: assign(({ event }) => ({ pubkey: event.output, method: 'remote' as const, secret: 'none' as const })),
        },
        onError: { target: 'settle', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    pinPrompt: {
      tags: 'settled',
      on: {
        UNLOCK: { target: 'unlocking', actions: 'clearError' },
        CANCEL_PIN: { target: 'locked', actions: 'clearError' },
      },
    },
    unlocking: {
      invoke: {
        src: 'unlock',
        input: ({ event }) => ({ pin: event.type === 'UNLOCK' ? event.pin : '' }),
        onDone: { target: 'signedIn', actions: assign(({ event }) => ({ pubkey: event.output, method: 'local' as const })) },
        onError: { target: 'pinPrompt', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    savingNsec: {
      invoke: {
        src: 'saveNsec',
        input: ({ event }) => (event.type === 'LOGIN_NSEC' ? { nsec: event.nsec, pin: event.pin } : { nsec: '' }),
        onDone: {
          target: 'signedIn',
          actions: assign(({ event }) => ({ pubkey: event.output.pubkey, method: 'local' as const, secret: event.output.secret })),
        },
        onError: { target: 'settle', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    savingNpub: {
      invoke: {
        src: 'saveNpub',
        input: ({ event }) => ({ npub: event.type === 'LOGIN_NPUB' ? event.npub : '' }),
        onDone: {
          target: 'readOnly',
          actions: assign(({ event }) => ({ pubkey: event.output, method: 'readonly' as const, secret: 'none' as const })),
        },
        onError: { target: 'settle', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    /** A refused login leaves the previous session as it was. */
    settle: {
      always: [
        { guard: 'wasSigning', target: 'signedIn' },
        { guard: 'wasReadOnly', target: 'readOnly' },
        { guard: ({ context }) => context.pubkey !== undefined && context.secret === 'pin', target: 'locked' },
        { target: 'loggedOut' },
      ],
    },
    signedIn: { tags: 'settled' },
    readOnly: { tags: 'settled' },
    /** The pubkey is known and a PIN-encrypted key exists, but the PIN was not given. */
    locked: {
      tags: 'settled',
      on: { REQUIRE_PIN: 'pinPrompt' },
    },
    loggingOut: {
      invoke: {
        src: 'clear',
        onDone: 'loggedOut',
        onError: 'loggedOut',
      },
      exit: assign({ pubkey: undefined, method: undefined, secret: 'none' as const, attempts: 0 }),
    },
    loggedOut: {
      tags: 'settled',
      on: { BOOT: 'booting' },
    },
  },
});

export type LoginSnapshot = SnapshotFrom<typeof loginMachine>;

/** What the account machine needs to know: can it sign now, after a PIN, or not at all. */
export type KeyState = 'none' | 'readonly' | 'pin' | 'sign' | 'pending';

export function keyStateOf(snap: LoginSnapshot): KeyState {
  const { pubkey, method, secret } = snap.context;
  if (!pubkey || snap.matches('loggingOut') || snap.matches('loggedOut')) return 'none';
  if (snap.matches('signedIn') && (method === 'local' || method === 'extension' || method === 'remote')) return 'sign';
  if (secret === 'pin' && (snap.matches('locked') || snap.matches('pinPrompt'))) return 'pin';
  if (snap.matches('readOnly') || snap.matches('locked')) return 'readonly';
  // Mid-transition (detecting, saving, unlocking): actions wait for the outcome.
  return 'pending';
}
