/**
 * The pure parts of the demo lightning network: NIP-57 appendix D zap request checks and the
 * ledger's refusal rules, budget windows and msat conversion.
 */
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { describe, expect, it } from 'vitest';
import { budgetWindowStart, LedgerError, msatToSats, paymentRefusal, type PaymentCheck } from '../../../../server/lightning/rules.ts';
import { checkZapRequest, checkZapRequestTags } from '../../../../server/lightning/zap-request.ts';
import type { NostrEvent } from '../../../../server/context.ts';

const sender = generateSecretKey();
const senderPk = getPublicKey(sender);
const recipient = getPublicKey(generateSecretKey());
const noteId = 'a'.repeat(64);
const relays = ['relays', 'wss://relay.example.com', 'ws://127.0.0.1:1/relay'];

function request(tags: string[][], kind = 9734): NostrEvent {
  return finalizeEvent({ kind, tags, content: 'Szia', created_at: 1_700_000_000 }, sender) as NostrEvent;
}
const check = (ev: NostrEvent, amount = 21000) => checkZapRequestTags(ev, JSON.stringify(ev), amount, recipient);

describe('zap request checks (NIP-57 appendix D)', () => {
  it('accepts a request with one p tag, optional e/a/P/amount tags and relays', () => {
    const ev = request([['p', recipient], ['e', noteId], ['a', `30023:${recipient}:cikk`], ['P', senderPk], ['amount', '21000'], relays]);
    const ok = check(ev);
    expect(ok).toMatchObject({ recipient, eventId: noteId, coordinate: `30023:${recipient}:cikk`, relays: relays.slice(1) });
    expect(check(request([['p', recipient], relays]))).toMatchObject({ eventId: null, coordinate: null });
  });

  it('refuses each broken rule with its own reason', () => {
    const cases: [string[][], RegExp, number?][] = [
      [[relays], /hiányzik a p címke/],
      [[['p', recipient], ['p', senderPk], relays], /pontosan egy p címke/],
      [[['p', 'nem-hex'], relays], /nem érvényes pubkey/],
      [[['p', senderPk], relays], /nem ennek a villámcímnek/],
      [[['p', recipient], ['e', noteId], ['e', noteId], relays], /legfeljebb egy e címke/],
      [[['p', recipient], ['e', 'xyz'], relays], /e címkéje/],
      [[['p', recipient], ['a', '1:2'], ['a', '3:4'], relays], /legfeljebb egy a címke/],
      [[['p', recipient], ['a', 'nem koordináta'], relays], /a címkéje/],
      [[['p', recipient], ['P', senderPk], ['P', senderPk], relays], /legfeljebb egy P címke/],
      [[['p', recipient], ['P', recipient], relays], /P címkéje/],
      [[['p', recipient], ['amount', '1000'], relays], /amount címkéje/],
      [[['p', recipient]], /relays címke/],
      [[['p', recipient], ['relays', 'https://nem-relé.example.com']], /relays címke/],
    ];
    for (const [tags, reason] of cases) expect(check(request(tags)), JSON.stringify(tags)).toMatch(reason);
    expect(check(request([['p', recipient], relays], 1))).toMatch(/9734/);
    expect(check(request([]))).toMatch(/nincsenek címkéi/);
  });

  it('checks the JSON and the signature before the tags', async () => {
    const ev = request([['p', recipient], relays]);
    expect(await checkZapRequest(JSON.stringify(ev), 21000, recipient)).toMatchObject({ recipient });
    expect(await checkZapRequest(JSON.stringify({ ...ev, content: 'más' }), 21000, recipient)).toMatch(/aláírása érvénytelen/);
    expect(await checkZapRequest('{', 21000, recipient)).toMatch(/nem érvényes JSON/);
    expect(await checkZapRequest('[]', 21000, recipient)).toMatch(/Hibás zap-kérés/);
    expect(await checkZapRequest('x'.repeat(20_001), 21000, recipient)).toMatch(/túl nagy/);
  });
});

describe('ledger rules', () => {
  const base: PaymentCheck = { status: 'pending', expiresAt: 2000, amountSats: 21, payee: 'b', payer: 'a', payerBalance: 100, now: 1000 };
  const code = (p: Partial<PaymentCheck>) => paymentRefusal({ ...base, ...p })?.code ?? null;

  it('lets a payable invoice through and refuses the rest, paid before expired', () => {
    expect(code({})).toBeNull();
    expect(code({ payerBalance: 21 })).toBeNull();
    expect(paymentRefusal({ ...base, status: 'paid', now: 5000 })?.message).toBe('A számlát már kifizették.');
    expect(paymentRefusal({ ...base, now: 2000 })?.message).toBe('A számla lejárt.');
    expect(code({ payer: 'b' })).toBe('PAYMENT_FAILED');
    expect(code({ payerBalance: 20 })).toBe('INSUFFICIENT_BALANCE');
    expect(code({ budgetSats: 30, spentSats: 10 })).toBe('QUOTA_EXCEEDED');
    expect(code({ budgetSats: 31, spentSats: 10 })).toBeNull();
    // A budget of 0 is no budget.
    expect(code({ budgetSats: 0, spentSats: 1_000_000 })).toBeNull();
  });

  it('counts budgets over rolling windows', () => {
    expect(budgetWindowStart('daily', 100_000)).toBe(100_000 - 86_400);
    expect(budgetWindowStart('weekly', 1_000_000)).toBe(1_000_000 - 7 * 86_400);
    expect(budgetWindowStart('monthly', 10_000_000)).toBe(10_000_000 - 30 * 86_400);
    expect(budgetWindowStart('yearly', 100_000_000)).toBe(100_000_000 - 365 * 86_400);
    expect(budgetWindowStart('never', 100)).toBe(-1);
  });

  it('takes whole sats only', () => {
    expect(msatToSats(21_000)).toBe(21);
    for (const bad of [0, -1000, 1500, 1.5, '1000', undefined, Number.MAX_VALUE]) expect(() => msatToSats(bad)).toThrow(LedgerError);
  });
});
