import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { EcashError, ecashMachine, failureOf, type MeltQuoteInfo, type MeltResult, type ReceiveResult, type SendResult } from '../../../machines/ecash.ts';

interface Fakes {
  swap?: (input: { token: string }) => Promise<ReceiveResult>;
  send?: (input: { mint: string; amount: number }) => Promise<SendResult>;
  meltQuote?: (input: { invoice: string }) => Promise<MeltQuoteInfo>;
  melt?: (input: { quote: MeltQuoteInfo; invoice: string }) => Promise<MeltResult>;
}

function run(f: Fakes) {
  const never = () => Promise.reject(new Error('not expected'));
  const actor = createActor(
    ecashMachine.provide({
      actors: {
        swap: fromPromise(({ input }) => (f.swap ?? never)(input)),
        send: fromPromise(({ input }) => (f.send ?? never)(input)),
        meltQuote: fromPromise(({ input }) => (f.meltQuote ?? never)(input)),
        melt: fromPromise(({ input }) => (f.melt ?? never)(input)),
      },
    }),
  );
  actor.start();
  return actor;
}

const settled = (a: ReturnType<typeof run>) => waitFor(a, (s) => s.matches('done') || s.matches('failed') || s.matches('confirmMelt') || s.matches('cancelled'));

describe('ecash machine', () => {
  it('receive → swapping → done with the amount and mint', async () => {
    const seen: string[] = [];
    const a = run({ swap: async ({ token }) => (seen.push(token), { amount: 21, mint: 'https://m' }) });
    a.send({ type: 'RECEIVE', token: '  cashuAxyz ' });
    expect(a.getSnapshot().value).toBe('swapping');
    const s = await settled(a);
    expect(s.value).toBe('done');
    expect(s.context.received).toEqual({ amount: 21, mint: 'https://m' });
    expect(seen).toEqual(['cashuAxyz']);
  });

  it('an already spent token fails as spent and RETRY does not swap again', async () => {
    let calls = 0;
    const a = run({ swap: async () => (calls++, Promise.reject(Object.assign(new Error('Token already spent.'), { code: 11001 }))) });
    a.send({ type: 'RECEIVE', token: 'cashuA1' });
    const s = await settled(a);
    expect(s.value).toBe('failed');
    expect(s.context.failure).toBe('spent');
    a.send({ type: 'RETRY' });
    expect(a.getSnapshot().value).toBe('failed');
    expect(calls).toBe(1);
  });

  it('a network failure can be retried and then succeeds', async () => {
    let calls = 0;
    const a = run({
      swap: async () => {
        calls++;
        if (calls === 1) throw Object.assign(new Error('Failed to fetch'), { name: 'NetworkError' });
        return { amount: 8, mint: 'https://m' };
      },
    });
    a.send({ type: 'RECEIVE', token: 'cashuA1' });
    expect((await settled(a)).context.failure).toBe('network');
    a.send({ type: 'RETRY' });
    const s = await waitFor(a, (x) => x.matches('done'));
    expect(s.context.received?.amount).toBe(8);
    expect(s.context.failure).toBeUndefined();
  });

  it('send → done with the token; not enough funds is its own failure', async () => {
    const ok = run({ send: async ({ amount }) => ({ token: 'cashuAtok', amount }) });
    ok.send({ type: 'SEND', mint: 'https://m', amount: 5 });
    expect((await settled(ok)).context.sent).toEqual({ token: 'cashuAtok', amount: 5 });
    const poor = run({ send: async () => Promise.reject(new EcashError('funds', 'Not enough funds available')) });
    poor.send({ type: 'SEND', mint: 'https://m', amount: 500 });
    expect((await settled(poor)).context).toMatchObject({ failure: 'funds', message: 'Not enough funds available' });
  });

  it('melt: quote → confirm (fee shown) → melting → done with change', async () => {
    const quote = { quote: 'q1', mint: 'https://m', amount: 50, fee: 2 };
    const melted: string[] = [];
    const a = run({ meltQuote: async () => quote, melt: async ({ quote: q }) => (melted.push(q.quote), { preimage: 'ab', change: 2 }) });
    a.send({ type: 'MELT', invoice: 'lnbc500n1x' });
    const s = await settled(a);
    expect(s.value).toBe('confirmMelt');
    expect(s.context.quote).toEqual(quote);
    expect(melted).toEqual([]);
    a.send({ type: 'CONFIRM' });
    const d = await waitFor(a, (x) => x.matches('done'));
    expect(d.context.melted).toEqual({ preimage: 'ab', change: 2 });
    expect(melted).toEqual(['q1']);
  });

  it('melt cancelled at the fee pays nothing', async () => {
    let paid = false;
    const a = run({ meltQuote: async () => ({ quote: 'q', mint: 'm', amount: 1, fee: 2 }), melt: async () => ((paid = true), { preimage: '', change: 0 }) });
    a.send({ type: 'MELT', invoice: 'lnbc1' });
    await settled(a);
    a.send({ type: 'CANCEL' });
    expect(a.getSnapshot().value).toBe('cancelled');
    expect(paid).toBe(false);
  });

  it('sorts errors into kinds', () => {
    expect(failureOf(new Error('Ezt az ecash-t már beváltották (elköltött token).')).failure).toBe('spent');
    expect(failureOf(new Error('Not enough funds available')).failure).toBe('funds');
    expect(failureOf(new Error('bad response')).failure).toBe('mint');
    expect(failureOf(new EcashError('invalid', 'x')).failure).toBe('invalid');
  });
});
