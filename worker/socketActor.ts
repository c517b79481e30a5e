/** The real WebSocket behind machines/cacheSocket.ts, as the callback actor it is provided with. */
import { fromCallback } from 'xstate';
import type { SocketActorInput, SocketCommand, SocketFeedback } from '../machines/cacheSocket.ts';
import { parseFrame } from '../core/protocol.ts';

const ignoreError = (): void => {};

export const webSocketActor = fromCallback<SocketCommand, SocketActorInput>(({ input, sendBack, receive }) => {
  const report = (ev: SocketFeedback) => sendBack(ev);
  let ws: WebSocket;
  try {
    ws = new WebSocket(input.url);
  } catch (err) {
    // A malformed URL throws synchronously; treat it like a refused connection so the machine's
    // reconnect policy applies instead of the actor crashing the machine.
    if (input.devMode) console.warn('[strucc] cache socket could not be created', err);
    const timer = setTimeout(() => report({ type: 'SOCKET.CLOSED' }), 0);
    return () => clearTimeout(timer);
  }
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => report({ type: 'SOCKET.OPEN' });
  ws.onclose = () => report({ type: 'SOCKET.CLOSED' });
  ws.onerror = (err) => {
    if (input.devMode) console.warn('[strucc] cache socket error', err);
  };
  // Binary frames inflate asynchronously; one chain keeps every frame's messages in arrival order.
  let stopped = false;
  let decoded: Promise<void> = Promise.resolve();
  ws.onmessage = (e: MessageEvent) => {
    const data: unknown = e.data;
    decoded = decoded.then(async () => {
      const messages = await parseFrame(data, input.devMode);
      if (!stopped && messages.length > 0) report({ type: 'SOCKET.MESSAGES', messages });
    });
  };
  receive((cmd) => {
    if (cmd.type !== 'SOCKET.SEND') return;
    if (ws.readyState === WebSocket.OPEN) ws.send(cmd.data);
    else report({ type: 'SOCKET.SEND_FAILED', data: cmd.data });
  });
  return () => {
    stopped = true;
    ws.onopen = ws.onclose = ws.onmessage = null;
    // Closing a socket that is still connecting makes Node's ws emit 'error'; without a listener that error is thrown.
    ws.onerror = ignoreError;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close();
  };
});
