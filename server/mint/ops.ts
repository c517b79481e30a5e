/**
 * The mint's operations on proofs, shared by both APIs: input and output checks, swap (NUT-03,
 * legacy /split), proof states (NUT-07, legacy /check) and restore (NUT-09). The double-spend
 * rule lives in commit(): the inputs' secrets go into mint_spent (primary key) and the outputs'
 * signatures into mint_promises in one transaction, so a secret redeemed twice — even by two
 * requests at the same moment — fails the second time and nothing of it is signed.
 */
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { blindSign, isPowerOfTwo, MAX_AMOUNT, proofValid, proofY, type Keyset } from './crypto.ts';
import { ERR, MintError } from './errors.ts';
import { activeKeyset, keysetById } from './keysets.ts';

export const MAX_ITEMS = 1000;

export interface ProofIn {
  id: string;
  amount: number;
  secret: string;
  C: string;
}
export interface OutputIn {
  amount: number;
  B_: string;
  id?: string;
}
export interface Signature {
  id: string;
  amount: number;
  C_: string;
}
export interface CheckedInput extends ProofIn {
  y: string;
  keyset: Keyset;
}

export const sum = (xs: { amount: number }[]) => xs.reduce((a, x) => a + x.amount, 0);

function list(v: unknown, what: string, allowEmpty = false): Record<string, unknown>[] {
  if (!Array.isArray(v) || (!allowEmpty && v.length === 0)) throw new MintError(ERR.other, `Hiányzó vagy üres ${what} lista.`);
  if (v.length > MAX_ITEMS) throw new MintError(ERR.other, `Túl sok elem: legfeljebb ${MAX_ITEMS}.`);
  return v.map((x) => {
    if (!x || typeof x !== 'object' || Array.isArray(x)) throw new MintError(ERR.other, `Hibás ${what} elem.`);
    return x as Record<string, unknown>;
  });
}

/** Spending conditions (NUT-10: a JSON array secret) are not offered, so such proofs are refused rather than treated as plain. */
function conditional(secret: string): boolean {
  if (!secret.startsWith('[')) return false;
  try {
    return Array.isArray(JSON.parse(secret));
  } catch {
    return false;
  }
}

export async function checkInputs(ctx: ServerContext, raw: unknown): Promise<CheckedInput[]> {
  const items = list(raw, 'bemenet (proofs)');
  const seen = new Set<string>();
  const out: CheckedInput[] = [];
  for (const p of items) {
    if (typeof p.secret !== 'string' || p.secret.length === 0 || p.secret.length > 512) throw new MintError(ERR.proofInvalid, 'Hibás titok (secret).');
    if (!isPowerOfTwo(p.amount)) throw new MintError(ERR.proofInvalid, 'Az összeg csak kettő hatványa lehet.');
    if (seen.has(p.secret)) throw new MintError(ERR.duplicate, 'Ugyanaz a bemenet kétszer szerepel.');
    seen.add(p.secret);
    if (conditional(p.secret)) throw new MintError(ERR.proofInvalid, 'Feltételhez kötött (NUT-10) ecash-t ez a pénzverde nem fogad.');
    const keyset = await keysetById(ctx, p.id);
    const proof = { id: String(p.id), amount: p.amount, secret: p.secret, C: String(p.C) };
    if (!proofValid(keyset, proof)) throw new MintError(ERR.proofInvalid, 'Az ecash aláírása nem érvényes.');
    out.push({ ...proof, y: proofY(p.secret), keyset });
  }
  return out;
}

/**
 * Signs outputs with the active keyset. A v1 output names its keyset and must name the active one;
 * legacy outputs name none and get the legacy id on their promises.
 */
export async function signOutputs(ctx: ServerContext, raw: unknown, legacy: boolean, allowEmpty = false): Promise<{ outputs: OutputIn[]; sigs: Signature[] }> {
  const items = list(raw, 'kimenet (outputs)', allowEmpty);
  const active = await activeKeyset(ctx);
  const seen = new Set<string>();
  const outputs: OutputIn[] = [];
  const sigs: Signature[] = [];
  for (const o of items) {
    if (!isPowerOfTwo(o.amount)) throw new MintError(ERR.amountLimit, 'Az összeg csak kettő hatványa lehet.');
    if (typeof o.B_ !== 'string' || seen.has(o.B_.toLowerCase())) throw new MintError(ERR.duplicate, 'Hibás vagy ismétlődő kimenet.');
    seen.add(o.B_.toLowerCase());
    if (!legacy && o.id !== undefined) {
      const ks = await keysetById(ctx, o.id);
      if (ks.id !== active.id) throw new MintError(ERR.keysetInactive, 'Ez a kulcskészlet már nem aktív: új kimenetet csak az aktívval lehet kérni.');
    }
    outputs.push({ amount: o.amount, B_: o.B_.toLowerCase() });
    sigs.push(blindSign(active, o.amount, o.B_.toLowerCase(), legacy));
  }
  return { outputs, sigs };
}

/** Marks inputs spent (or pending for a melt) and stores the signatures; throws when any was already. */
export async function commit(
  tx: Queryable,
  now: number,
  inputs: CheckedInput[],
  outputs: OutputIn[],
  sigs: Signature[],
  opts: { state?: 'spent' | 'pending'; quote?: string } = {},
): Promise<void> {
  for (const p of inputs) {
    const r = await tx.run(
      'INSERT INTO mint_spent (secret, y, amount, keyset_id, state, quote, spent_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [p.secret, p.y, p.amount, p.keyset.id, opts.state ?? 'spent', opts.quote ?? null, now],
    );
    if (!r.changes) throw new MintError(ERR.spent, 'Ezt az ecash-t már beváltották (elköltött token).');
  }
  for (let i = 0; i < outputs.length; i++) {
    const r = await tx.run('INSERT INTO mint_promises (b_, c_, amount, keyset_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [
      outputs[i].B_,
      sigs[i].C_,
      sigs[i].amount,
      sigs[i].id,
      now,
    ]);
    if (!r.changes) throw new MintError(ERR.outputsSigned, 'Ezt a kimenetet már aláírták.');
  }
}

/** NUT-03 swap / legacy split: inputs for outputs of the same total (this mint takes no fees). */
export async function swap(ctx: ServerContext, rawInputs: unknown, rawOutputs: unknown, legacy: boolean): Promise<Signature[]> {
  const inputs = await checkInputs(ctx, rawInputs);
  const { outputs, sigs } = await signOutputs(ctx, rawOutputs, legacy);
  if (sum(inputs) !== sum(outputs)) throw new MintError(ERR.unbalanced, `A bemenetek (${sum(inputs)}) és a kimenetek (${sum(outputs)}) összege nem egyezik.`);
  if (sum(outputs) > MAX_AMOUNT) throw new MintError(ERR.amountLimit, 'Túl nagy összeg.');
  await ctx.db.transaction((tx) => commit(tx, ctx.now(), inputs, outputs, sigs));
  return sigs;
}

export type ProofState = 'UNSPENT' | 'PENDING' | 'SPENT';

/** NUT-07 states by Y, or (legacy /check) by secret. */
export async function proofStates(ctx: ServerContext, keys: unknown, by: 'y' | 'secret'): Promise<ProofState[]> {
  if (!Array.isArray(keys) || keys.length > MAX_ITEMS || keys.some((k) => typeof k !== 'string')) {
    throw new MintError(ERR.other, by === 'y' ? 'Hibás Ys lista.' : 'Hibás proofs lista.');
  }
  const states = new Map<string, ProofState>();
  for (let i = 0; i < keys.length; i += 200) {
    const chunk = (keys as string[]).slice(i, i + 200).map((k) => (by === 'y' ? k.toLowerCase() : k));
    if (chunk.length === 0) continue;
    const rows = await ctx.db.all<{ k: string; state: string }>(
      `SELECT ${by} AS k, state FROM mint_spent WHERE ${by} IN (${chunk.map(() => '?').join(',')})`,
      chunk,
    );
    for (const r of rows) states.set(r.k, r.state === 'pending' ? 'PENDING' : 'SPENT');
  }
  return (keys as string[]).map((k) => states.get(by === 'y' ? k.toLowerCase() : k) ?? 'UNSPENT');
}

/** NUT-09: the signatures already given for these blinded messages (unknown ones are left out). */
export async function restore(ctx: ServerContext, raw: unknown): Promise<{ outputs: OutputIn[]; signatures: Signature[] }> {
  const items = list(raw, 'kimenet (outputs)', true);
  const wanted = items.map((o) => (typeof o.B_ === 'string' ? o.B_.toLowerCase() : ''));
  const found = new Map<string, { c_: string; amount: number; keyset_id: string }>();
  for (let i = 0; i < wanted.length; i += 200) {
    const chunk = wanted.slice(i, i + 200).filter((b) => b !== '');
    if (chunk.length === 0) continue;
    const rows = await ctx.db.all<{ b_: string; c_: string; amount: number | string; keyset_id: string }>(
      `SELECT b_, c_, amount, keyset_id FROM mint_promises WHERE b_ IN (${chunk.map(() => '?').join(',')})`,
      chunk,
    );
    for (const r of rows) found.set(r.b_, { c_: r.c_, amount: Number(r.amount), keyset_id: r.keyset_id });
  }
  const outputs: OutputIn[] = [];
  const signatures: Signature[] = [];
  for (const b of wanted) {
    const f = found.get(b);
    if (!f) continue;
    outputs.push({ amount: f.amount, B_: b, id: f.keyset_id });
    signatures.push({ id: f.keyset_id, amount: f.amount, C_: f.c_ });
  }
  return { outputs, signatures };
}
