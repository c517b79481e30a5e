/**
 * The events and texts behind a note's actions (repost, report, delete, broadcast, the copy
 * items) as pure functions, so their shapes are tested without a browser.
 */
import { naddrEncode, neventEncode, noteEncode } from 'nostr-tools/nip19';
import type { NostrEvent, NoteActions, NoteStats, UnsignedEvent } from '../../core/types';

export const KIND_DELETION = 5;
export const KIND_REPOST = 6;
export const KIND_REPORT = 1984;

/** NIP-56 report types offered in the report dialog. */
export const REPORT_REASONS = ['spam', 'illegal', 'nudity', 'impersonation', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

const now = () => Math.floor(Date.now() / 1000);

export function isAddressable(kind: number): boolean {
  return kind >= 30000 && kind < 40000;
}

/** kind:pubkey:d of an addressable event (articles); undefined for other kinds. */
export function coordinateOf(event: Pick<NostrEvent, 'kind' | 'pubkey' | 'tags'>): string | undefined {
  if (!isAddressable(event.kind)) return undefined;
  const d = event.tags.find((t) => t[0] === 'd')?.[1] ?? '';
  return `${event.kind}:${event.pubkey}:${d}`;
}

export { threadRootOf } from '../../core/bundle';

/** The bookmark list entry: an `a` tag for articles, an `e` tag for everything else. */
export function bookmarkTag(event: Pick<NostrEvent, 'id' | 'kind' | 'pubkey' | 'tags'>): string[] {
  const coordinate = coordinateOf(event);
  return coordinate ? ['a', coordinate] : ['e', event.id];
}

export function hasBookmark(bookmarks: string[][] | undefined, tag: string[]): boolean {
  return !!bookmarks?.some((t) => t[0] === tag[0] && t[1] === tag[1]);
}

/** Only the seven NIP-01 fields: Comlink copies and feed items may carry more. */
export function plainEvent(event: NostrEvent): NostrEvent {
  const { id, pubkey, created_at, kind, tags, content, sig } = event;
  return { id, pubkey, created_at, kind, tags, content, sig };
}

/** NIP-18 repost: the reposted event's JSON as content, e (with a relay hint slot) and p tags. */
export function repostEvent(target: NostrEvent, relayHint = ''): UnsignedEvent {
  const tags: string[][] = [
    ['e', target.id, relayHint],
    ['p', target.pubkey],
  ];
  const coordinate = coordinateOf(target);
  if (coordinate) tags.push(['a', coordinate]);
  if (target.kind !== 1) tags.push(['k', String(target.kind)]);
  return { kind: KIND_REPOST, tags, content: JSON.stringify(plainEvent(target)), created_at: now() };
}

/** NIP-56 report of the note's author, naming the note with the same reason. */
export function reportEvent(target: Pick<NostrEvent, 'id' | 'pubkey'>, reason: ReportReason): UnsignedEvent {
  return {
    kind: KIND_REPORT,
    tags: [
      ['p', target.pubkey, reason],
      ['e', target.id, reason],
    ],
    content: '',
    created_at: now(),
  };
}

/** NIP-09 deletion of one's own note (and of the article's address, so later versions go too). */
export function deletionEvent(target: Pick<NostrEvent, 'id' | 'kind' | 'pubkey' | 'tags'>): UnsignedEvent {
  const tags: string[][] = [['e', target.id]];
  const coordinate = coordinateOf(target);
  if (coordinate) tags.push(['a', coordinate]);
  tags.push(['k', String(target.kind)]);
  return { kind: KIND_DELETION, tags, content: '', created_at: now() };
}

/** A broadcast sends the note exactly as it was signed; an unsigned or altered copy is refused. */
export function broadcastPayload(event: NostrEvent): NostrEvent {
  if (typeof event.sig !== 'string' || !/^[0-9a-f]{128}$/.test(event.sig) || !/^[0-9a-f]{64}$/.test(event.id)) {
    throw new Error('event_not_signed');
  }
  return plainEvent(event);
}

/** The note's own page: /a/<naddr> for articles, /e/<nevent> for the rest, on this origin. */
export function noteLink(event: Pick<NostrEvent, 'id' | 'kind' | 'pubkey' | 'tags'>, origin: string, relayHint?: string): string {
  const relays = relayHint ? [relayHint] : [];
  const base = origin.replace(/\/+$/, '');
  try {
    if (isAddressable(event.kind)) {
      const identifier = event.tags.find((t) => t[0] === 'd')?.[1] ?? '';
      return `${base}/a/${naddrEncode({ kind: event.kind, pubkey: event.pubkey, identifier, relays })}`;
    }
    return `${base}/e/${neventEncode({ id: event.id, author: event.pubkey, relays })}`;
  } catch {
    return `${base}/e/${noteEncode(event.id)}`;
  }
}

export const noteId = (event: Pick<NostrEvent, 'id'>): string => noteEncode(event.id);
export const rawData = (event: NostrEvent): string => JSON.stringify(plainEvent(event));

/** What this viewer has done to the note, from the server, the account record and this tab. */
export interface ViewerState {
  liked: boolean;
  reposted: boolean;
  replied: boolean;
  zapped: boolean;
}

/**
 * The counts to show: the server's, plus one for each own action the server's answer did not
 * know about yet (its `actions` flag is false while the viewer's state says done).
 */
export function shownStats(stats: NoteStats, server: NoteActions | undefined, viewer: ViewerState): NoteStats {
  return {
    ...stats,
    likes: stats.likes + (viewer.liked && !server?.liked ? 1 : 0),
    reposts: stats.reposts + (viewer.reposted && !server?.reposted ? 1 : 0),
  };
}
