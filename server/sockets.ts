/**
 * What every websocket endpoint (/v1, /relay, /wallet, /upload) shares so that no client can
 * hold the server's resources: a cap on open sockets per remote address, a ping/pong heartbeat
 * that closes sockets nothing was heard from, and closing a socket whose client stopped reading
 * (its unsent output would otherwise grow in our memory without bound).
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ServerLimits } from './context.ts';

interface Watched {
  lastHeard: number;
}

/** Per socket: the output limit checked after each send (see overBuffered). */
const bufferLimits = new WeakMap<WebSocket, number>();

/**
 * Closes the socket when its unsent output passes the server's limit; true when it did. Senders
 * call it after writing, so a client that never reads is cut off before its replies pile up.
 */
export function overBuffered(ws: WebSocket): boolean {
  const limit = bufferLimits.get(ws);
  if (limit === undefined || ws.bufferedAmount <= limit) return false;
  ws.terminate();
  return true;
}

export class SocketSupervisor {
  private readonly perAddress = new Map<string, number>();
  private readonly watched = new Map<WebSocket, Watched>();
  private readonly timer: NodeJS.Timeout | null;

  constructor(private readonly limits: ServerLimits) {
    this.timer = limits.heartbeatMs > 0 ? setInterval(() => this.tick(), limits.heartbeatMs) : null;
    this.timer?.unref();
  }

  /**
   * Counts a new connection against its address before the websocket handshake; false (and the
   * socket answered with 429) when the address already holds the maximum.
   */
  admit(socket: Duplex & { remoteAddress?: string }): boolean {
    const address = socket.remoteAddress ?? '';
    const open = this.perAddress.get(address) ?? 0;
    if (this.limits.maxConnectionsPerIp > 0 && open >= this.limits.maxConnectionsPerIp) {
      if (socket.writable) socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
      return false;
    }
    this.perAddress.set(address, open + 1);
    socket.once('close', () => {
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left <= 0) this.perAddress.delete(address);
      else this.perAddress.set(address, left);
    });
    return true;
  }

  /** Starts watching an upgraded socket: heartbeat, idle timeout and output limit. */
  watch(ws: WebSocket): void {
    const state: Watched = { lastHeard: Date.now() };
    this.watched.set(ws, state);
    bufferLimits.set(ws, this.limits.maxBufferedBytes);
    const heard = () => {
      state.lastHeard = Date.now();
    };
    ws.on('pong', heard);
    ws.on('message', heard);
    ws.once('close', () => this.watched.delete(ws));
  }

  private tick(): void {
    const now = Date.now();
    for (const [ws, state] of this.watched) {
      if (now - state.lastHeard > this.limits.idleTimeoutMs) {
        this.watched.delete(ws);
        ws.terminate();
        continue;
      }
      if (overBuffered(ws)) {
        this.watched.delete(ws);
        continue;
      }
      if (ws.readyState === ws.OPEN) {
        try {
          ws.ping();
        } catch {
          // Closed between the check and the ping; 'close' removes it.
        }
      }
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.watched.clear();
  }
}
