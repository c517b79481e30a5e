/**
 * LNURL-pay (LUD-06/16) for lightning addresses on the NIP-05 domain. The metadata names the
 * demo zapper as nostrPubkey, so a client can check zap receipts against it (S §4.2). With the
 * demo lightning network on (DEMO_LIGHTNING) the callback issues ledger invoices
 * (server/lightning/lnurl.ts); without it, it answers with a clear error.
 */
import type { ServerResponse } from 'node:http';
import type { ServerContext } from '../context.ts';
import { fetchHead, FetchError, type FetchOptions } from '../media/fetch.ts';
import { MAX_URL_LENGTH } from '../media/urls.ts';
import { COMMENT_ALLOWED, lnurlCallback, MAX_SENDABLE_MSAT, MIN_SENDABLE_MSAT, payMetadata } from '../lightning/lnurl.ts';
import { memberNip05 } from '../membership/http.ts';

const NAME = /^[a-z0-9._-]{1,64}$/;
const CALLBACK_PREFIX = '/lnurlp/callback/';
/** The fallback for LNURL servers without CORS headers: the browser asks us, we ask them. */
export const LNURL_PROXY_PATH = '/lnurlp/proxy';
const PROXY_FETCH: FetchOptions = { timeoutMs: 10_000, maxRedirects: 3, accept: 'application/json' };
const PROXY_MAX_BYTES = 64 * 1024;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'Access-Control-Allow-Origin': '*',
  });
  res.end(text);
}

/** Who owns name@domain: a premium member, else the oldest current profile giving it as lud16 or NIP-05 name. */
async function nameOwner(ctx: ServerContext, name: string): Promise<string | undefined> {
  // A premium member's name is their lightning address too (membership_status lightning_address).
  const member = await memberNip05(ctx, name);
  if (member) return member;
  const domain = ctx.config.nip05Domain.toLowerCase();
  const wanted = `${name}@${domain}`;
  // LIKE narrows the scan; the JSON check below decides.
  const rows = await ctx.db.all<{ pubkey: string; content: string }>(
    `SELECT e.pubkey, e.content FROM replaceable r JOIN events e ON e.id = r.event_id WHERE r.kind = 0 AND lower(e.content) LIKE ?
     ORDER BY e.created_at ASC LIMIT 50`,
    [`%${wanted}%`],
  );
  for (const row of rows) {
    try {
      const meta = JSON.parse(row.content) as Record<string, unknown>;
      for (const key of ['lud16', 'nip05']) {
        const v = meta[key];
        if (typeof v === 'string' && v.trim().toLowerCase() === wanted) return row.pubkey;
      }
    } catch {
      // A broken profile names nobody.
    }
  }
  return undefined;
}

function nameFrom(encoded: string): string {
  try {
    return decodeURIComponent(encoded).toLowerCase();
  } catch {
    // Broken percent-encoding is simply an unknown name.
    return '';
  }
}

/**
 * GET /lnurlp/proxy?url=…: one LNURL-pay request (the endpoint or its callback) made for a browser
 * whose own request was refused by CORS. Only http(s), through the same guard as link previews
 * (no loopback or private networks unless FETCH_PRIVATE_ADDRESSES), a small JSON body; any failure
 * is answered in the LUD-06 error form so the client handles it like the service's own error.
 */
async function lnurlProxy(res: ServerResponse, query: URLSearchParams): Promise<void> {
  const target = query.get('url') ?? '';
  if (!/^https?:\/\//i.test(target) || target.length > MAX_URL_LENGTH) {
    json(res, 200, { status: 'ERROR', reason: 'Hibás LNURL-cím.' });
    return;
  }
  try {
    const page = await fetchHead(target, PROXY_MAX_BYTES, PROXY_FETCH);
    const body: unknown = JSON.parse(page.body.toString('utf8'));
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new FetchError('not an object');
    json(res, 200, body);
  } catch (err) {
    const refused = err instanceof FetchError && /private|loopback|not allowed|refused/i.test(err.message);
    json(res, 200, { status: 'ERROR', reason: refused ? 'Ez az LNURL-szolgáltatás nem érhető el a szerverről.' : 'Az LNURL-szolgáltatás nem válaszolt érvényes adattal.' });
  }
}

export async function lnurlp(ctx: ServerContext, path: string, origin: string, res: ServerResponse, query: URLSearchParams): Promise<boolean> {
  if (path === LNURL_PROXY_PATH) {
    await lnurlProxy(res, query);
    return true;
  }
  if (path.startsWith('/.well-known/lnurlp/')) {
    const name = nameFrom(path.slice('/.well-known/lnurlp/'.length));
    if (!NAME.test(name) || !(await nameOwner(ctx, name))) {
      json(res, 404, { status: 'ERROR', reason: 'Ismeretlen villámcím.' });
      return true;
    }
    const { ZAPPER_PUBKEY } = await import('../demo/accounts.ts');
    const address = `${name}@${ctx.config.nip05Domain}`;
    json(res, 200, {
      tag: 'payRequest',
      callback: `${origin}${CALLBACK_PREFIX}${encodeURIComponent(name)}`,
      minSendable: MIN_SENDABLE_MSAT,
      maxSendable: MAX_SENDABLE_MSAT,
      metadata: payMetadata(address),
      commentAllowed: COMMENT_ALLOWED,
      allowsNostr: true,
      nostrPubkey: ZAPPER_PUBKEY,
    });
    return true;
  }
  if (path.startsWith(CALLBACK_PREFIX)) {
    // LUD-06 errors are HTTP 200 with status ERROR; wallets show the reason to the person paying.
    if (!ctx.config.demoLightning) {
      json(res, 200, { status: 'ERROR', reason: 'A demó hálózaton nem lehet valódi fizetést indítani: itt nincs lightning-kapcsolat.' });
      return true;
    }
    const name = nameFrom(path.slice(CALLBACK_PREFIX.length));
    const owner = NAME.test(name) ? await nameOwner(ctx, name) : undefined;
    if (!owner) {
      json(res, 200, { status: 'ERROR', reason: 'Ismeretlen villámcím.' });
      return true;
    }
    json(res, 200, await lnurlCallback(ctx, owner, `${name}@${ctx.config.nip05Domain}`, query));
    return true;
  }
  return false;
}
