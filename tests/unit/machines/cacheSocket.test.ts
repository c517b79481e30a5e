import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { cacheSocketMachine, socketStateOf } from '../../../machines/cacheSocket.ts';
import { encodeHandshake, type ServerMessage } from '../../../core/protocol.ts';
import { createFakeSocket, type FakeSocket } from '../helpers/fakeSocket.ts';

const URL = 'ws://127.0.0.1:9/v1';
const APP = 'testapp';
const HANDSHAKE_EOSE: ServerMessage = { type: 'EOSE', subid: `set_protocol_${APP}` };

function start(fake: FakeSocket, noBinary = false) {
  const actor = createActor(cacheSocketMachine.provide({ actors: { socket: fake.logic } }), {
    input: { url: '', appId: APP, noBinary },
  });
  const forwarded: ServerMessage[] = [];
  actor.on('messages', (e) => forwarded.push(...e.messages));
  actor.start();
  const state = () => socketStateOf(actor.getSnapshot());
  const ctx = () => actor.getSnapshot().context;
  return { actor, forwarded, state, ctx };
}

describe('cache socket machine', () => {
  let fake: FakeSocket;
  beforeEach(() => {
    vi.useFakeTimers();
    fake = createFakeSocket();
  });
  afterEach(() => vi.useRealTimers());

  it('opens the socket on CONNECT and handshakes zlib before counting as connected', () => {
    const { actor, state, ctx } = start(fake);
    expect(state()).toBe('idle');
    actor.send({ type: 'CONNECT', url: URL });
    expect(state()).toBe('connecting');
    expect(fake.urls).toEqual([URL]);
    expect(ctx().shouldReconnect).toBe(true);
    expect(ctx().connected).toBe(false);

    fake.open();
    expect(state()).toBe('handshaking');
    expect(fake.sent).toEqual([encodeHandshake(APP)]);
    expect(JSON.parse(fake.sent[0])).toEqual([
      'REQ',
      `set_protocol_${APP}`,
      { cache: ['set_primal_protocol', { compression: 'zlib' }] },
    ]);
    expect(ctx().connected).toBe(false);

    fake.receive({ type: 'EOSE', subid: 'something_else' });
    expect(state()).toBe('handshaking');
    fake.receive(HANDSHAKE_EOSE);
    expect(state()).toBe('connected');
    expect(ctx().connected).toBe(true);
  });

  it('with noBinary skips the handshake and is connected on open', () => {
    const { actor, state, ctx } = start(fake, true);
    actor.send({ type: 'CONNECT', url: URL });
    fake.open();
    expect(state()).toBe('connected');
    expect(ctx().connected).toBe(true);
    expect(fake.sent).toEqual([]);
  });

  it('CONNECT can switch noBinary on for this connection', () => {
    const { actor, state } = start(fake);
    actor.send({ type: 'CONNECT', url: URL, noBinary: true });
    fake.open();
    expect(state()).toBe('connected');
  });

  it('reconnects 200 ms after an unintended close', () => {
    const { actor, state, ctx } = start(fake);
    actor.send({ type: 'CONNECT', url: URL });
    fake.open();
    fake.receive(HANDSHAKE_EOSE);
    fake.close();
    expect(state()).toBe('waiting');
    expect(ctx().connected).toBe(false);
    expect(ctx().shouldReconnect).toBe(true);
    vi.advanceTimersByTime(199);
    expect(fake.opened).toBe(1);
    vi.advanceTimersByTime(1);
    expect(state()).toBe('connecting');
    expect(fake.opened).toBe(2);
    expect(fake.urls[1]).toBe(URL);
  });

  it('reconnects after a socket that never opened (server down), every 200 ms', () => {
    const { actor } = start(fake);
    actor.send({ type: 'CONNECT', url: URL });
    fake.close();
    vi.advanceTimersByTime(200);
    fake.close();
    vi.advanceTimersByTime(200);
    expect(fake.opened).toBe(3);
  });

  it('a close during the handshake also reconnects', () => {
    const { actor, state } = start(fake);
    actor.send({ type: 'CONNECT', url: URL });
    fake.open();
    fake.close();
    expect(state()).toBe('waiting');
    vi.advanceTimersByTime(200);
    expect(state()).toBe('connecting');
  });

  it('DISCONNECT closes on purpose: shouldReconnect false and no reconnect', () => {
    const { actor, state, ctx } = start(fake);
    actor.send({ type: 'CONNECT', url: URL });
    fake.open();
    fake.receive(HANDSHAKE_EOSE);
    actor.send({ type: 'DISCONNECT' });
    expect(state()).toBe('closed');
    expect(ctx().shouldReconnect).toBe(false);
    expect(ctx().connected).toBe(false);
    expect(fake.stopped).toBe(1);
    expect(fake.alive()).toBe(false);
    // A late close report from the torn-down socket must not revive it.
    fake.close();
    vi.advanceTimersByTime(10_000);
    expect(fake.opened).toBe(1);
    expect(state()).toBe('closed');
  });

  it('DISCONNECT while waiting to reconnect cancels the reconnect', () => {
    const { actor, state } = start(fake);
    actor.send({ type: 'CONNECT', url: URL });
    fake.close();
    actor.send({ type: 'DISCONNECT' });
    vi.advanceTimersByTime(1000);
    expect(state()).toBe('closed');
    expect(fake.opened).toBe(1);
  });

  it('CONNECT after a purposeful close opens again', () => {
    const { actor, state, ctx } = start(fake);
    actor.send({ type: 'CONNECT', url: URL });
    actor.send({ type: 'DISCONNECT' });
    actor.send({ type: 'CONNECT' });
    expect(state()).toBe('connecting');
    expect(ctx().shouldReconnect).toBe(true);
    expect(fake.opened).toBe(2);
  });

  it('RESET disconnects, then reconnects after 1 s', () => {
    const { actor, state, ctx } = start(fake);
    actor.send({ type: 'CONNECT', url: URL });
    fake.open();
    fake.receive(HANDSHAKE_EOSE);
    actor.send({ type: 'RESET' });
    expect(state()).toBe('resetting');
    expect(fake.alive()).toBe(false);
    expect(ctx().connected).toBe(false);
    vi.advanceTimersByTime(999);
    expect(fake.opened).toBe(1);
    vi.advanceTimersByTime(1);
    expect(state()).toBe('connecting');
    expect(fake.opened).toBe(2);
  });

  it('queues SEND while not connected and delivers it, in order, once connected', () => {
    const { actor, ctx } = start(fake);
    actor.send({ type: 'SEND', data: 'one' });
    actor.send({ type: 'CONNECT', url: URL });
    actor.send({ type: 'SEND', data: 'two' });
    vi.advanceTimersByTime(500);
    expect(fake.sent).toEqual([]);
    expect(ctx().queue).toEqual(['one', 'two']);
    fake.open();
    actor.send({ type: 'SEND', data: 'three' });
    // The handshake goes first; requests wait for its acknowledgement.
    expect(fake.sent).toEqual([encodeHandshake(APP)]);
    fake.receive(HANDSHAKE_EOSE);
    expect(fake.sent).toEqual([encodeHandshake(APP), 'one', 'two', 'three']);
    expect(ctx().queue).toEqual([]);
    actor.send({ type: 'SEND', data: 'four' });
    expect(fake.sent.at(-1)).toBe('four');
  });

  it('retries a refused send every 100 ms until it is sent', () => {
    const { actor, ctx } = start(fake, true);
    actor.send({ type: 'CONNECT', url: URL });
    fake.open();
    fake.refuseSends = true;
    actor.send({ type: 'SEND', data: 'x' });
    expect(ctx().queue).toEqual(['x']);
    vi.advanceTimersByTime(100);
    expect(ctx().queue).toEqual(['x']);
    expect(fake.sent).toEqual([]);
    fake.refuseSends = false;
    vi.advanceTimersByTime(99);
    expect(fake.sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fake.sent).toEqual(['x']);
    expect(ctx().queue).toEqual([]);
  });

  it('keeps retrying every 100 ms while disconnected without sending', () => {
    const { actor, ctx } = start(fake);
    actor.send({ type: 'SEND', data: 'q' });
    vi.advanceTimersByTime(1000);
    expect(ctx().queue).toEqual(['q']);
    expect(actor.getSnapshot().matches({ outbox: 'pending' })).toBe(true);
  });

  it('forwards incoming frames to the router, including during the handshake', () => {
    const { actor, forwarded } = start(fake);
    actor.send({ type: 'CONNECT', url: URL });
    fake.open();
    const ev: ServerMessage = { type: 'EVENT', subid: 's1', event: { kind: 1 } };
    fake.receive(ev);
    fake.receive(HANDSHAKE_EOSE);
    const notice: ServerMessage = { type: 'NOTICE', subid: 's2', message: 'unknown api request' };
    fake.receive(notice, { type: 'EOSE', subid: 's2' });
    expect(forwarded).toEqual([ev, HANDSHAKE_EOSE, notice, { type: 'EOSE', subid: 's2' }]);
  });
});
