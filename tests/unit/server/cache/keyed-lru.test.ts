import { describe, expect, it } from 'vitest';
import { KeyedLru } from '../../../../server/cache/hot-cache.ts';

const loader = (calls: string[]) => (key: string) => async () => {
  calls.push(key);
  return `v-${key}`;
};

describe('KeyedLru (re-inserts only hits in the older half)', () => {
  it('keeps at most max entries, and a recently read entry outlives unread ones', async () => {
    const lru = new KeyedLru<string>(4);
    const calls: string[] = [];
    const load = loader(calls);
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) await lru.get(k, load(k));
    expect(lru.size).toBeLessThanOrEqual(4);
    // 'e' is read between every new entry, so evictions pass it by; 'b', never read again, fell out.
    await lru.get('e', load('e'));
    for (const k of ['g', 'h']) {
      await lru.get('e', load('e'));
      await lru.get(k, load(k));
    }
    calls.length = 0;
    await lru.get('e', load('e'));
    await lru.get('b', load('b'));
    expect(calls).toEqual(['b']);
    expect(lru.size).toBeLessThanOrEqual(4);
  });

  it('forgets an invalidated key, recent or old', async () => {
    const lru = new KeyedLru<string>(8);
    const calls: string[] = [];
    const load = loader(calls);
    await lru.get('old', load('old'));
    // Four more entries put 'old' in the older half of the use order.
    for (const k of ['p', 'q', 'r', 's']) await lru.get(k, load(k));
    await lru.get('young', load('young'));
    lru.invalidate('old');
    lru.invalidate('young');
    calls.length = 0;
    await lru.get('old', load('old'));
    await lru.get('young', load('young'));
    expect(calls).toEqual(['old', 'young']);
  });

  it('getMany answers hits from memory and loads only the rest, once each', async () => {
    const lru = new KeyedLru<string>(8);
    const calls: string[] = [];
    await lru.get('x', loader(calls)('x'));
    for (const k of ['p', 'q', 'r', 's']) await lru.get(k, loader(calls)(k));
    let asked: string[] = [];
    const got = await lru.getMany(['x', 'p', 'n', 'n', 'x'], undefined, async (missing) => {
      asked = missing;
      return new Map(missing.map((k) => [k, `v-${k}`]));
    });
    expect(asked).toEqual(['n']);
    expect([...got]).toEqual([['x', 'v-x'], ['p', 'v-p'], ['n', 'v-n']]);
  });

  it('holds a working set up to max without reloading any of it', async () => {
    const lru = new KeyedLru<string>(8);
    const calls: string[] = [];
    const keys = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'];
    for (const k of keys) await lru.get(k, loader(calls)(k));
    calls.length = 0;
    for (let round = 0; round < 3; round++) for (const k of keys) await lru.get(k, loader(calls)(k));
    expect(calls).toEqual([]);
    expect(lru.size).toBe(7);
  });
  it('offer keeps a value read since stamp() unless its key was invalidated or everything cleared meanwhile', () => {
    const lru = new KeyedLru<string>(8);
    expect(lru.peek('a')).toBeUndefined();
    let started = lru.stamp();
    lru.offer('a', 'first', started);
    expect(lru.peek('a')).toBe('first');
    started = lru.stamp();
    lru.invalidate('a');
    lru.offer('a', 'stale', started);
    expect(lru.peek('a')).toBeUndefined();
    lru.offer('b', 'untouched key', started);
    expect(lru.peek('b')).toBe('untouched key');
    started = lru.stamp();
    lru.clear();
    lru.offer('c', 'read before the clear', started);
    expect(lru.peek('c')).toBeUndefined();
  });
});
