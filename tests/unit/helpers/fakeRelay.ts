/** Controllable stand-ins for the relay socket actor: tests play each relay's side, per URL. */
import { fromCallback, type CallbackActorLogic } from 'xstate';
import type { SocketCommand } from '../../../machines/cacheSocket.ts';
import type { RelayMessage, RelaySocketFeedback, RelaySocketInput } from '../../../machines/relay.ts';

export interface FakeRelayConn {
  sendBack: (e: RelaySocketFeedback) => void;
  alive: boolean;
}

export interface FakeRelays {
  logic: CallbackActorLogic<SocketCommand, RelaySocketInput>;
  /** Sockets created per URL. */
  opened: Record<string, number>;
  /** Frames sent per URL, parsed. */
  sent: Record<string, unknown[][]>;
  /** Called with every frame that reached a relay socket. */
  onSend?: (url: string, frame: unknown[]) => void;
  alive(url: string): boolean;
  open(url: string): void;
  close(url: string): void;
  receive(url: string, message: RelayMessage): void;
}

export function createFakeRelays(): FakeRelays {
  const current = new Map<string, FakeRelayConn>();
  const fake: FakeRelays = {
    opened: {},
    sent: {},
    logic: fromCallback<SocketCommand, RelaySocketInput>(({ sendBack, receive, input }) => {
      const conn: FakeRelayConn = { sendBack: (e) => sendBack(e), alive: true };
      current.set(input.url, conn);
      fake.opened[input.url] = (fake.opened[input.url] ?? 0) + 1;
      receive((cmd) => {
        const frame = JSON.parse(cmd.data) as unknown[];
        (fake.sent[input.url] ??= []).push(frame);
        fake.onSend?.(input.url, frame);
      });
      return () => {
        conn.alive = false;
      };
    }),
    alive: (url) => current.get(url)?.alive ?? false,
    open: (url) => current.get(url)?.sendBack({ type: 'RELAY.OPEN' }),
    close: (url) => current.get(url)?.sendBack({ type: 'RELAY.CLOSED' }),
    receive: (url, message) => current.get(url)?.sendBack({ type: 'RELAY.MESSAGE', message }),
  };
  return fake;
}
