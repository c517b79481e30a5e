/** server/cache/commands/feed-specs.ts: which code answers which mega_feed_directive spec (S §3.1). */
import { describe, expect, it } from 'vitest';
import { resolveFeedSpec } from '../../../../../server/cache/commands/feed-specs.ts';

describe('resolveFeedSpec', () => {
  it.each([
    [{ id: 'search', query: 'kind:1 bitcoin' }, 'search'],
    // A reads spec named search is not the search command: without a search scope it is the reads listing.
    [{ id: 'search', kind: 'reads' }, 'reads'],
    [{ id: 'reads-feed', scope: 'follows' }, 'reads search'],
    [{ kind: 'reads', scope: 'myfollowsinteractions' }, 'reads search'],
    [{ id: 'nostr-reads-feed', kind: 'reads' }, 'nostr-reads-feed'],
    [{ id: 'video-reels' }, 'video-reels'],
    [{ id: 'explore-media' }, 'explore-media'],
    [{ id: 'reads-feed', scope: 'zappedbyfollows' }, 'reads'],
    [{ kind: 'reads', topic: 'bitcoin' }, 'reads'],
    [{ id: 'hall-of-fame-notes' }, 'hall-of-fame-notes'],
    [{ id: 'explore-zaps' }, 'explore-zaps'],
    [{ id: 'latest', kind: 'notes' }, 'latest'],
    [{ id: 'global-trending', hours: 24 }, 'ranked'],
    [{ id: 'most-zapped', hours: 4 }, 'ranked'],
    [{ id: 'all-notes', kind: 'notes' }, 'all-notes'],
    [{ id: 'feed', pubkey: 'a'.repeat(64) }, 'feed'],
    // A reads spec with a scope nothing serves falls through to the spec id.
    [{ id: 'latest', kind: 'reads', scope: 'elsewhere' }, 'latest'],
    [{ id: 'no-such-feed' }, 'unknown'],
    [{}, 'unknown'],
  ])('%j is answered by %s', (spec, answers) => {
    expect(resolveFeedSpec(spec).answers).toBe(answers);
  });
});
