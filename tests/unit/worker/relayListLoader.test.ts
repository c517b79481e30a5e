import { describe, expect, it } from 'vitest';
import { poolTags, relayListLoader } from '../../../worker/relayListLoader';
import type { AccountSnapshot, CacheReply, NostrEvent, RelayInfo } from '../../../core/types';

const OWN = 'ws://127.0.0.1:8800/relay';
const list = (pubkey: string, urls: string[]): NostrEvent => ({ id: 'x', pubkey, created_at: 10, kind: 10002, tags: urls.map((u) => ['r', u]), content: '', sig: '' });
const signedIn = (pubkey: string) => ({ login: { state: 'signedIn', pubkey, npub: '', hasPinSecret: false } }) as unknown as AccountSnapshot;
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the relay pool after login', () => {
  it('is the user list plus our own relay, or the defaults for a user without a list', () => {
    expect(poolTags(list('a', ['wss://r.example']), [OWN, 'wss://up.example'], true)).toEqual([['r', 'wss://r.example'], ['r', OWN]]);
    expect(poolTags(list('a', ['wss://r.example']), [OWN], false)).toEqual([['r', 'wss://r.example']]);
    expect(poolTags(undefined, [OWN, 'wss://up.example'], true)).toEqual([['r', OWN], ['r', 'wss://up.example']]);
  });

  it('loads once per pubkey and leaves a pool the person already changed alone', async () => {
    let pool: RelayInfo[] = [];
    const applied: string[][][] = [];
    const requests: string[] = [];
    const watcher = relayListLoader({
      request: async (command): Promise<CacheReply> => {
        requests.push(command);
        if (command === 'get_default_relays') return { events: [{ kind: 10000124, content: JSON.stringify([OWN]) }] };
        return { events: [{ ...list('alice', ['wss://alice.example']) }] };
      },
      relays: () => pool,
      poolEdited: () => false,
      setRelays: (event) => applied.push(event.tags),
    });
    watcher(signedIn('alice'));
    watcher(signedIn('alice'));
    await flush();
    expect(applied).toEqual([[['r', 'wss://alice.example'], ['r', OWN]]]);
    expect(requests).toHaveLength(2);

    pool = [{ url: OWN } as RelayInfo];
    watcher(signedIn('bob'));
    await flush();
    expect(applied).toHaveLength(1);
  });

  it('does not bring back relays the person removed while the stored list was on its way', async () => {
    let answer: (reply: CacheReply) => void = () => undefined;
    const applied: string[][][] = [];
    let edited = false;
    const watcher = relayListLoader({
      request: (command) =>
        command === 'get_default_relays'
          ? Promise.resolve({ events: [{ kind: 10000124, content: JSON.stringify([OWN]) }] })
          : new Promise<CacheReply>((resolve) => (answer = resolve)),
      relays: () => [],
      poolEdited: () => edited,
      setRelays: (event) => applied.push(event.tags),
    });
    watcher(signedIn('carol'));
    // The person added our relay and removed it again: the pool is empty, but by their hand.
    edited = true;
    answer({ events: [] });
    await flush();
    expect(applied).toEqual([]);
  });
});
