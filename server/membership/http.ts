/**
 * The membership service's HTTP side and lifecycle: the operator's demo payment endpoint, the
 * premium names for /.well-known/nostr.json, and starting and stopping rebroadcast jobs with
 * the server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from '../context.ts';
import { membershipConfig } from './config.ts';
import { payQuote, PaymentError, quoteFields } from './quotes.ts';
import { resumeRebroadcasts, stopRebroadcasts } from './rebroadcast.ts';
import { activeNameOwner, membershipOf, statusFields } from './store.ts';

export const PAY_QUOTE_PATH = '/api/demo/pay-quote';
const MAX_BODY = 4096;

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

/**
 * POST /api/demo/pay-quote {membership_quote_id}: stands in for the lightning payment this
 * server cannot receive. Enabled only with DEMO_PAYMENTS (see config.ts); otherwise 404, as if
 * the endpoint did not exist.
 */
async function payQuoteEndpoint(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!membershipConfig(ctx).demoPayments) return json(res, 404, { error: 'not found' });
  const body = await readBody(req);
  if (body === null) return json(res, 413, { error: 'A kérés túl nagy.' });
  let id: unknown;
  try {
    id = (JSON.parse(body) as { membership_quote_id?: unknown }).membership_quote_id;
  } catch {
    return json(res, 400, { error: 'A kérés törzse nem JSON.' });
  }
  if (typeof id !== 'string' || !id || id.length > 64) return json(res, 400, { error: 'Hiányzó membership_quote_id.' });
  try {
    const quote = await payQuote(ctx, id);
    const m = await membershipOf(ctx.db, quote.receiver, ctx.now());
    json(res, 200, { quote: quoteFields(quote), membership: await statusFields(ctx, m) });
  } catch (err) {
    if (err instanceof PaymentError) return json(res, err.status, { error: err.message });
    throw err;
  }
}

/** Answers the membership endpoints and returns true, or false to leave the request to others. */
export async function handleMembershipHttp(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  if (url.pathname !== PAY_QUOTE_PATH) return false;
  if (req.method !== 'POST') {
    json(res, 405, { error: 'method not allowed' });
    return true;
  }
  await payQuoteEndpoint(ctx, req, res);
  return true;
}

/** The pubkey whose active premium name is `name` on our NIP-05 domain. */
export function memberNip05(ctx: ServerContext, name: string): Promise<string | undefined> {
  return activeNameOwner(ctx.db, name, ctx.now());
}

/** Reads the configuration (a bad EXCHANGE_RATES stops the start) and resumes unfinished rebroadcasts. */
export function startMembership(ctx: ServerContext): void {
  membershipConfig(ctx);
}

/** The leading process only: a rebroadcast left running by a stopped process goes on here once. */
export async function startMembershipJobs(ctx: ServerContext): Promise<void> {
  await resumeRebroadcasts(ctx);
}

export async function stopMembership(ctx: ServerContext): Promise<void> {
  await stopRebroadcasts(ctx);
}
