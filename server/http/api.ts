/**
 * POST /api (S §7): `["command", {kwargs}]` runs a cache command through the same registry and
 * argument checks as the socket, and answers a JSON array of result objects or `{"error": msg}`.
 * Long-lived commands answer with one snapshot of what they would push.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Args, CommandError, isHex64 } from '../cache/args.ts';
import { ASYNC_COMMANDS } from '../cache/async.ts';
import type { CacheObject } from '../cache/data.ts';
import { MAX_FRAME_BYTES } from '../cache/framing.ts';
import { COMMANDS, commandEnv, type CommandEnv } from '../cache/registry.ts';
import type { ServerContext } from '../context.ts';
import { untrustedHeaders } from './untrusted.ts';

const BUDGET_MS = 10_000;

export const API_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
};

class Timeout extends Error {}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...API_CORS,
    // Answers carry other people's events: never a document of ours, even opened directly.
    ...untrustedHeaders('application/json'),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

/** Reads at most `max` bytes; null when the body is larger (the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        done = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

async function runCommand(name: string, kwargs: Record<string, unknown>, env: CommandEnv): Promise<CacheObject[]> {
  const command = COMMANDS.get(name);
  if (command) return command(new Args(kwargs), env);
  const asyncCommand = ASYNC_COMMANDS.get(name);
  if (!asyncCommand) throw new CommandError('unknown api request');
  const sub = await asyncCommand(new Args(kwargs), env);
  try {
    return await sub.poll();
  } finally {
    sub.dispose?.();
  }
}

function withBudget<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), BUDGET_MS);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

export async function postApi(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req, MAX_FRAME_BYTES);
  if (body === null) {
    res.setHeader('Connection', 'close');
    return json(res, 413, { error: 'request too big' });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return json(res, 400, { error: 'invalid JSON' });
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || parsed.length > 2) {
    return json(res, 400, { error: 'invalid request: expected ["command", {kwargs}]' });
  }
  const kwargs = parsed[1] ?? {};
  if (typeof kwargs !== 'object' || Array.isArray(kwargs)) return json(res, 400, { error: 'invalid request: kwargs must be an object' });
  const kw = kwargs as Record<string, unknown>;
  const env = commandEnv(ctx, {
    userPubkey: isHex64(kw.user_pubkey) ? kw.user_pubkey.toLowerCase() : undefined,
    localPort: req.socket.localPort,
  });
  try {
    json(res, 200, await withBudget(runCommand(parsed[0], kw, env)));
  } catch (err) {
    if (err instanceof CommandError) return json(res, 400, { error: err.message });
    if (err instanceof Timeout) return json(res, 503, { error: 'timeout' });
    if (ctx.config.verbose) console.error('POST /api hiba:', err);
    json(res, 500, { error: 'error' });
  }
}
