/**
 * Pieces of the demo lightning tests: a bare NIP-01 relay client (for the nostr-tools NIP-47
 * path, which only builds the request event), a BOLT-11 description-hash reader, and the signed
 * wallet command that hands out a connection URI.
 */
import { decode } from 'light-bolt11-decoder';
import { finalizeEvent, type VerifiedEvent } from 'nostr-tools/pure';
import WebSocket from 'ws';
import { CacheClient, content } from './cache-client.ts';

// NWCClient (a client written by others, like a browser wallet page) needs a global WebSocket, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

export class RelayClient {
  private readonly events = new Map<string, VerifiedEvent[]>();
  private readonly eosed = new Set<string>();
  private readonly oks = new Map<string, [boolean, string]>();
  private waiters: (() => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as unknown[];
      if (msg[0] === 'EVENT') this.events.set(String(msg[1]), [...(this.events.get(String(msg[1])) ?? []), msg[2] as VerifiedEvent]);
      if (msg[0] === 'EOSE') this.eosed.add(String(msg[1]));
      if (msg[0] === 'OK') this.oks.set(String(msg[1]), [msg[2] === true, String(msg[3])]);
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f();
    });
  }

  static async connect(url: string): Promise<RelayClient> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RelayClient(ws);
  }

  private async until<T>(get: () => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const v = get();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`no ${what} in time`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Subscribes and waits for EOSE, so nothing published afterwards can be missed. */
  async subscribe(subId: string, filter: Record<string, unknown>): Promise<void> {
    this.ws.send(JSON.stringify(['REQ', subId, filter]));
    await this.until(() => (this.eosed.has(subId) ? true : undefined), `EOSE for ${subId}`);
  }

  async publish(event: VerifiedEvent): Promise<[boolean, string]> {
    this.ws.send(JSON.stringify(['EVENT', event]));
    return this.until(() => this.oks.get(event.id), `OK for ${event.id}`);
  }

  next(subId: string): Promise<VerifiedEvent> {
    return this.until(() => this.events.get(subId)?.[0], `event on ${subId}`);
  }

  close(): void {
    this.ws.close();
  }
}

function section(invoice: string, name: string): string {
  const found = decode(invoice).sections.find((s) => (s.name as string) === name) as { value?: unknown } | undefined;
  return String(found?.value ?? '');
}

/** The invoice's description hash (tag h), hex. */
export const descriptionHashOf = (invoice: string) => section(invoice, 'description_hash');
export const paymentHashOf = (invoice: string) => section(invoice, 'payment_hash');

/** wallet nwc_connect, signed by the account: returns the connection URI. */
export async function nwcConnect(wallet: CacheClient, sk: Uint8Array, now: number, params: Record<string, unknown>): Promise<string> {
  const ev = finalizeEvent({ kind: 10000803, tags: [['d', 'Primal-Web App', 'nwc_connect']], content: JSON.stringify(['nwc_connect', params]), created_at: now }, sk);
  const r = await wallet.req(`c${Math.random()}`, 'wallet', { operation_event: ev });
  if (r.notices.length) throw new Error(r.notices.join('; '));
  return content<{ uri: string }>(r.events[0]).uri;
}
