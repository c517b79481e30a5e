/** A controllable stand-in for worker/socketActor.ts: tests play the server's side of the socket. */
import { fromCallback, type CallbackActorLogic } from 'xstate';
import type { SocketActorInput, SocketCommand, SocketFeedback } from '../../../machines/cacheSocket.ts';
import type { ServerMessage } from '../../../core/protocol.ts';

export interface FakeSocket {
  logic: CallbackActorLogic<SocketCommand, SocketActorInput>;
  /** Sockets created so far. */
  opened: number;
  /** Sockets torn down by the machine (stopped actors). */
  stopped: number;
  urls: string[];
  /** Frames that reached an open socket, in order. */
  sent: string[];
  /** When true, sends are refused as if the socket had just closed. */
  refuseSends: boolean;
  /** Called (in a microtask) with every frame that reached the socket: the test server. */
  onSend?: (data: string) => void;
  alive(): boolean;
  open(): void;
  close(): void;
  receive(...messages: ServerMessage[]): void;
}

export function createFakeSocket(): FakeSocket {
  let current: { sendBack: (e: SocketFeedback) => void; alive: boolean } | undefined;
  const fake: FakeSocket = {
    opened: 0,
    stopped: 0,
    urls: [],
    sent: [],
    refuseSends: false,
    logic: fromCallback<SocketCommand, SocketActorInput>(({ sendBack, receive, input }) => {
      const inst = { sendBack: (e: SocketFeedback) => sendBack(e), alive: true };
      current = inst;
      fake.opened += 1;
      fake.urls.push(input.url);
      receive((cmd) => {
        if (fake.refuseSends) inst.sendBack({ type: 'SOCKET.SEND_FAILED', data: cmd.data });
        else {
          fake.sent.push(cmd.data);
          if (fake.onSend) queueMicrotask(() => fake.onSend?.(cmd.data));
        }
      });
      return () => {
        inst.alive = false;
        fake.stopped += 1;
      };
    }),
    alive: () => current?.alive ?? false,
    open: () => current?.sendBack({ type: 'SOCKET.OPEN' }),
    close: () => current?.sendBack({ type: 'SOCKET.CLOSED' }),
    receive: (...messages) => current?.sendBack({ type: 'SOCKET.MESSAGES', messages }),
  };
  return fake;
}
