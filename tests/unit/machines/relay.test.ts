import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { checkRelayUrl, parseRelayFrame, relayMachine, relayStateOf, type RelayMessage } from '../../../machines/relay.ts';
import type { NostrEvent } from '../../../core/types.ts';
import { createFakeRelays, type FakeRelays } from '../helpers/fakeRelay.ts';

const URL = 'wss://relay.example';

function start(fake: FakeRelays, input: { read?: boolean; write?: boolean } = {}) {
  let clock = 1_700_000_000;
  const actor = createActor(relayMachine.provide({ actors: { socket: fake.logic } }), {
    input: { url: URL, now: () => clock, ...input },
  });
  const emitted: RelayMessage[] = [];
  actor.on('message', (e) => emitted.push(e.message));
  actor.start();
  return {
    actor,
    emitted,
    state: () => relayStateOf(actor.getSnapshot()),
    ctx: () => actor.getSnapshot().context,
    setClock: (t: number) => {
      clock = t;
    },
    sent: () => fake.sent[URL] ?? [],
  };
}

describe('relay URL validation', () => {
  it('accepts wss:// and normalises it', () => {
    expect(checkRelayUrl('wss://Relay.Example/')).toEqual({ ok: true, url: 'wss://relay.example' });
    expect(checkRelayUrl(' wss://relay.example/path ')).toEqual({ ok: true, url: 'wss://relay.example/path' });
  });

  it('refuses ws:// for configured relays but accepts it as a hint and on loopback', () => {
    expect(checkRelayUrl('ws://relay.example')).toEqual({ ok: false, error: 'Érvénytelen URL' });
    expect(checkRelayUrl('ws://relay.example', { hint: true })).toEqual({ ok: true, url: 'ws://relay.example' });
    expect(checkRelayUrl('ws://127.0.0.1:7777/relay')).toEqual({ ok: true, url: 'ws://127.0.0.1:7777/relay' });
    expect(checkRelayUrl('ws://localhost:7777')).toEqual({ ok: true, url: 'ws://localhost:7777' });
  });

  it('refuses anything else with Érvénytelen URL', () => {
    for (const bad of ['https://relay.example', 'relay.example', '', 'wss://', 'wss://user:pw@relay.example', 'javascript:alert(1)']) {
      expect(checkRelayUrl(bad)).toEqual({ ok: false, error: 'Érvénytelen URL' });
    }
  });
});

describe('relay frames', () => {
  it('parses the NIP-01 relay messages and drops the rest', () => {
    expect(parseRelayFrame('["EOSE","s"]')).toEqual({ type: 'EOSE', subId: 's' });
    expect(parseRelayFrame('["OK","id",false,"blocked: no"]')).toEqual({ type: 'OK', id: 'id', ok: false, message: 'blocked: no' });
    expect(parseRelayFrame('["OK","id",true]')).toEqual({ type: 'OK', id: 'id', ok: true, message: '' });
    expect(parseRelayFrame('["CLOSED","s","error: x"]')).toEqual({ type: 'CLOSED', subId: 's', message: 'error: x' });
    expect(parseRelayFrame('["NOTICE","hi"]')).toEqual({ type: 'NOTICE', message: 'hi' });
    expect(parseRelayFrame('["EVENT","s",{"id":"x"}]')).toEqual({ type: 'EVENT', subId: 's', event: { id: 'x' } });
    expect(parseRelayFrame('["EVENT","s",null]')).toBeUndefined();
    expect(parseRelayFrame('not json')).toBeUndefined();
    expect(parseRelayFrame('{"a":1}')).toBeUndefined();
    expect(parseRelayFrame('["AUTH","challenge"]')).toEqual({ type: 'AUTH', challenge: 'challenge' });
    expect(parseRelayFrame('["AUTH",{"id":"x"}]')).toBeUndefined();
  });
});

describe('relay machine', () => {
  let fake: FakeRelays;
  beforeEach(() => {
    vi.useFakeTimers();
    fake = createFakeRelays();
  });
  afterEach(() => vi.useRealTimers());

  it('idle → connecting → connected, read and write on by default', () => {
    const { actor, state, ctx } = start(fake);
    expect(state()).toBe('idle');
    expect(ctx()).toMatchObject({ read: true, write: true, attempts: 0, connected: false });
    actor.send({ type: 'CONNECT' });
    expect(state()).toBe('connecting');
    expect(fake.opened[URL]).toBe(1);
    fake.open(URL);
    expect(state()).toBe('connected');
    expect(ctx().connected).toBe(true);
  });

  it('reconnects 3 times after 1, 2 and 4 s, then fails with Reached atempt limit', () => {
    const { actor, state, ctx } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.close(URL);
    expect(state()).toBe('waiting');
    vi.advanceTimersByTime(999);
    expect(fake.opened[URL]).toBe(1);
    vi.advanceTimersByTime(1);
    expect(fake.opened[URL]).toBe(2);
    expect(ctx().attempts).toBe(1);

    fake.close(URL);
    vi.advanceTimersByTime(1999);
    expect(fake.opened[URL]).toBe(2);
    vi.advanceTimersByTime(1);
    expect(fake.opened[URL]).toBe(3);
    expect(ctx().attempts).toBe(2);

    fake.close(URL);
    vi.advanceTimersByTime(3999);
    expect(fake.opened[URL]).toBe(3);
    vi.advanceTimersByTime(1);
    expect(fake.opened[URL]).toBe(4);
    expect(ctx().attempts).toBe(3);

    fake.close(URL);
    expect(state()).toBe('failed');
    expect(ctx().error).toBe('Reached atempt limit');
    vi.advanceTimersByTime(60_000);
    expect(fake.opened[URL]).toBe(4);
  });

  it('a failed relay reconnects on CONNECT with a fresh attempt count', () => {
    const { actor, state, ctx } = start(fake);
    actor.send({ type: 'CONNECT' });
    for (let i = 0; i < 4; i++) {
      fake.close(URL);
      vi.advanceTimersByTime(4000);
    }
    expect(state()).toBe('failed');
    actor.send({ type: 'CONNECT' });
    expect(state()).toBe('connecting');
    expect(ctx()).toMatchObject({ attempts: 0, error: undefined });
    fake.open(URL);
    expect(state()).toBe('connected');
  });

  it('only relays without a live socket reconnect: CONNECT is ignored while connecting or connected', () => {
    const { actor } = start(fake);
    actor.send({ type: 'CONNECT' });
    actor.send({ type: 'CONNECT' });
    expect(fake.opened[URL]).toBe(1);
    fake.open(URL);
    actor.send({ type: 'CONNECT' });
    expect(fake.opened[URL]).toBe(1);
    expect(fake.alive(URL)).toBe(true);
  });

  it('CONNECT while waiting reconnects at once, counting the attempt', () => {
    const { actor, state, ctx } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.close(URL);
    actor.send({ type: 'CONNECT' });
    expect(state()).toBe('connecting');
    expect(fake.opened[URL]).toBe(2);
    expect(ctx().attempts).toBe(1);
  });

  it('a good connection resets the attempt count', () => {
    const { actor, ctx } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.close(URL);
    vi.advanceTimersByTime(1000);
    fake.close(URL);
    vi.advanceTimersByTime(2000);
    expect(ctx().attempts).toBe(2);
    fake.open(URL);
    expect(ctx().attempts).toBe(0);
    fake.close(URL);
    vi.advanceTimersByTime(1000);
    expect(ctx().attempts).toBe(1);
  });

  it('sends a subscription when connected and remembers one made while offline', () => {
    const { actor, sent } = start(fake);
    actor.send({ type: 'SUBSCRIBE', subId: 'early', filters: [{ kinds: [1], limit: 10 }] });
    actor.send({ type: 'CONNECT' });
    expect(sent()).toEqual([]);
    fake.open(URL);
    expect(sent()).toEqual([['REQ', 'early', { kinds: [1], limit: 10 }]]);
    actor.send({ type: 'SUBSCRIBE', subId: 'late', filters: [{ authors: ['a'] }, { kinds: [0] }] });
    expect(sent()[1]).toEqual(['REQ', 'late', { authors: ['a'] }, { kinds: [0] }]);
    actor.send({ type: 'UNSUBSCRIBE', subId: 'early' });
    expect(sent()[2]).toEqual(['CLOSE', 'early']);
    expect(Object.keys(actor.getSnapshot().context.subs)).toEqual(['late']);
  });

  it('after a drop, re-sends open subscriptions with since = the time it dropped (limit removed)', () => {
    const { actor, sent, setClock, ctx } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.open(URL);
    actor.send({ type: 'SUBSCRIBE', subId: 'feed', filters: [{ kinds: [1], limit: 20 }, { kinds: [7], since: 1_800_000_000 }] });
    fake.receive(URL, { type: 'EOSE', subId: 'feed' });
    setClock(1_700_000_500);
    fake.close(URL);
    expect(ctx().droppedAt).toBe(1_700_000_500);
    setClock(1_700_000_600);
    vi.advanceTimersByTime(1000);
    fake.open(URL);
    expect(sent().at(-1)).toEqual(['REQ', 'feed', { kinds: [1], since: 1_700_000_500 }, { kinds: [7], since: 1_800_000_000 }]);
    // Caught up at EOSE: the next drop starts from its own time.
    fake.receive(URL, { type: 'EOSE', subId: 'feed' });
    expect(ctx().droppedAt).toBeUndefined();
    setClock(1_700_000_900);
    fake.close(URL);
    vi.advanceTimersByTime(1000);
    fake.open(URL);
    expect(sent().at(-1)).toEqual(['REQ', 'feed', { kinds: [1], since: 1_700_000_900 }, { kinds: [7], since: 1_800_000_000 }]);
  });

  it('a second drop before the catch-up EOSE keeps the earlier since', () => {
    const { actor, sent, setClock } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.open(URL);
    actor.send({ type: 'SUBSCRIBE', subId: 's', filters: [{ kinds: [1] }] });
    setClock(1_700_000_100);
    fake.close(URL);
    vi.advanceTimersByTime(1000);
    fake.open(URL);
    setClock(1_700_000_200);
    fake.close(URL);
    vi.advanceTimersByTime(1000);
    fake.open(URL);
    expect(sent().at(-1)).toEqual(['REQ', 's', { kinds: [1], since: 1_700_000_100 }]);
  });

  it('a subscription the relay CLOSED is forgotten and not re-sent', () => {
    const { actor, sent, emitted } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.open(URL);
    actor.send({ type: 'SUBSCRIBE', subId: 's', filters: [{ kinds: [1] }] });
    fake.receive(URL, { type: 'CLOSED', subId: 's', message: 'error: too many' });
    expect(emitted).toEqual([{ type: 'CLOSED', subId: 's', message: 'error: too many' }]);
    fake.close(URL);
    vi.advanceTimersByTime(1000);
    fake.open(URL);
    expect(sent()).toEqual([['REQ', 's', { kinds: [1] }]]);
  });

  it('a subscription refused with auth-required waits for an accepted AUTH and is sent again then', () => {
    const { actor, sent, ctx } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.open(URL);
    fake.receive(URL, { type: 'AUTH', challenge: 'c1' });
    expect(ctx().challenge).toBe('c1');
    actor.send({ type: 'SUBSCRIBE', subId: 'wraps', filters: [{ kinds: [1059] }] });
    fake.receive(URL, { type: 'CLOSED', subId: 'wraps', message: 'auth-required: who are you?' });
    expect(ctx().subs.wraps?.waitingAuth).toBe(true);
    const auth = { id: 'a'.repeat(64), kind: 22242 } as NostrEvent;
    actor.send({ type: 'AUTHENTICATE', event: auth });
    expect(sent().at(-1)).toEqual(['AUTH', auth]);
    fake.receive(URL, { type: 'OK', id: auth.id, ok: true, message: '' });
    expect(sent().at(-1)).toEqual(['REQ', 'wraps', { kinds: [1059] }]);
    expect(ctx().subs.wraps?.waitingAuth).toBeUndefined();
    // A new connection has a new challenge: the old one is forgotten.
    fake.close(URL);
    expect(ctx().challenge).toBeUndefined();
  });

  it('read off closes the subscriptions and keeps them for read on; a 10002 write-only relay sends none', () => {
    const { actor, sent } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.open(URL);
    actor.send({ type: 'SUBSCRIBE', subId: 's', filters: [{ kinds: [1] }] });
    actor.send({ type: 'SET_FLAGS', read: false, write: true });
    expect(sent().at(-1)).toEqual(['CLOSE', 's']);
    expect(actor.getSnapshot().context).toMatchObject({ read: false, write: true });
    actor.send({ type: 'SET_FLAGS', read: true, write: false });
    expect(sent().at(-1)).toEqual(['REQ', 's', { kinds: [1] }]);

    const writeOnlyFake = createFakeRelays();
    const writeOnly = start(writeOnlyFake, { read: false });
    writeOnly.actor.send({ type: 'SUBSCRIBE', subId: 's', filters: [{ kinds: [1] }] });
    writeOnly.actor.send({ type: 'CONNECT' });
    writeOnlyFake.open(URL);
    expect(writeOnly.state()).toBe('connected');
    expect(writeOnlyFake.sent[URL]).toBeUndefined();
  });

  it('suspends (socket closed, no reconnect) and resumes with since = the suspension time', () => {
    const { actor, state, sent, setClock } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.open(URL);
    actor.send({ type: 'SUBSCRIBE', subId: 's', filters: [{ kinds: [1] }] });
    setClock(1_700_000_300);
    actor.send({ type: 'SUSPEND' });
    expect(state()).toBe('suspended');
    expect(fake.alive(URL)).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(fake.opened[URL]).toBe(1);
    actor.send({ type: 'CONNECT' });
    expect(state()).toBe('suspended');
    actor.send({ type: 'RESUME' });
    expect(state()).toBe('connecting');
    fake.open(URL);
    expect(sent().at(-1)).toEqual(['REQ', 's', { kinds: [1], since: 1_700_000_300 }]);
  });

  it('suspends from idle, waiting and failed too', () => {
    const { actor, state } = start(fake);
    actor.send({ type: 'SUSPEND' });
    expect(state()).toBe('suspended');
    actor.send({ type: 'RESUME' });
    fake.close(URL);
    expect(state()).toBe('waiting');
    actor.send({ type: 'SUSPEND' });
    expect(state()).toBe('suspended');
    vi.advanceTimersByTime(10_000);
    expect(fake.opened[URL]).toBe(1);
  });

  it('DISCONNECT closes the socket and goes idle', () => {
    const { actor, state } = start(fake);
    actor.send({ type: 'CONNECT' });
    fake.open(URL);
    actor.send({ type: 'DISCONNECT' });
    expect(state()).toBe('idle');
    expect(fake.alive(URL)).toBe(false);
  });

  it('publishes only on a connected socket and emits what the relay says', () => {
    const { actor, sent, emitted } = start(fake);
    const event = { id: 'e1', kind: 1 } as NostrEvent;
    actor.send({ type: 'PUBLISH', event });
    actor.send({ type: 'CONNECT' });
    fake.open(URL);
    expect(sent()).toEqual([]);
    actor.send({ type: 'PUBLISH', event });
    expect(sent()).toEqual([['EVENT', event]]);
    fake.receive(URL, { type: 'OK', id: 'e1', ok: true, message: '' });
    expect(emitted).toEqual([{ type: 'OK', id: 'e1', ok: true, message: '' }]);
  });
});
