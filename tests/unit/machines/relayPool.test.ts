import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { relayMachine, relayStateOf } from '../../../machines/relay.ts';
import { relayOf, relayPoolMachine, relaysFromEvent } from '../../../machines/relayPool.ts';
import { createFakeRelays, type FakeRelays } from '../helpers/fakeRelay.ts';

const A = 'wss://a.example';
const B = 'wss://b.example';
const C = 'wss://c.example';

function start(fake: FakeRelays) {
  const relay = relayMachine.provide({ actors: { socket: fake.logic } });
  const pool = createActor(relayPoolMachine.provide({ actors: { relay } }), { input: { now: () => 1_700_000_000 } });
  pool.start();
  const state = (url: string) => {
    const child = relayOf(pool.getSnapshot(), url);
    return child ? relayStateOf(child.getSnapshot()) : undefined;
  };
  const flags = (url: string) => {
    const ctx = relayOf(pool.getSnapshot(), url)?.getSnapshot().context;
    return ctx ? { read: ctx.read, write: ctx.write } : undefined;
  };
  return { pool, state, flags, urls: () => pool.getSnapshot().context.urls };
}

describe('relaysFromEvent (kind 10002)', () => {
  it('maps markers to flags: write turns read off, read turns write off, none keeps both', () => {
    const relays = relaysFromEvent({
      tags: [
        ['r', 'wss://both.example'],
        ['r', 'wss://w.example', 'write'],
        ['r', 'wss://r.example/', 'read'],
        ['r', 'ws://insecure.example'],
        ['r', 'not a url'],
        ['p', 'wss://ignored.example'],
        ['r', 'wss://w.example', 'read'],
      ],
    });
    expect(relays).toEqual([
      { url: 'wss://both.example', read: true, write: true },
      // Listed twice with both markers: both directions.
      { url: 'wss://w.example', read: true, write: true },
      { url: 'wss://r.example', read: true, write: false },
    ]);
  });
});

describe('relay pool machine', () => {
  let fake: FakeRelays;
  beforeEach(() => {
    vi.useFakeTimers();
    fake = createFakeRelays();
  });
  afterEach(() => vi.useRealTimers());

  it('adds valid relays once each and connects them; invalid ones are refused', () => {
    const { pool, state, urls } = start(fake);
    pool.send({ type: 'ADD', url: A });
    pool.send({ type: 'ADD', url: `${A}/` });
    pool.send({ type: 'ADD', url: 'http://x.example' });
    pool.send({ type: 'ADD', url: 'ws://remote.example' });
    expect(urls()).toEqual([A]);
    expect(state(A)).toBe('connecting');
    expect(fake.opened[A]).toBe(1);
  });

  it('removing a relay cuts its connection', () => {
    const { pool, urls } = start(fake);
    pool.send({ type: 'ADD', url: A });
    fake.open(A);
    pool.send({ type: 'REMOVE', url: A });
    expect(urls()).toEqual([]);
    expect(fake.alive(A)).toBe(false);
    expect(relayOf(pool.getSnapshot(), A)).toBeUndefined();
  });

  it('SET_RELAYS replaces the list, keeps the sockets of relays that stay and updates their flags', () => {
    const { pool, urls, flags } = start(fake);
    pool.send({ type: 'ADD', url: A });
    pool.send({ type: 'ADD', url: B });
    fake.open(A);
    pool.send({
      type: 'SET_RELAYS',
      relays: relaysFromEvent({ tags: [['r', A, 'read'], ['r', C, 'write']] }),
    });
    expect(urls()).toEqual([A, C]);
    expect(fake.opened[A]).toBe(1);
    expect(fake.alive(A)).toBe(true);
    expect(fake.alive(B)).toBe(false);
    expect(flags(A)).toEqual({ read: true, write: false });
    expect(flags(C)).toEqual({ read: false, write: true });
  });

  it('pool subscriptions reach every relay, including ones added later, and close everywhere', () => {
    const { pool } = start(fake);
    pool.send({ type: 'ADD', url: A });
    fake.open(A);
    pool.send({ type: 'SUBSCRIBE', subId: 's', filters: [{ kinds: [1] }] });
    pool.send({ type: 'ADD', url: B });
    fake.open(B);
    expect(fake.sent[A]).toEqual([['REQ', 's', { kinds: [1] }]]);
    expect(fake.sent[B]).toEqual([['REQ', 's', { kinds: [1] }]]);
    pool.send({ type: 'UNSUBSCRIBE', subId: 's' });
    expect(fake.sent[A].at(-1)).toEqual(['CLOSE', 's']);
    expect(fake.sent[B].at(-1)).toEqual(['CLOSE', 's']);
  });

  it('suspends for proxy or sleep and resumes only when no reason is left', () => {
    const { pool, state } = start(fake);
    pool.send({ type: 'ADD', url: A });
    fake.open(A);
    pool.send({ type: 'SUSPEND', reason: 'proxy' });
    expect(state(A)).toBe('suspended');
    pool.send({ type: 'SUSPEND', reason: 'sleep' });
    pool.send({ type: 'RESUME', reason: 'sleep' });
    expect(state(A)).toBe('suspended');
    // A relay added while suspended stays suspended.
    pool.send({ type: 'ADD', url: B });
    expect(state(B)).toBe('suspended');
    expect(fake.opened[B]).toBeUndefined();
    pool.send({ type: 'RESUME', reason: 'proxy' });
    expect(state(A)).toBe('connecting');
    expect(state(B)).toBe('connecting');
  });

  it('CONNECT_ALL reconnects only relays whose socket is closed', () => {
    const { pool, state } = start(fake);
    pool.send({ type: 'ADD', url: A });
    pool.send({ type: 'ADD', url: B });
    fake.open(A);
    for (let i = 0; i < 4; i++) {
      fake.close(B);
      vi.advanceTimersByTime(4000);
    }
    expect(state(B)).toBe('failed');
    pool.send({ type: 'CONNECT_ALL' });
    expect(fake.opened[A]).toBe(1);
    expect(fake.opened[B]).toBe(5);
    expect(state(B)).toBe('connecting');
  });
});
