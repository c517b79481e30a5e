/**
 * The mint's HTTP face under /mint: the v1 API (NUT-00…07, 09) under /mint/v1/… that current
 * wallets (cashu-ts 2.x) speak, and the spec's legacy API (§7) under /mint/… . Both run on the
 * same keys, quotes and spent secrets (ops.ts, quotes.ts). Errors: v1 {detail, code} with 400;
 * legacy {error, detail, code} with 400, which its clients read as spec §8 describes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from '../context.ts';
import { APP_VERSION } from '../http/handler.ts';
import { MintError } from './errors.ts';
import { activeKeyset, allKeysets, keysetById } from './keysets.ts';
import { proofStates, restore, swap } from './ops.ts';
import { createMeltQuote, createMintQuote, feeReserve, melt, meltQuote, mintQuote, mintTokens, MAX_MINT_SATS, type QuoteRow } from './quotes.ts';
import { findInvoice } from '../lightning/ledger.ts';

const MAX_BODY = 1024 * 1024;
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept',
};

type Body = Record<string, unknown>;
class BadRequest extends Error {}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store', ...CORS });
  res.end(text);
}

function readJson(req: IncomingMessage): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new BadRequest('A kérés túl nagy.'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
        resolve(v as Body);
      } catch {
        reject(new BadRequest('A kérés törzse nem JSON objektum.'));
      }
    });
    req.on('error', () => reject(new BadRequest('A kérés megszakadt.')));
  });
}

function info(ctx: ServerContext, legacy: boolean): Body {
  const base = {
    name: 'Strucc demó pénzverde',
    version: `strucc/${APP_VERSION}`,
    description: 'A demó hálózat ecash pénzverdéje: a demó villámhálózat satoshijaival fedezett játékpénz.',
    description_long: 'Csak a demó hálózat számláit tudja kifizetni; a satoshik itt nem érnek valódi pénzt.',
    contact: [],
    motd: '',
    time: ctx.now(),
  };
  if (legacy) return { ...base, nuts: ['NUT-07', 'NUT-08', 'NUT-09'], parameter: { peg_out_only: false } };
  const method = { method: 'bolt11', unit: 'sat', min_amount: 1, max_amount: MAX_MINT_SATS };
  return {
    ...base,
    nuts: {
      4: { methods: [{ ...method, description: true }], disabled: false },
      5: { methods: [method], disabled: false },
      7: { supported: true },
      8: { supported: true },
      9: { supported: true },
    },
  };
}

function mintQuoteBody(q: QuoteRow): Body {
  return { quote: q.quote, request: q.request, state: q.state, paid: q.state === 'PAID' || q.state === 'ISSUED', expiry: q.expiry, amount: q.amount, unit: 'sat' };
}

function meltQuoteBody(q: QuoteRow): Body {
  return {
    quote: q.quote,
    amount: q.amount,
    fee_reserve: q.fee_reserve,
    state: q.state,
    paid: q.state === 'PAID',
    expiry: q.expiry,
    payment_preimage: q.preimage,
    request: q.request,
    unit: 'sat',
  };
}

async function v1(ctx: ServerContext, method: string, path: string, req: IncomingMessage): Promise<unknown> {
  const get = method === 'GET';
  const body = () => readJson(req);
  if (get && path === '/info') return info(ctx, false);
  if (get && path === '/keysets') {
    return { keysets: (await allKeysets(ctx)).map((k) => ({ id: k.id, unit: k.unit, active: k.active, input_fee_ppk: 0 })) };
  }
  if (get && path === '/keys') {
    const k = await activeKeyset(ctx);
    return { keysets: [{ id: k.id, unit: k.unit, keys: k.pub }] };
  }
  if (get && path.startsWith('/keys/')) {
    const k = await keysetById(ctx, decodeURIComponent(path.slice(6)));
    return { keysets: [{ id: k.id, unit: k.unit, active: k.active, keys: k.pub }] };
  }
  if (method === 'POST' && path === '/mint/quote/bolt11') {
    const b = await body();
    return mintQuoteBody(await createMintQuote(ctx, b.amount, b.unit ?? 'sat'));
  }
  if (get && path.startsWith('/mint/quote/bolt11/')) return mintQuoteBody(await mintQuote(ctx, path.slice(19)));
  if (method === 'POST' && path === '/mint/bolt11') {
    const b = await body();
    return { signatures: await mintTokens(ctx, b.quote, b.outputs, false) };
  }
  if (method === 'POST' && path === '/melt/quote/bolt11') {
    const b = await body();
    return meltQuoteBody(await createMeltQuote(ctx, b.request, b.unit ?? 'sat'));
  }
  if (get && path.startsWith('/melt/quote/bolt11/')) return meltQuoteBody(await meltQuote(ctx, path.slice(19)));
  if (method === 'POST' && path === '/melt/bolt11') {
    const b = await body();
    const { quote, change } = await melt(ctx, b.quote, b.inputs, b.outputs, false);
    return { ...meltQuoteBody(quote), change };
  }
  if (method === 'POST' && path === '/swap') {
    const b = await body();
    return { signatures: await swap(ctx, b.inputs, b.outputs, false) };
  }
  if (method === 'POST' && path === '/checkstate') {
    const b = await body();
    const states = await proofStates(ctx, b.Ys, 'y');
    return { states: (b.Ys as string[]).map((Y, i) => ({ Y, state: states[i], witness: null })) };
  }
  if (method === 'POST' && path === '/restore') {
    const b = await body();
    const r = await restore(ctx, b.outputs);
    return { outputs: r.outputs, signatures: r.signatures, promises: r.signatures };
  }
  return undefined;
}

async function legacyApi(ctx: ServerContext, method: string, path: string, url: URL, req: IncomingMessage): Promise<unknown> {
  const get = method === 'GET';
  const body = () => readJson(req);
  if (get && path === '/info') return info(ctx, true);
  if (get && path === '/keys') return (await activeKeyset(ctx)).pub;
  if (get && path.startsWith('/keys/')) return (await keysetById(ctx, decodeURIComponent(path.slice(6)))).pub;
  if (get && path === '/keysets') return { keysets: (await allKeysets(ctx)).map((k) => k.legacyId) };
  if (get && path === '/mint') {
    const amount = Number(url.searchParams.get('amount') ?? NaN);
    const q = await createMintQuote(ctx, amount);
    return { pr: q.request, hash: q.quote };
  }
  if (method === 'POST' && path === '/mint') {
    const b = await body();
    return { promises: await mintTokens(ctx, url.searchParams.get('hash') ?? url.searchParams.get('payment_hash') ?? '', b.outputs, true) };
  }
  if (method === 'POST' && path === '/split') {
    const b = await body();
    return { promises: await swap(ctx, b.proofs, b.outputs, true) };
  }
  if (method === 'POST' && path === '/checkfees') {
    const b = await body();
    const inv = typeof b.pr === 'string' ? await findInvoice(ctx.db, { invoice: b.pr }) : undefined;
    if (!inv) throw new MintError(0, 'Ez a számla nem a demó hálózaté: a demó pénzverde csak a demó hálózat számláit tudja kifizetni.');
    return { fee: feeReserve(inv.amount_sats) };
  }
  if (method === 'POST' && path === '/melt') {
    const b = await body();
    const q = await createMeltQuote(ctx, b.pr);
    const { quote, change } = await melt(ctx, q.quote, b.proofs, b.outputs, true);
    return { paid: true, preimage: quote.preimage, change };
  }
  if (method === 'POST' && path === '/check') {
    const b = await body();
    const proofs = Array.isArray(b.proofs) ? b.proofs : null;
    const secrets = proofs?.map((p) => (p && typeof p === 'object' ? (p as Body).secret : undefined));
    const states = await proofStates(ctx, secrets, 'secret');
    return { spendable: states.map((s) => s === 'UNSPENT'), pending: states.map((s) => s === 'PENDING') };
  }
  if (method === 'POST' && path === '/restore') {
    const b = await body();
    const r = await restore(ctx, b.outputs);
    return { outputs: r.outputs, promises: r.signatures };
  }
  return undefined;
}

/** Answers /mint and /mint/… and returns true; false for any other path. */
export async function handleMint(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const full = url.pathname;
  if (full !== '/mint' && !full.startsWith('/mint/')) return false;
  const method = req.method ?? 'GET';
  if (method === 'OPTIONS') {
    res.writeHead(204, { ...CORS, 'Access-Control-Max-Age': '86400' });
    res.end();
    return true;
  }
  const path = full.slice(5).replace(/\/+$/, '') || '/';
  const isV1 = path === '/v1' || path.startsWith('/v1/');
  try {
    const out = isV1 ? await v1(ctx, method, path.slice(3), req) : await legacyApi(ctx, method, path, url, req);
    if (out === undefined) json(res, 404, isV1 ? { detail: 'Ismeretlen végpont.', code: 0 } : { error: 'Ismeretlen végpont.', detail: 'Ismeretlen végpont.', code: 0 });
    else json(res, 200, out);
  } catch (err) {
    if (!(err instanceof MintError) && !(err instanceof BadRequest)) {
      if (ctx.config.verbose) console.error('Pénzverde hiba:', err);
    }
    const code = err instanceof MintError ? err.code : 0;
    const detail = err instanceof MintError || err instanceof BadRequest ? err.message : 'A pénzverde belső hibája.';
    json(res, err instanceof MintError || err instanceof BadRequest ? 400 : 500, isV1 ? { detail, code } : { error: detail, detail, code });
  }
  return true;
}
