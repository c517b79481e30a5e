import { describe, expect, it, vi } from 'vitest';
import { canonicalSpec, checkFeedName, dropTarget, enabledFeeds, findFeed, matchesQuery, MAX_FEED_NAME, sameSpec, stepTarget, toDefinition } from '../../../../../src/components/feedSettings/feedModel.ts';
import { dvmFeeds, isReadsSpec, uniqueBySpec } from '../../../../../src/components/marketplace/marketData.ts';
import { FeedRegistry } from '../../../../../worker/feedRegistry.ts';
import type { CacheObject, CacheReply, FeedDefinition } from '../../../../../core/types.ts';

const def = (name: string, spec: string, enabled = true): FeedDefinition => ({ name, description: '', spec, enabled });

describe('feed spec identity', () => {
  it('treats specs with reordered keys as the same feed', () => {
    expect(canonicalSpec('{"kind":"notes","id":"latest"}')).toBe('{"id":"latest","kind":"notes"}');
    expect(sameSpec('{"id":"x","kind":"notes","hours":4}', '{"hours":4,"kind":"notes","id":"x"}')).toBe(true);
    expect(sameSpec('{"id":"x"}', '{"id":"y"}')).toBe(false);
    expect(sameSpec('global;trending', ' global;trending ')).toBe(true);
  });

  it('finds the stored entry by exact spec first, then by meaning', () => {
    const feeds = [def('A', '{"kind":"notes","id":"a"}'), def('B', '{"id":"b"}')];
    expect(findFeed(feeds, '{"id":"a","kind":"notes"}')?.name).toBe('A');
    expect(findFeed(feeds, '{"id":"b"}')?.name).toBe('B');
    expect(findFeed(feeds, '{"id":"c"}')).toBeUndefined();
  });
});

describe('feed names', () => {
  it('refuses empty and over-long names, trims and collapses spaces', () => {
    expect(checkFeedName('   ')).toEqual({ error: 'empty' });
    expect(checkFeedName('x'.repeat(MAX_FEED_NAME + 1))).toEqual({ error: 'tooLong' });
    expect(checkFeedName('  Saját   hírfolyam ')).toEqual({ name: 'Saját hírfolyam' });
    expect(checkFeedName('é'.repeat(MAX_FEED_NAME))).toEqual({ name: 'é'.repeat(MAX_FEED_NAME) });
  });
});

describe('reordering', () => {
  it('moves one step within the list only', () => {
    expect(stepTarget(0, -1, 3)).toBeUndefined();
    expect(stepTarget(2, 1, 3)).toBeUndefined();
    expect(stepTarget(1, -1, 3)).toBe(0);
    expect(stepTarget(1, 1, 3)).toBe(2);
  });

  it('drops where the pointer passed the middle of other rows', () => {
    const rows = [0, 50, 100, 150].map((top) => ({ top, height: 50 }));
    expect(dropTarget(0, 10, rows)).toBe(0);
    expect(dropTarget(0, 80, rows)).toBe(1);
    expect(dropTarget(0, 190, rows)).toBe(3);
    expect(dropTarget(3, 10, rows)).toBe(0);
    expect(dropTarget(3, 120, rows)).toBe(2);
    expect(dropTarget(3, 130, rows)).toBe(3);
    expect(dropTarget(1, 60, rows)).toBe(1);
  });

  it('shows only enabled feeds, in order', () => {
    expect(enabledFeeds([def('A', 'a'), def('B', 'b', false), def('C', 'c')]).map((f) => f.name)).toEqual(['A', 'C']);
  });
});

describe('marketplace data', () => {
  it('matches the search on name and description, ignoring case and accents', () => {
    const feed = { name: 'Képek', description: 'Képes bejegyzések mindenkitől' };
    expect(matchesQuery(feed, 'kepek')).toBe(true);
    expect(matchesQuery(feed, 'MINDENKITŐL kép')).toBe(true);
    expect(matchesQuery(feed, 'videó')).toBe(false);
    expect(matchesQuery(feed, '  ')).toBe(true);
  });

  it('tells reads feeds from note feeds', () => {
    expect(isReadsSpec('{"kind":"reads","scope":"follows"}')).toBe(true);
    expect(isReadsSpec('{"id":"advsearch","query":"kind:30023 minwords:500"}')).toBe(true);
    expect(isReadsSpec('{"id":"advsearch","query":"kind:1 filter:image"}')).toBe(false);
    expect(isReadsSpec('not json')).toBe(false);
  });

  it('keeps the first of feeds with the same spec', () => {
    const out = uniqueBySpec([def('Első', '{"id":"a","kind":"notes"}'), def('Második', '{"kind":"notes","id":"a"}'), def('Más', '{"id":"b"}')]);
    expect(out.map((f) => f.name)).toEqual(['Első', 'Más']);
  });

  it('reads DVM feeds with their author and likes', () => {
    const dvm = 'd'.repeat(64);
    const objects: CacheObject[] = [
      { kind: 31990, id: 'e1', pubkey: dvm, created_at: 1, tags: [['d', 'kepek'], ['k', '5300']], content: JSON.stringify({ name: 'Képek DVM', about: 'Képek', picture: 'https://x/p.png' }), sig: '' },
      { kind: 10000100, content: JSON.stringify({ event_id: 'e1', likes: 7, satszapped: 0 }) },
      { kind: 0, pubkey: dvm, created_at: 1, content: JSON.stringify({ name: 'dvmgazda' }) },
    ];
    const [feed] = dvmFeeds(objects, 'reads');
    expect(feed).toMatchObject({ name: 'Képek DVM', description: 'Képek', likes: 7, pubkey: dvm, picture: 'https://x/p.png', source: 'dvm' });
    expect(feed.author?.name).toBe('dvmgazda');
    expect(JSON.parse(feed.spec)).toEqual({ dvm_id: 'kepek', dvm_pubkey: dvm, kind: 'reads' });
    expect(toDefinition(feed)).toEqual({ name: 'Képek DVM', description: 'Képek', spec: feed.spec, enabled: true });
  });
});

describe('FeedRegistry viewer', () => {
  it('starts open feeds over for a newly signed-in viewer', async () => {
    const calls: Record<string, unknown>[] = [];
    const request = vi.fn(async (_command: string, payload?: Record<string, unknown>): Promise<CacheReply> => {
      calls.push(payload ?? {});
      return { events: [] };
    });
    let viewer = 'guest';
    const registry = new FeedRegistry({ request, userPubkey: () => viewer, throttleMs: 0 });
    const handle = registry.open('tab', '{"id":"latest","kind":"notes"}', () => undefined);
    await vi.waitFor(() => expect(calls.some((c) => c.user_pubkey === 'guest')).toBe(true));
    registry.refreshViewer();
    const before = calls.length;
    viewer = 'me';
    registry.refreshViewer();
    await vi.waitFor(() => expect(calls.slice(before).some((c) => c.user_pubkey === 'me')).toBe(true));
    registry.close(handle);
    expect(registry.size).toBe(0);
  });
});
