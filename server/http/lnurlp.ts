/**
 * LNURL-pay (LUD-06/16) for lightning addresses on the NIP-05 domain. The metadata names the
 * demo zapper as nostrPubkey, so a client can check zap receipts against it (S §4.2); there is
 * no lightning on the demo network, so the callback always answers with a clear error.
 */
import type { ServerResponse } from 'node:http';
import type { ServerContext } from '../context.ts';
import { memberNip05 } from '../membership/http.ts';

const NAME = /^[a-z0-9._-]{1,64}$/;
const CALLBACK_PREFIX = '/lnurlp/callback/';

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

/** True when a current profile gives name@domain as its lightning address (lud16) or NIP-05 name. */
async function nameExists(ctx: ServerContext, name: string): Promise<boolean> {
  // A premium member's name is their lightning address too (membership_status lightning_address).
  if (await memberNip05(ctx, name)) return true;
  const domain = ctx.config.nip05Domain.toLowerCase();
  const wanted = `${name}@${domain}`;
  // LIKE narrows the scan; the JSON check below decides.
  const rows = await ctx.db.all<{ content: string }>(
    `SELECT e.content FROM replaceable r JOIN events e ON e.id = r.event_id WHERE r.kind = 0 AND lower(e.content) LIKE ? LIMIT 50`,
    [`%${wanted}%`],
  );
  for (const row of rows) {
    try {
      const meta = JSON.parse(row.content) as Record<string, unknown>;
      for (const key of ['lud16', 'nip05']) {
        const v = meta[key];
        if (typeof v === 'string' && v.trim().toLowerCase() === wanted) return true;
      }
    } catch {
      // A broken profile names nobody.
    }
  }
  return false;
}

export async function lnurlp(ctx: ServerContext, path: string, origin: string, res: ServerResponse): Promise<boolean> {
  if (path.startsWith('/.well-known/lnurlp/')) {
    let name = '';
    try {
      name = decodeURIComponent(path.slice('/.well-known/lnurlp/'.length)).toLowerCase();
    } catch {
      // Broken percent-encoding is simply an unknown name.
    }
    if (!NAME.test(name) || !(await nameExists(ctx, name))) {
      json(res, 404, { status: 'ERROR', reason: 'Ismeretlen villámcím.' });
      return true;
    }
    const { ZAPPER_PUBKEY } = await import('../demo/accounts.ts');
    const address = `${name}@${ctx.config.nip05Domain}`;
    json(res, 200, {
      tag: 'payRequest',
      callback: `${origin}${CALLBACK_PREFIX}${encodeURIComponent(name)}`,
      minSendable: 1000,
      maxSendable: 100_000_000_000,
      metadata: JSON.stringify([
        ['text/plain', `Zap ${address} részére`],
        ['text/identifier', address],
      ]),
      commentAllowed: 280,
      allowsNostr: true,
      nostrPubkey: ZAPPER_PUBKEY,
    });
    return true;
  }
  if (path.startsWith(CALLBACK_PREFIX)) {
    // LUD-06 errors are HTTP 200 with status ERROR; wallets show the reason to the person paying.
    json(res, 200, { status: 'ERROR', reason: 'A demó hálózaton nem lehet valódi fizetést indítani: itt nincs lightning-kapcsolat.' });
    return true;
  }
  return false;
}
