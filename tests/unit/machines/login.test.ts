import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { keyStateOf, loginMachine, type SavedNsec, type StoredLoginInfo } from '../../../machines/login.ts';
import { EXTENSION_NOT_FOUND, MSG_PIN_MISMATCH, MSG_PIN_TOO_SHORT } from '../../../core/keys.ts';

const PK = 'a'.repeat(64);

interface Fakes {
  stored?: StoredLoginInfo;
  /** Detections answer in order; an Error rejects. */
  detections: (string | Error)[];
  pin: string;
  calls: string[];
}

function start(fakes: Fakes) {
  const actor = createActor(
    loginMachine.provide({
      actors: {
        loadStored: fromPromise(async () => fakes.stored),
        detectExtension: fromPromise(async () => {
          fakes.calls.push('detect');
          const next = fakes.detections.shift() ?? new Error(EXTENSION_NOT_FOUND);
          if (next instanceof Error) throw next;
          return next;
        }),
        useStoredKey: fromPromise(async () => {
          fakes.calls.push('useStoredKey');
          return PK;
        }),
        unlock: fromPromise<string, { pin: string }>(async ({ input }) => {
          fakes.calls.push(`unlock:${input.pin}`);
          if (input.pin !== fakes.pin) throw new Error('bad-cipher');
          return PK;
        }),
        saveNsec: fromPromise<SavedNsec, { nsec: string; pin?: string }>(async ({ input }) => {
          fakes.calls.push(`saveNsec:${input.pin ?? ''}`);
          if (!input.nsec.startsWith('nsec1')) throw new Error('invalid-nsec');
          return { pubkey: PK, secret: input.pin ? 'pin' : 'plain' };
        }),
        saveNpub: fromPromise<string, { npub: string }>(async ({ input }) => {
          if (!input.npub.startsWith('npub1')) throw new Error('invalid-npub');
          return PK;
        }),
        clear: fromPromise(async () => {
          fakes.calls.push('clear');
        }),
      },
    }),
  );
  actor.start();
  const state = () => actor.getSnapshot().value;
  const ctx = () => actor.getSnapshot().context;
  return { actor, state, ctx };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const fakes = (over: Partial<Fakes> = {}): Fakes => ({ detections: [], pin: '1234', calls: [], ...over });

describe('login machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('an extension login retries 4 times at 250 ms, then falls back to the stored plain key', async () => {
    const f = fakes({ stored: { method: 'extension', pubkey: PK, secret: 'plain' } });
    const { actor, state, ctx } = start(f);
    actor.send({ type: 'BOOT' });
    await flush();
    expect(state()).toBe('retrying');
    expect(f.calls).toEqual(['detect']);
    for (let i = 1; i <= 4; i++) {
      await vi.advanceTimersByTimeAsync(249);
      expect(f.calls.filter((c) => c === 'detect')).toHaveLength(i);
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(f.calls.filter((c) => c === 'detect')).toHaveLength(5);
    expect(f.calls.at(-1)).toBe('useStoredKey');
    expect(state()).toBe('signedIn');
    expect(ctx().method).toBe('local');
    expect(keyStateOf(actor.getSnapshot())).toBe('sign');
  });

  it('an extension that appears during the retries is used', async () => {
    const f = fakes({ detections: [new Error(EXTENSION_NOT_FOUND), new Error(EXTENSION_NOT_FOUND), PK] });
    const { actor, state, ctx } = start(f);
    actor.send({ type: 'LOGIN_EXTENSION' });
    await flush();
    await vi.advanceTimersByTimeAsync(250);
    expect(state()).toBe('retrying');
    await vi.advanceTimersByTimeAsync(250);
    expect(state()).toBe('signedIn');
    expect(ctx()).toMatchObject({ pubkey: PK, method: 'extension' });
  });

  it('a refusal by the extension is not retried', async () => {
    const f = fakes({ detections: [new Error('User rejected')] });
    const { actor, state } = start(f);
    actor.send({ type: 'LOGIN_EXTENSION' });
    await flush();
    expect(state()).toBe('loggedOut');
    expect(f.calls).toEqual(['detect']);
  });

  it('falls back to the PIN prompt when the stored key is PIN-encrypted', async () => {
    const f = fakes({ stored: { method: 'extension', pubkey: PK, secret: 'pin' } });
    const { actor, state, ctx } = start(f);
    actor.send({ type: 'BOOT' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(state()).toBe('pinPrompt');
    expect(keyStateOf(actor.getSnapshot())).toBe('pin');

    actor.send({ type: 'UNLOCK', pin: '9999' });
    await flush();
    expect(state()).toBe('pinPrompt');
    expect(ctx().error).toBe('bad-cipher');

    actor.send({ type: 'UNLOCK', pin: '1234' });
    await flush();
    expect(state()).toBe('signedIn');
    expect(ctx().error).toBeUndefined();
    expect(ctx().method).toBe('local');
  });

  it('without extension or stored key: loggedOut with no_nostr_extension; with only a pubkey: read-only', async () => {
    const a = start(fakes());
    a.actor.send({ type: 'LOGIN_EXTENSION' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(a.state()).toBe('loggedOut');
    expect(a.ctx().error).toBe('no_nostr_extension');

    const b = start(fakes({ stored: { method: 'extension', pubkey: PK, secret: 'none' } }));
    b.actor.send({ type: 'BOOT' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(b.state()).toBe('readOnly');
    expect(b.ctx()).toMatchObject({ pubkey: PK, method: 'readonly', error: 'no_nostr_extension' });
    expect(keyStateOf(b.actor.getSnapshot())).toBe('readonly');
  });

  it('a stored nsec login uses the local key without waiting for an extension', async () => {
    const f = fakes({ stored: { method: 'nsec', pubkey: PK, secret: 'plain' } });
    const { actor, state } = start(f);
    actor.send({ type: 'BOOT' });
    await flush();
    expect(state()).toBe('signedIn');
    expect(f.calls).toEqual(['useStoredKey']);
  });

  it('a stored PIN-protected nsec opens the PIN prompt; cancelling leaves it locked, REQUIRE_PIN reopens', async () => {
    const { actor, state } = start(fakes({ stored: { method: 'nsec', pubkey: PK, secret: 'pin' } }));
    actor.send({ type: 'BOOT' });
    await flush();
    expect(state()).toBe('pinPrompt');
    actor.send({ type: 'CANCEL_PIN' });
    expect(state()).toBe('locked');
    expect(keyStateOf(actor.getSnapshot())).toBe('pin');
    actor.send({ type: 'REQUIRE_PIN' });
    expect(state()).toBe('pinPrompt');
  });

  it('a stored npub login is read-only', async () => {
    const { actor, state } = start(fakes({ stored: { method: 'npub', pubkey: PK, secret: 'none' } }));
    actor.send({ type: 'BOOT' });
    await flush();
    expect(state()).toBe('readOnly');
    expect(keyStateOf(actor.getSnapshot())).toBe('readonly');
  });

  it('nothing stored: logged out without asking any extension', async () => {
    const f = fakes();
    const { actor, state } = start(f);
    actor.send({ type: 'BOOT' });
    await flush();
    expect(state()).toBe('loggedOut');
    expect(f.calls).toEqual([]);
    expect(keyStateOf(actor.getSnapshot())).toBe('none');
  });

  it('nsec login: an invalid nsec keeps the previous state and reports invalid-nsec', async () => {
    const { actor, state, ctx } = start(fakes());
    actor.send({ type: 'BOOT' });
    await flush();
    actor.send({ type: 'LOGIN_NSEC', nsec: 'nem kulcs' });
    expect(state()).toBe('savingNsec');
    expect(keyStateOf(actor.getSnapshot())).toBe('none');
    await flush();
    expect(state()).toBe('loggedOut');
    expect(ctx().error).toBe('invalid-nsec');

    actor.send({ type: 'LOGIN_NSEC', nsec: 'nsec1valid' });
    await flush();
    expect(state()).toBe('signedIn');
    expect(ctx()).toMatchObject({ pubkey: PK, method: 'local', secret: 'plain', error: undefined });
  });

  it('nsec login with a PIN: too short or mismatching PINs are refused before anything is stored', async () => {
    const f = fakes();
    const { actor, state, ctx } = start(f);
    actor.send({ type: 'LOGIN_NSEC', nsec: 'nsec1valid', pin: '123', pinConfirm: '123' });
    expect(ctx().error).toBe(MSG_PIN_TOO_SHORT);
    actor.send({ type: 'LOGIN_NSEC', nsec: 'nsec1valid', pin: '12345', pinConfirm: '12345' });
    expect(ctx().error).toBe(MSG_PIN_TOO_SHORT);
    actor.send({ type: 'LOGIN_NSEC', nsec: 'nsec1valid', pin: '123456', pinConfirm: '123457' });
    expect(ctx().error).toBe(MSG_PIN_MISMATCH);
    expect(state()).toBe('loggedOut');
    expect(f.calls).toEqual([]);

    actor.send({ type: 'LOGIN_NSEC', nsec: 'nsec1valid', pin: '123456', pinConfirm: '123456' });
    await flush();
    expect(f.calls).toEqual(['saveNsec:123456']);
    expect(state()).toBe('signedIn');
    expect(ctx().secret).toBe('pin');
  });

  it('a failed login while signed in keeps the session', async () => {
    const { actor, state, ctx } = start(fakes());
    actor.send({ type: 'LOGIN_NSEC', nsec: 'nsec1valid' });
    await flush();
    actor.send({ type: 'LOGIN_NPUB', npub: 'rossz' });
    await flush();
    expect(state()).toBe('signedIn');
    expect(ctx()).toMatchObject({ pubkey: PK, method: 'local', error: 'invalid-npub' });
  });

  it('npub login is read-only', async () => {
    const { actor, state, ctx } = start(fakes());
    actor.send({ type: 'LOGIN_NPUB', npub: 'npub1valid' });
    await flush();
    expect(state()).toBe('readOnly');
    expect(ctx().method).toBe('readonly');
  });

  it('logout clears the key and the stored login from any state', async () => {
    const f = fakes();
    const { actor, state, ctx } = start(f);
    actor.send({ type: 'LOGIN_NSEC', nsec: 'nsec1valid' });
    await flush();
    actor.send({ type: 'LOGOUT' });
    expect(state()).toBe('loggingOut');
    await flush();
    expect(state()).toBe('loggedOut');
    expect(f.calls.at(-1)).toBe('clear');
    expect(ctx()).toMatchObject({ pubkey: undefined, method: undefined, secret: 'none' });
    expect(keyStateOf(actor.getSnapshot())).toBe('none');
  });
});
