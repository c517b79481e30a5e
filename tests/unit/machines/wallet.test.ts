import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  PAY_TIMEOUT_MS,
  connectionId,
  parseNwcUri,
  paymentMachine,
  publicConnections,
  walletMachine,
  type PaymentInput,
  type SavedWallets,
  type ZapTarget,
} from '../../../machines/wallet.ts';
import type { PaymentResult } from '../../../core/types.ts';

const W1 = 'a'.repeat(64);
const W2 = 'b'.repeat(64);
const S1 = '1'.repeat(64);
const S2 = '2'.repeat(64);
const uri = (wallet: string, secret: string, extra = '') => `nostr+walletconnect://${wallet}?relay=wss%3A%2F%2Frelay.example&secret=${secret}${extra}`;
const flush = () => vi.advanceTimersByTimeAsync(0);

describe('parseNwcUri', () => {
  it('reads wallet, relays, secret and lud16', () => {
    expect(parseNwcUri(uri(W1, S1, '&relay=wss%3A%2F%2Fr2.example&lud16=a%40b.hu'))).toEqual({
      walletPubkey: W1,
      relays: ['wss://relay.example', 'wss://r2.example'],
      secret: S1,
      lud16: 'a@b.hu',
    });
  });

  it.each([
    ['another scheme', `lightning://${W1}?relay=wss://r.example&secret=${S1}`],
    ['a short wallet key', uri('abc', S1)],
    ['no secret', `nostr+walletconnect://${W1}?relay=wss://r.example`],
    ['no relay', `nostr+walletconnect://${W1}?secret=${S1}`],
    ['an http relay', `nostr+walletconnect://${W1}?relay=https://r.example&secret=${S1}`],
    ['garbage', 'szia'],
  ])('refuses %s', (_name, bad) => {
    expect(parseNwcUri(bad)).toBeUndefined();
  });

  it('keeps the secret out of what a tab sees', () => {
    const pub = publicConnections([{ id: 'x', name: 'Tárca', uri: uri(W1, S1) }]);
    expect(pub).toEqual([{ id: 'x', name: 'Tárca', walletPubkey: W1, relays: ['wss://relay.example'] }]);
    expect(JSON.stringify(pub)).not.toContain(S1);
  });
});

describe('wallet machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function run(saved: SavedWallets = { connections: [], active: null }, opts: { saveFails?: boolean; loadFails?: boolean } = {}) {
    const saves: SavedWallets[] = [];
    const machine = walletMachine.provide({
      actors: {
        load: fromPromise<SavedWallets, void>(async () => {
          if (opts.loadFails) throw new Error('no');
          return saved;
        }),
        save: fromPromise<void, SavedWallets>(async ({ input }) => {
          saves.push(input);
          if (opts.saveFails) throw new Error('offline');
        }),
      },
    });
    const actor = createActor(machine).start();
    return { actor, saves, ctx: () => actor.getSnapshot().context };
  }

  it('loads the saved list and drops entries that are no longer valid', async () => {
    const id = connectionId(parseNwcUri(uri(W1, S1))!);
    const h = run({ connections: [{ id, name: 'A', uri: uri(W1, S1) }, { id: 'bad', name: 'B', uri: 'szia' }], active: 'bad' });
    await flush();
    expect(h.ctx().connections.map((c) => c.id)).toEqual([id]);
    // The active one was dropped, so the remaining connection pays.
    expect(h.ctx().active).toBe(id);
  });

  it('an unreadable list starts empty and still accepts connections', async () => {
    const h = run(undefined, { loadFails: true });
    await flush();
    expect(h.actor.getSnapshot().matches('ready')).toBe(true);
    h.actor.send({ type: 'ADD', uri: uri(W1, S1), name: 'Első' });
    await flush();
    expect(h.ctx().connections).toHaveLength(1);
  });

  it('adds, makes the first one active, renames, activates and removes, saving after each change', async () => {
    const h = run();
    await flush();
    h.actor.send({ type: 'ADD', uri: uri(W1, S1), name: 'Első' });
    await flush();
    const first = h.ctx().connections[0].id;
    expect(h.ctx().active).toBe(first);
    h.actor.send({ type: 'ADD', uri: uri(W2, S2) });
    await flush();
    const second = h.ctx().connections[1].id;
    expect(h.ctx().connections[1].name).toBe('NWC 2');
    expect(h.ctx().active).toBe(first);
    h.actor.send({ type: 'RENAME', id: second, name: '  Második ' });
    h.actor.send({ type: 'ACTIVATE', id: second });
    await flush();
    expect(h.ctx().connections[1].name).toBe('Második');
    expect(h.ctx().active).toBe(second);
    h.actor.send({ type: 'REMOVE', id: second });
    await flush();
    expect(h.ctx().connections.map((c) => c.id)).toEqual([first]);
    expect(h.ctx().active).toBe(first);
    // The last write carries the final state (a re-entered save replaces the older one).
    expect(h.saves.at(-1)).toEqual({ connections: [{ id: first, name: 'Első', uri: uri(W1, S1) }], active: first });
  });

  it('refuses a bad URI and a duplicate with an error, saving nothing', async () => {
    const h = run();
    await flush();
    h.actor.send({ type: 'ADD', uri: 'nostr+walletconnect://nope' });
    await flush();
    expect(h.ctx().error).toBe('invalid-uri');
    expect(h.saves).toHaveLength(0);
    h.actor.send({ type: 'ADD', uri: uri(W1, S1) });
    await flush();
    expect(h.ctx().error).toBeUndefined();
    h.actor.send({ type: 'ADD', uri: uri(W1, S1) });
    await flush();
    expect(h.ctx().error).toBe('duplicate');
    expect(h.ctx().connections).toHaveLength(1);
  });

  it('ignores changes to a connection it does not know', async () => {
    const h = run();
    await flush();
    h.actor.send({ type: 'ACTIVATE', id: 'nope' });
    h.actor.send({ type: 'REMOVE', id: 'nope' });
    await flush();
    expect(h.ctx().active).toBeNull();
    expect(h.saves).toHaveLength(0);
  });

  it('a failed save is reported and the list in memory stays', async () => {
    const h = run(undefined, { saveFails: true });
    await flush();
    h.actor.send({ type: 'ADD', uri: uri(W1, S1) });
    await flush();
    expect(h.ctx().saveError).toBe('save-failed');
    expect(h.ctx().connections).toHaveLength(1);
  });
});

describe('payment machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const zap: ZapTarget = { lnurl: 'https://x.example/cb', amountMsat: 42_000, comment: 'Haladjunk együtt! 🫡', recipient: W1, eventId: W2 };

  function run(input: PaymentInput, opts: { pay?: (invoice: string) => Promise<string>; fetchInvoice?: () => Promise<string> } = {}) {
    const states: string[] = [];
    const paid: { connectionId: string; invoice: string }[] = [];
    let result: PaymentResult | undefined;
    const machine = paymentMachine.provide({
      actors: {
        fetchInvoice: fromPromise<string, ZapTarget>(async () => (opts.fetchInvoice ? opts.fetchInvoice() : 'lnbc420n1zap')),
        pay: fromPromise<string, { connectionId: string; invoice: string }>(async ({ input }) => {
          paid.push(input);
          return opts.pay ? opts.pay(input.invoice) : 'f'.repeat(64);
        }),
      },
    });
    const actor = createActor(machine, { input });
    actor.subscribe({ next: (s) => states.push(String(s.value)), complete: () => (result = actor.getSnapshot().output) });
    actor.start();
    return { states, paid, result: () => result };
  }

  it('pays a bolt11 invoice with the chosen connection', async () => {
    const h = run({ connectionId: 'c1', invoice: ' lnbc10n1abc ' });
    await flush();
    expect(h.paid).toEqual([{ connectionId: 'c1', invoice: 'lnbc10n1abc' }]);
    expect(h.states).toContain('paying');
    expect(h.result()).toEqual({ status: 'paid', invoice: 'lnbc10n1abc', preimage: 'f'.repeat(64) });
  });

  it('a zap fetches its invoice first, then pays it', async () => {
    const h = run({ connectionId: 'c1', zap });
    await flush();
    expect(h.states.slice(0, 2)).toEqual(['invoicing', 'paying']);
    expect(h.result()?.status).toBe('paid');
    expect(h.paid[0].invoice).toBe('lnbc420n1zap');
  });

  it('fails without a wallet, before asking for an invoice', async () => {
    let asked = false;
    const h = run({ connectionId: null, zap }, { fetchInvoice: async () => ((asked = true), 'lnbc1') });
    await flush();
    expect(asked).toBe(false);
    expect(h.result()).toEqual({ status: 'failed', reason: 'no-wallet' });
  });

  it('reports the LNURL server’s and the wallet’s error', async () => {
    const a = run({ connectionId: 'c1', zap }, { fetchInvoice: async () => Promise.reject(new Error('amount out of range')) });
    await flush();
    expect(a.result()).toEqual({ status: 'failed', reason: 'amount out of range' });
    const b = run({ connectionId: 'c1', invoice: 'lnbc1' }, { pay: async () => Promise.reject(new Error('INSUFFICIENT_BALANCE')) });
    await flush();
    expect(b.result()).toMatchObject({ status: 'failed', reason: 'INSUFFICIENT_BALANCE' });
  });

  it('a wallet that never answers times out', async () => {
    const h = run({ connectionId: 'c1', invoice: 'lnbc1' }, { pay: () => new Promise<string>(() => {}) });
    await vi.advanceTimersByTimeAsync(PAY_TIMEOUT_MS - 1);
    expect(h.result()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.result()).toEqual({ status: 'timeout', invoice: 'lnbc1', reason: 'timeout' });
  });

  it('an empty invoice fails without calling the wallet', async () => {
    const h = run({ connectionId: 'c1', invoice: '  ' });
    await flush();
    expect(h.paid).toHaveLength(0);
    expect(h.result()).toEqual({ status: 'failed', reason: 'no-invoice' });
  });
});
