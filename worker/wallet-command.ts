/**
 * One signed request on the cache server's /wallet socket (protocol C.2 "Wallet"): the demo
 * wallet's nwc_connect and the wallet service's exchange_rate. Answers with the first event's
 * parsed content; a NOTICE, an empty answer or no answer in time is an Error. Also the wallet
 * socket address and the small retry the saved list's load uses.
 */
import type { NostrEvent } from '../core/types.ts';
import type { SocketFactory } from './nwc.ts';

const ANSWER_TIMEOUT_MS = 15_000;

/** The saved list is read a few times before it counts as unreadable (the cache socket may still be connecting). */
export async function withRetries<T>(run: () => Promise<T>, delaysMs = [1_000, 3_000]): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      if (attempt >= delaysMs.length) throw e;
      await new Promise((resolve) => setTimeout(resolve, delaysMs[attempt]));
    }
  }
}

export function walletSocketUrl(cacheServer: string): string {
  const url = new URL(cacheServer);
  url.pathname = '/wallet';
  url.search = '';
  return url.toString();
}

export function walletCommand(url: string, event: NostrEvent, socket?: SocketFactory): Promise<unknown> {
  const ws = (socket ?? ((u: string) => new WebSocket(u)))(url);
  const sub = `w${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => fail('timeout'), ANSWER_TIMEOUT_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      ws.close();
      reject(new Error(why));
    };
    ws.onopen = () => ws.send(JSON.stringify(['REQ', sub, { cache: ['wallet', { operation_event: event }] }]));
    ws.onerror = () => fail('failed');
    ws.onmessage = (m) => {
      let msg: unknown[];
      try {
        msg = JSON.parse(String(m.data)) as unknown[];
      } catch {
        return;
      }
      if (msg[1] !== sub) return;
      if (msg[0] === 'NOTICE') fail(String(msg[2]));
      if (msg[0] === 'EVENT') {
        try {
          const content: unknown = JSON.parse(String((msg[2] as { content?: string }).content));
          clearTimeout(timer);
          ws.close();
          resolve(content);
        } catch {
          // not the answer
        }
      }
      if (msg[0] === 'EOSE') fail('failed');
    };
  });
}
