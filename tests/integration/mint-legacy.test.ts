/**
 * The demo mint's legacy API (spec §7) the way a pre-v1 wallet speaks it, checked with blinding
 * written here from the legacy rules (hash_to_curve = sha256 repeated until `02‖hash` is a point;
 * 12-character base64 keyset ids), not with the mint's own helpers: keys, keysets, GET/POST
 * /mint, /split, /check, /checkfees, /melt with change, /restore, and the error bodies.
 */
import { randomBytes } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN_PUBKEY } from '../../server/demo/accounts.ts';
import { createInvoice, payInvoice } from '../../server/lightning/ledger.ts';
import { startMintServer, total, type MintServer } from './mint-support.ts';
import { http, jsonOf } from './services-support.ts';

const P = secp256k1.ProjectivePoint;
type Keys = Record<string, string>;
type Promise_ = { id: string; amount: number; C_: string };
type Proof = { id: string; amount: number; secret: string; C: string };

function hashToCurveLegacy(message: Uint8Array) {
  let msg = message;
  for (;;) {
    const h = sha256(msg);
    try {
      return P.fromHex(`02${bytesToHex(h)}`);
    } catch {
      msg = h;
    }
  }
}

function blind(amount: number) {
  const secret = randomBytes(32).toString('base64');
  const r = BigInt(`0x${randomBytes(32).toString('hex')}`) % P.CURVE().n;
  const B_ = hashToCurveLegacy(new TextEncoder().encode(secret)).add(P.BASE.multiply(r));
  return { secret, r, output: { amount, B_: B_.toHex(true) } };
}

function unblind(b: ReturnType<typeof blind>, promise: Promise_, keys: Keys): Proof {
  const K = P.fromHex(keys[String(promise.amount)]);
  const C = P.fromHex(promise.C_).subtract(K.multiply(b.r));
  return { id: promise.id, amount: promise.amount, secret: b.secret, C: C.toHex(true) };
}

describe('demo mint, legacy API (spec §7)', () => {
  let m: MintServer;
  let keys: Keys;
  let keysetId = '';
  const get = async (path: string) => http('GET', `${m.mintUrl}${path}`, { headers: { Accept: 'application/json, text/plain, */*' } });
  const post = async (path: string, body: unknown) =>
    http('POST', `${m.mintUrl}${path}`, { headers: { Accept: 'application/json, text/plain, */*', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  async function mintLegacy(amounts: number[]): Promise<Proof[]> {
    const q = jsonOf<{ pr: string; hash: string }>(await get(`/mint?amount=${total(amounts.map((amount) => ({ amount })))}`));
    await payInvoice(m.server.ctx, DEMO_LOGIN_PUBKEY, q.pr);
    const bs = amounts.map(blind);
    const r = await post(`/mint?hash=${q.hash}`, { outputs: bs.map((b) => b.output) });
    expect(r.status).toBe(200);
    return jsonOf<{ promises: Promise_[] }>(r).promises.map((p, i) => unblind(bs[i], p, keys));
  }

  beforeAll(async () => {
    m = await startMintServer('');
    keys = jsonOf<Keys>(await get('/keys'));
    keysetId = jsonOf<{ keysets: string[] }>(await get('/keysets')).keysets[0];
  });
  afterAll(async () => {
    await m?.stop();
  });

  it('serves keys, a base64 keyset id derived from them, and keys by URL-safe id', async () => {
    expect(Object.keys(keys)).toHaveLength(32);
    const joined = Object.entries(keys).sort((a, b) => Number(a[0]) - Number(b[0])).map(([, k]) => k).join('');
    expect(keysetId).toBe(Buffer.from(sha256(new TextEncoder().encode(joined))).toString('base64').slice(0, 12));
    expect(jsonOf(await get(`/keys/${keysetId.replace(/\//g, '_').replace(/\+/g, '-')}`))).toEqual(keys);
    const info = jsonOf<{ name: string; nuts: string[] }>(await get('/info'));
    expect(info.name).toBe('Strucc demó pénzverde');
    expect(info.nuts).toContain('NUT-09');
  });

  it('mints only after the invoice is paid, with the error body of the spec', async () => {
    const q = jsonOf<{ pr: string; hash: string }>(await get('/mint?amount=8'));
    expect(q.pr).toMatch(/^lnbc80n1/);
    const early = await post(`/mint?hash=${q.hash}`, { outputs: [blind(8).output] });
    expect(early.status).toBe(400);
    expect(jsonOf<{ error: string }>(early).error).toBe('A számla még nincs kifizetve.');
    const proofs = await mintLegacy([2, 8]);
    expect(proofs.map((p) => p.id)).toEqual([keysetId, keysetId]);
  });

  it('splits, checks spendability and refuses a second split of the same proofs', async () => {
    const proofs = await mintLegacy([2, 8]);
    expect(jsonOf(await post('/check', { proofs: proofs.map((p) => ({ secret: p.secret })) }))).toEqual({ spendable: [true, true], pending: [false, false] });
    const bs = [4, 4, 2].map(blind);
    const split = await post('/split', { proofs, outputs: bs.map((b) => b.output) });
    expect(split.status).toBe(200);
    const fresh = jsonOf<{ promises: Promise_[] }>(split).promises.map((p, i) => unblind(bs[i], p, keys));
    expect(total(fresh)).toBe(10);
    expect(jsonOf(await post('/check', { proofs: proofs.map((p) => ({ secret: p.secret })) }))).toEqual({ spendable: [false, false], pending: [false, false] });
    const again = await post('/split', { proofs, outputs: [4, 4, 2].map((a) => blind(a).output) });
    expect(again.status).toBe(400);
    expect(jsonOf<{ error: string }>(again).error).toMatch(/már beváltották/);
    // Unbalanced and non-power-of-two outputs are refused too.
    expect(jsonOf<{ error: string }>(await post('/split', { proofs: fresh, outputs: [blind(8).output] })).error).toMatch(/nem egyezik/);
    expect(jsonOf<{ error: string }>(await post('/split', { proofs: fresh, outputs: [blind(10).output] })).error).toMatch(/kettő hatványa/);
  });

  it('quotes the fee, melts into a ledger invoice and returns change', async () => {
    const inv = await createInvoice(m.server.ctx, { payee: getPublicKey(generateSecretKey()), amountSats: 5 });
    expect(jsonOf(await post('/checkfees', { pr: inv.invoice }))).toEqual({ fee: 2 });
    const proofs = await mintLegacy([8]);
    const blanks = [blind(1), blind(1)];
    const r = await post('/melt', { pr: inv.invoice, proofs, outputs: blanks.map((b) => b.output) });
    expect(r.status).toBe(200);
    const body = jsonOf<{ paid: boolean; preimage: string; change: Promise_[] }>(r);
    expect(body.paid).toBe(true);
    expect(bytesToHex(sha256(Buffer.from(body.preimage, 'hex')))).toBe(inv.payment_hash);
    expect(body.change.map((c) => c.amount)).toEqual([1, 2]);
    const change = body.change.map((c, i) => unblind(blanks[i], c, keys));
    expect(jsonOf(await post('/check', { proofs: change }))).toEqual({ spendable: [true, true], pending: [false, false] });
  });

  it('restores the promises of known outputs and skips unknown ones', async () => {
    const q = jsonOf<{ pr: string; hash: string }>(await get('/mint?amount=4'));
    await payInvoice(m.server.ctx, DEMO_LOGIN_PUBKEY, q.pr);
    const b = blind(4);
    const minted = jsonOf<{ promises: Promise_[] }>(await post(`/mint?hash=${q.hash}`, { outputs: [b.output] })).promises;
    const r = jsonOf<{ outputs: { B_: string }[]; promises: Promise_[] }>(await post('/restore', { outputs: [b.output, blind(4).output] }));
    expect(r.outputs.map((o) => o.B_)).toEqual([b.output.B_]);
    expect(r.promises).toEqual(minted);
  });

  it('gives a JSON error for bad bodies and unknown keysets', async () => {
    const bad = await http('POST', `${m.mintUrl}/split`, { headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(bad.status).toBe(400);
    expect(jsonOf<{ error: string }>(bad).error).toBe('A kérés törzse nem JSON objektum.');
    const unknown = await get('/keys/AAAAAAAAAAAA');
    expect(unknown.status).toBe(400);
    expect(jsonOf<{ error: string }>(unknown).error).toMatch(/Ismeretlen kulcskészlet/);
    expect(jsonOf<{ error: string }>(await get('/mint?amount=abc')).error).toMatch(/satoshi között/);
  });
});
