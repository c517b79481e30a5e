import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { publishMachine, type RelayAnswer, type RelayAnswerEvent, type SendInput } from '../../../machines/publish.ts';
import type { NostrEvent, PublishResult, UnsignedEvent } from '../../../core/types.ts';

const A = 'wss://a.example';
const B = 'wss://b.example';
const C = 'wss://c.example';
const key = generateSecretKey();
const template = (): UnsignedEvent => ({ kind: 1, tags: [], content: 'szia', created_at: 1_700_000_000 });

interface Harness {
  result: PublishResult | undefined;
  signed: number;
  sends: SendInput[];
  proxied: SendInput[];
  imported: NostrEvent[];
  answer(a: RelayAnswer): void;
  actor: ActorRefFrom<typeof publishMachine>;
}

interface Options {
  relays?: string[];
  anyConnected?: boolean;
  proxy?: boolean;
  signFails?: string;
  proxyAnswer?: () => Promise<RelayAnswer[]>;
  importFails?: boolean;
  importHangs?: boolean;
}

function run(opts: Options = {}): Harness {
  const h: Partial<Harness> & { sendBack?: (e: RelayAnswerEvent) => void } = { signed: 0, sends: [], proxied: [], imported: [] };
  const machine = publishMachine.provide({
    actors: {
      sign: fromPromise<NostrEvent, NostrEvent | UnsignedEvent>(async ({ input }) => {
        h.signed = (h.signed ?? 0) + 1;
        if (opts.signFails !== undefined) throw new Error(opts.signFails);
        return finalizeEvent(input, key) as NostrEvent;
      }),
      send: fromCallback<RelayAnswerEvent, SendInput>(({ input, sendBack }) => {
        h.sends?.push(input);
        h.sendBack = sendBack;
      }),
      proxy: fromPromise<RelayAnswer[], SendInput>(async ({ input }) => {
        h.proxied?.push(input);
        return opts.proxyAnswer ? opts.proxyAnswer() : [];
      }),
      importEvent: fromPromise<unknown, NostrEvent>(async ({ input }) => {
        h.imported?.push(input);
        if (opts.importFails) throw new Error('notice');
        if (opts.importHangs) await new Promise(() => undefined);
        return [];
      }),
    },
  });
  const actor = createActor(machine, {
    input: { event: template(), relays: opts.relays ?? [A, B, C], anyConnected: opts.anyConnected ?? true, proxy: opts.proxy ?? false },
  });
  actor.subscribe({ complete: () => (h.result = actor.getSnapshot().output) });
  h.actor = actor;
  h.answer = (a) => h.sendBack?.({ type: 'RELAY.ANSWER', ...a });
  actor.start();
  return h as Harness;
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('publish machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('signs, sends to every write relay, succeeds at the first accept with the refusals so far, then imports', async () => {
    const h = run();
    await flush();
    expect(h.signed).toBe(1);
    expect(h.sends).toHaveLength(1);
    expect(h.sends[0].relays).toEqual([A, B, C]);
    const event = h.sends[0].event;
    expect(event.pubkey).toBe(getPublicKey(key));
    h.answer({ relay: B, ok: false, message: 'blocked: spam' });
    h.answer({ relay: C, ok: false, message: '' });
    expect(h.result).toBeUndefined();
    h.answer({ relay: A, ok: true, message: '' });
    await flush();
    expect(h.imported).toEqual([event]);
    expect(h.result).toEqual({
      success: true,
      outcome: 'published',
      event,
      reasons: { [B]: 'blocked: spam', [C]: 'Failed to publish note' },
    });
  });

  it('fails with the collected reasons when no relay accepts, and imports nothing', async () => {
    const h = run();
    await flush();
    h.answer({ relay: A, ok: false, message: 'failed' });
    h.answer({ relay: B, ok: false, message: 'No publish confirmation' });
    h.answer({ relay: C, ok: false, message: 'rate-limited: slow down' });
    await flush();
    expect(h.result).toMatchObject({
      success: false,
      outcome: 'failed',
      reasons: { [A]: 'failed', [B]: 'No publish confirmation', [C]: 'rate-limited: slow down' },
    });
    expect(h.imported).toEqual([]);
  });

  it('one accept settles at once: a silent relay does not hold the result back', async () => {
    const h = run();
    await flush();
    h.answer({ relay: A, ok: true, message: '' });
    await flush();
    expect(h.result).toMatchObject({ success: true, outcome: 'published', reasons: {} });
  });

  it('gives silent relays 8000 ms, then times them out', async () => {
    const h = run();
    await flush();
    h.answer({ relay: A, ok: false, message: 'no' });
    await vi.advanceTimersByTimeAsync(7999);
    expect(h.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.result).toMatchObject({ success: false, outcome: 'failed', reasons: { [A]: 'no', [B]: 'timeout', [C]: 'timeout' } });
  });

  it('all relays silent: no-confirmation (the "no relay confirmed within 8 seconds" toast)', async () => {
    const h = run({ relays: [A] });
    await vi.advanceTimersByTimeAsync(8000);
    expect(h.result).toMatchObject({ success: false, outcome: 'no-confirmation', reasons: { [A]: 'timeout' } });
  });

  it('late and foreign answers do not change the result', async () => {
    const h = run({ relays: [A, B] });
    await flush();
    h.answer({ relay: 'wss://other.example', ok: true, message: '' });
    h.answer({ relay: A, ok: false, message: 'no' });
    h.answer({ relay: A, ok: true, message: '' });
    h.answer({ relay: B, ok: false, message: 'no' });
    await flush();
    expect(h.result).toMatchObject({ success: false, reasons: { [A]: 'no', [B]: 'no' } });
  });

  it('no write relay connected: fails at once with no-relays, without asking the signer', async () => {
    const h = run({ anyConnected: false });
    await flush();
    expect(h.signed).toBe(0);
    expect(h.result).toEqual({ success: false, outcome: 'no-relays', reasons: { '*': 'no relays connected' } });
    const none = run({ relays: [] });
    await flush();
    expect(none.result?.outcome).toBe('no-relays');
  });

  it('a signing failure ends as not-signed with the signer’s code', async () => {
    const h = run({ signFails: 'sign-no-nsec' });
    await flush();
    expect(h.sends).toEqual([]);
    expect(h.result).toEqual({ success: false, outcome: 'not-signed', reasons: { '*': 'sign-no-nsec' } });
  });

  it('proxying sends through broadcast_events, even with no relay socket connected', async () => {
    const h = run({
      proxy: true,
      anyConnected: false,
      proxyAnswer: async () => [
        { relay: A, ok: true, message: '' },
        { relay: B, ok: false, message: 'blocked' },
      ],
    });
    await flush();
    expect(h.sends).toEqual([]);
    expect(h.proxied).toHaveLength(1);
    expect(h.proxied[0].relays).toEqual([A, B, C]);
    expect(h.result).toMatchObject({ success: true, reasons: { [B]: 'blocked', [C]: 'No publish confirmation' } });
    expect(h.imported).toHaveLength(1);
  });

  it('a failed proxy request fails every relay', async () => {
    const h = run({ proxy: true, relays: [A], proxyAnswer: () => Promise.reject(new Error('timeout')) });
    await flush();
    expect(h.result).toMatchObject({ success: false, outcome: 'failed', reasons: { [A]: 'failed' } });
  });

  it('a proxy that never answers times out after 16 s', async () => {
    const h = run({ proxy: true, relays: [A], proxyAnswer: () => new Promise(() => undefined) });
    await vi.advanceTimersByTimeAsync(15_999);
    expect(h.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.result).toMatchObject({ success: false, reasons: { [A]: 'timeout' } });
  });

  it('a failed or slow import does not undo the success', async () => {
    const failing = run({ relays: [A], importFails: true });
    await flush();
    failing.answer({ relay: A, ok: true, message: '' });
    await flush();
    expect(failing.result?.success).toBe(true);

    const slow = run({ relays: [A], importHangs: true });
    await flush();
    slow.answer({ relay: A, ok: true, message: '' });
    await flush();
    expect(slow.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(4000);
    expect(slow.result?.success).toBe(true);
  });
});
