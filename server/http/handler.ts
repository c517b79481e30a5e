import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from '../context.ts';
import { handleMembershipHttp, memberNip05 } from '../membership/http.ts';
import { handleMint } from '../mint/http.ts';
import { handleServices, initServices } from './services.ts';
import { createStaticServer } from './static.ts';
import { pushServiceOf } from '../push/service.ts';

export const APP_NAME = 'strucc';
export const APP_VERSION = '2.0.11';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

const NIP05_NAME = /^[a-z0-9._-]{1,64}$/;

/** NIP-05: pubkeys whose current profile claims name@nip05Domain. */
async function nostrJson(ctx: ServerContext, url: URL, res: ServerResponse): Promise<void> {
  const cors = { 'Access-Control-Allow-Origin': '*' };
  const name = (url.searchParams.get('name') ?? '').trim().toLowerCase();
  if (!NIP05_NAME.test(name)) return json(res, 200, { names: {} }, cors);
  // A premium name on our domain is the service's own record and wins over a profile's claim.
  const member = await memberNip05(ctx, name);
  if (member) return json(res, 200, { names: { [name]: member } }, cors);
  const domain = ctx.config.nip05Domain.toLowerCase();
  const wanted = new Set([`${name}@${domain}`, ...(name === '_' ? [domain] : [])]);
  // LIKE narrows the scan; the JSON check below decides (LIKE's _ is a wildcard, and content is free text).
  const rows = await ctx.db.all<{ pubkey: string; content: string }>(
    `SELECT e.pubkey, e.content FROM replaceable r JOIN events e ON e.id = r.event_id
     WHERE r.kind = 0 AND lower(e.content) LIKE ? ORDER BY e.created_at ASC`,
    [`%@${domain}%`],
  );
  for (const row of rows) {
    let nip05: unknown;
    try {
      nip05 = (JSON.parse(row.content) as { nip05?: unknown }).nip05;
    } catch {
      continue;
    }
    if (typeof nip05 === 'string' && wanted.has(nip05.trim().toLowerCase())) {
      return json(res, 200, { names: { [name]: row.pubkey } }, cors);
    }
  }
  json(res, 200, { names: {} }, cors);
}

async function status(ctx: ServerContext, res: ServerResponse): Promise<void> {
  const row = await ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events');
  json(res, 200, {
    cacheConnections: ctx.stats.cacheConnections,
    cacheConnectionsTotal: ctx.stats.cacheConnectionsTotal,
    relayConnections: ctx.stats.relayConnections,
    relayConnectionsTotal: ctx.stats.relayConnectionsTotal,
    asyncSubscriptions: ctx.stats.asyncSubscriptions,
    events: Number(row?.n ?? 0),
    // Several processes on one PostgreSQL: which one runs the periodic jobs.
    leader: ctx.cluster?.isLeader() ?? false,
    processId: ctx.cluster?.processId ?? '',
    // Resident memory, so load and fuzz runs can see the server's footprint from outside.
    rssBytes: process.memoryUsage().rss,
  });
}

/** NIP-11 document, asked for with Accept: application/nostr+json on the relay URL. */
function relayInfo(res: ServerResponse): void {
  json(
    res,
    200,
    {
      name: 'Strucc',
      description: 'A Strucc gyorsítótár-szerver relé felülete',
      software: 'strucc',
      version: APP_VERSION,
      supported_nips: [1, 9, 11, 17, 42, 45, 59],
      limitation: { max_message_length: 512 * 1024, max_subscriptions: 200, max_limit: 1000, default_limit: 500 },
    },
    { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/nostr+json' },
  );
}

/** Counts the body bytes actually sent (compressed, when gzip was used) and prints them once the response is done. */
function logAccess(req: IncomingMessage, res: ServerResponse): void {
  let bytes = 0;
  const count = (chunk: unknown) => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => (count(chunk), write(chunk, ...rest))) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') count(chunk);
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
  res.once('finish', () => console.log(`ACCESS ${req.method} ${req.url} ${res.statusCode} ${bytes}`));
}

/** The one HTTP handler: API and NIP-05/media endpoints first, then the built client. */
export function createHttpHandler(ctx: ServerContext): Handler {
  const statics = createStaticServer(ctx.config.distDir);
  initServices(ctx);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // The demo Cashu mint (server/mint): v1 under /mint/v1, the spec's legacy API under /mint.
    if (ctx.config.mint && (await handleMint(ctx, req, res, url))) return;
    // Media cache, link previews, Blossom, POST /api and LNURL-pay (server/http/services.ts).
    if (await handleServices(ctx, req, res, url)) return;
    // The operator's demo payment endpoint (POST /api/demo/pay-quote).
    if (await handleMembershipHttp(ctx, req, res, url)) return;
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
        'Access-Control-Allow-Headers': '*',
      });
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      if (path.startsWith('/api/')) return json(res, 405, { error: 'method not allowed' });
      return text(res, 405, 'Nem támogatott metódus');
    }
    if (path === '/.well-known/nostr.json') return nostrJson(ctx, url, res);
    if (path === '/api/status') return status(ctx, res);
    if (path === '/api/info') {
      return json(res, 200, {
        name: APP_NAME,
        version: APP_VERSION,
        nip05Domain: ctx.config.nip05Domain,
        mediaDomain: ctx.config.mediaDomain,
        // The client offers the demo wallet connection (wallet nwc_connect) only when this is true.
        demoLightning: !!ctx.config.demoLightning,
        // The ecash wallet offers this server's mint (/mint) when it runs one.
        mint: !!ctx.config.mint,
        // The key browsers subscribe to Web Push with (push_subscribe).
        vapidPublicKey: pushServiceOf(ctx)?.keys.publicKey ?? '',
      });
    }
    if (path === '/api' || path.startsWith('/api/')) return json(res, 404, { error: 'not found' });
    if (path === '/relay' && String(req.headers.accept ?? '').includes('application/nostr+json')) return relayInfo(res);
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return text(res, 400, 'Hibás URL');
    }
    if (decoded.includes('\0')) return text(res, 400, 'Hibás URL');
    statics.serve(req, res, decoded);
  }

  return (req, res) => {
    if (ctx.config.accessLog) logAccess(req, res);
    route(req, res).catch((err: unknown) => {
      if (ctx.config.verbose) console.error('HTTP hiba:', err);
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  };
}
