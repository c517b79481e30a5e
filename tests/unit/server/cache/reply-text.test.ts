/**
 * The reply text shortcuts of issue 18 (framing.ts eventsFrame, enrich.ts Output and referenced):
 * each must write exactly what JSON.stringify of the same objects writes, and tell objects apart
 * exactly as their JSON does.
 */
import { describe, expect, it } from 'vitest';
import { eventsFrame } from '../../../../server/cache/framing.ts';
import { Output, referenced, synthetic } from '../../../../server/cache/enrich.ts';
import { CacheKind } from '../../../../core/kinds.ts';

const event = (id: string, content: string) =>
  ({ id, pubkey: 'ab'.repeat(32), created_at: 1_700_000_000, kind: 1, tags: [['p', 'cd'.repeat(32)], ['t', 'kávé']], content, sig: 'ef'.repeat(64) });

const deepFreeze = <T extends { tags: string[][] }>(ev: T): T => {
  for (const t of ev.tags) Object.freeze(t);
  Object.freeze(ev.tags);
  return Object.freeze(ev);
};

describe('eventsFrame', () => {
  it('writes the bytes of JSON.stringify for any mix of frozen and plain objects, again on reuse', () => {
    const hot = deepFreeze(event('01'.repeat(32), 'árvíztűrő "tükörfúrógép"\n\u2028 😀'));
    const hot2 = deepFreeze(event('02'.repeat(32), 'második'));
    const mixes = [
      [],
      [hot],
      [hot, hot2],
      [{ kind: 1, content: 'x' }, hot, { kind: 2, content: '"q"' }, hot2, hot],
      [synthetic(CacheKind.NOTE_STATS, { event_id: 'a', likes: 3 }), referenced(hot), hot, referenced(hot)],
    ];
    for (const subid of ['s', 'é"\\\u0001']) {
      for (const objects of mixes) {
        const expected = JSON.stringify(['EVENTS', subid, objects]);
        // Twice: the second time the frozen objects' text comes from the cache.
        expect(eventsFrame(subid, objects).toString('utf8')).toBe(expected);
        expect(eventsFrame(subid, objects).toString('utf8')).toBe(expected);
      }
    }
  });
});

describe('referenced', () => {
  it('is the synthetic referenced-event object, one frozen object per frozen event', () => {
    const plain = event('03'.repeat(32), 'a');
    const hot = deepFreeze(event('04'.repeat(32), 'b'));
    expect(referenced(plain)).toEqual(synthetic(CacheKind.REFERENCED_EVENT, plain, { pubkey: plain.pubkey }));
    expect(referenced(hot)).toEqual(synthetic(CacheKind.REFERENCED_EVENT, hot, { pubkey: hot.pubkey }));
    expect(referenced(hot)).toBe(referenced(hot));
    expect(Object.isFrozen(referenced(hot))).toBe(true);
    expect(referenced(plain)).not.toBe(referenced(plain));
  });
});

describe('Output', () => {
  it('drops an object exactly when its JSON repeats one already pushed', () => {
    const objects: Record<string, unknown>[] = [
      { kind: 1, content: 'a' },
      { kind: 1, content: 'a' },
      { kind: 1, content: 'a', pubkey: 'p' },
      { kind: 1, pubkey: 'p', content: 'a' },
      { kind: '1', content: 'a' },
      { kind: 1, content: 'a', extra: undefined },
      // Field boundaries: no value may run into the next field's name.
      { kind: 1, content: 'a1:b', b: undefined },
      { kind: 1, content: 'a', b: '' },
      { kind: 1, content: 'a1:bs0:' },
      { kind: 1, content: null },
      { kind: 1, content: 'null' },
      { kind: 1, n: 1.5 },
      { kind: 1, n: '1.5' },
      { kind: 1, n: Infinity },
      { kind: 1, n: null },
      { kind: 1, tags: [['a']] },
      { kind: 1, tags: [['a']] },
      { kind: 1, flag: true },
      { kind: 1, flag: 'true' },
    ];
    const out = new Output();
    for (const o of objects) out.push(o);
    const byJson = new Map<string, unknown>();
    for (const o of objects) if (!byJson.has(JSON.stringify(o))) byJson.set(JSON.stringify(o), o);
    expect(out.objects).toEqual([...byJson.values()]);
    expect(out.objects.map((o) => JSON.stringify(o))).toEqual([...byJson.keys()]);
  });
});

describe('Output with frozen objects', () => {
  it('drops a frozen object exactly when its JSON repeats one already pushed, on every reuse', () => {
    const hot = deepFreeze(event('05'.repeat(32), 'c'));
    const stats = Object.freeze(synthetic(CacheKind.NOTE_STATS, { event_id: 'a', likes: 3 }));
    const sameStats = Object.freeze(synthetic(CacheKind.NOTE_STATS, { event_id: 'a', likes: 3 }));
    const otherStats = Object.freeze(synthetic(CacheKind.NOTE_STATS, { event_id: 'a', likes: 4 }));
    for (let round = 0; round < 2; round++) {
      const out = new Output();
      for (const o of [hot, stats, referenced(hot), sameStats, hot, otherStats, { ...stats }, referenced(hot)]) out.push(o);
      expect(out.objects).toEqual([hot, stats, referenced(hot), otherStats]);
    }
  });
});
