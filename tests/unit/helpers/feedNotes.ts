/** Feed cards for unit tests of what feeds keep and show. */
import type { FeedNote, FeedSnapshot, NostrEvent, Profile } from '../../../core/types.ts';
import { emptyProfile } from '../../../core/profile.ts';

export function profile(pubkey: string): Profile {
  return { ...emptyProfile(pubkey), npub: `npub-${pubkey}`, name: `name-${pubkey}` };
}

/** A kind-1 card whose key and id are `key`, by `author` (default `a-<key>`). */
export function note(key: string, createdAt = 1000, author = `a-${key}`, extra: Partial<NostrEvent> = {}): FeedNote {
  return {
    key,
    event: { id: key, pubkey: author, created_at: createdAt, kind: 1, tags: [], content: `text ${key}`, sig: '', ...extra },
    author: profile(author),
    stats: { likes: 0, replies: 0, mentions: 0, reposts: 0, zaps: 0, satszapped: 0, score: 0, score24h: 0 },
    topZaps: [],
    referencedEvents: {},
    profiles: {},
  };
}

export const keys = (notes: FeedNote[]) => notes.map((n) => n.key);

export function snapshot(notes: FeedNote[], extra: Partial<FeedSnapshot> = {}): FeedSnapshot {
  return { spec: 's', status: 'ready', notes, pendingCount: 0, pendingAuthors: [], hasMore: true, ...extra };
}
