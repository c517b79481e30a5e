/**
 * Outbound HTTP for link previews and the media cache: http(s) only, a bounded number of
 * redirects, one deadline for the whole exchange, and a byte cap, so a hostile or slow page
 * can cost neither unbounded time nor unbounded memory.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { assertPublicHost, guardedLookup } from './guard.ts';

export class FetchError extends Error {}

export interface FetchOptions {
  timeoutMs: number;
  maxRedirects: number;
  accept: string;
}

interface Opened {
  res: IncomingMessage;
  finalUrl: string;
  /** Ends the exchange (response stream and deadline); safe to call twice. */
  done(): void;
  /** Resolves when the deadline passes before done(). */
  signal: AbortSignal;
}

const USER_AGENT = 'Mozilla/5.0 (compatible; StruccBot/1.0; +https://strucc.test)';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function parseHttpUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new FetchError('invalid url');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new FetchError('only http and https urls can be fetched');
  const refused = assertPublicHost(u.hostname);
  if (refused) throw new FetchError(refused);
  return u;
}

/** GETs `raw`, following redirects, and hands back the final 2xx response still unread. */
async function open(raw: string, opts: FetchOptions): Promise<Opened> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  let current: IncomingMessage | null = null;
  const done = () => {
    clearTimeout(timer);
    current?.destroy();
  };
  try {
    let url = parseHttpUrl(raw);
    for (let hop = 0; ; hop++) {
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
          url,
          { method: 'GET', signal: controller.signal, lookup: guardedLookup, headers: { 'User-Agent': USER_AGENT, Accept: opts.accept, 'Accept-Encoding': 'identity' } },
          resolve,
        );
        req.on('error', (err) => reject(controller.signal.aborted ? new FetchError('timeout') : err));
        req.end();
      });
      current = res;
      res.on('error', () => {
        // Reported to the reader through 'aborted' / a short body; only kept from crashing here.
      });
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        res.resume();
        const location = res.headers.location;
        if (!location) throw new FetchError('redirect without location');
        if (hop >= opts.maxRedirects) throw new FetchError('too many redirects');
        url = parseHttpUrl(new URL(location, url).href);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new FetchError(`http status ${status}`);
      }
      return { res, finalUrl: url.href, done, signal: controller.signal };
    }
  } catch (err) {
    done();
    if (err instanceof FetchError) throw err;
    throw new FetchError(controller.signal.aborted ? 'timeout' : `fetch failed: ${(err as Error).message}`);
  }
}

export interface FetchedText {
  finalUrl: string;
  contentType: string;
  body: Buffer;
}

/** Reads at most `maxBytes` of the body; a longer page is cut there (a preview only needs its head). */
export async function fetchHead(raw: string, maxBytes: number, opts: FetchOptions): Promise<FetchedText> {
  const { res, finalUrl, done, signal } = await open(raw, opts);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new FetchError('timeout'));
      signal.addEventListener('abort', onAbort, { once: true });
      res.on('data', (chunk: Buffer) => {
        const room = maxBytes - size;
        if (room <= 0) return;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        size += Math.min(chunk.length, room);
        if (size >= maxBytes) {
          res.destroy();
          resolve();
        }
      });
      res.on('end', () => resolve());
      res.on('close', () => resolve());
    });
  } finally {
    done();
  }
  return { finalUrl, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) };
}

export interface Downloaded {
  contentType: string;
  size: number;
  sha256: string;
}

/** Streams the body into `file`, hashing it; refuses bodies over `maxBytes` and removes the partial file on any failure. */
export async function downloadToFile(raw: string, file: string, maxBytes: number, opts: FetchOptions): Promise<Downloaded> {
  const { res, done, signal } = await open(raw, opts);
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    done();
    throw new FetchError('too big');
  }
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  let size = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => {
        res.destroy();
        reject(err);
      };
      signal.addEventListener('abort', () => fail(new FetchError('timeout')), { once: true });
      out.on('error', fail);
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail(new FetchError('too big'));
        hash.update(chunk);
        // Honour backpressure: a fast origin must not fill memory faster than the disk drains it.
        if (!out.write(chunk)) {
          res.pause();
          out.once('drain', () => res.resume());
        }
      });
      let ended = false;
      res.on('end', () => {
        ended = true;
        out.end(() => resolve());
      });
      // A connection cut before the end of the body leaves a truncated file, never a stored one.
      res.on('close', () => {
        if (!ended) fail(new FetchError('connection lost'));
      });
    });
  } catch (err) {
    out.destroy();
    await rm(file, { force: true });
    throw err;
  } finally {
    done();
  }
  return { contentType: String(res.headers['content-type'] ?? ''), size, sha256: hash.digest('hex') };
}
