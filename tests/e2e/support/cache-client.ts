/** Asks the server's cache socket (/v1) directly, so tests know what the screens must show. */
import WebSocket from 'ws';
import { wsUrl } from './base.ts';

export interface CacheObject {
  kind: number;
  content?: string;
  [key: string]: unknown;
}

/** The cache socket of `server` (the run's seeded server unless a test names another). */
const cacheUrl = (server?: string) => (server ? `${server.replace(/^http/, 'ws')}/v1` : wsUrl('/v1'));

/** One request, answered at EOSE (a NOTICE rejects); T narrows the objects for the caller. */
export function cacheRequest<T extends object = CacheObject>(command: string, payload?: Record<string, unknown>, server?: string): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(cacheUrl(server));
    const out: T[] = [];
    const timer = setTimeout(() => (ws.close(), reject(new Error(`${command}: no answer`))), 15_000);
    ws.on('open', () => ws.send(JSON.stringify(['REQ', 'q', { cache: payload ? [command, payload] : [command] }])));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as unknown[];
      if (msg[0] === 'EVENT') out.push(msg[2] as T);
      else if (msg[0] === 'EOSE' || msg[0] === 'NOTICE') {
        clearTimeout(timer);
        ws.close();
        if (msg[0] === 'NOTICE') reject(new Error(String(msg[2])));
        else resolve(out);
      }
    });
    ws.on('error', reject);
  });
}

/** The first object a long-lived subscription pushes that passes `accept`. */
export function firstPushed(command: string, payload: Record<string, unknown>, accept: (o: CacheObject) => boolean): Promise<CacheObject> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(cacheUrl());
    const timer = setTimeout(() => (ws.close(), reject(new Error(`${command}: nothing pushed`))), 15_000);
    ws.on('open', () => ws.send(JSON.stringify(['REQ', 'sub', { cache: [command, payload] }])));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as unknown[];
      if (msg[0] !== 'EVENT') return;
      const o = msg[2] as CacheObject;
      if (!accept(o)) return;
      clearTimeout(timer);
      ws.send(JSON.stringify(['CLOSE', 'sub']));
      ws.close();
      resolve(o);
    });
    ws.on('error', reject);
  });
}
