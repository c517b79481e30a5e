/**
 * A cache reply's enrichment bundle (cache-protocol.md S §2.2) to the FeedNote cards of
 * core/types.ts. Pure, so that every feed, thread and test reads bundles the same way.
 */
import { decode } from 'nostr-tools/nip19';
import type { CacheObject, FeedNote, NostrEvent, NoteActions, NoteStats, Profile, TopZap } from './types.ts';
import { emptyProfile, parseProfile } from './profile.ts';
import { topZaps, zapFromInfo, zapFromReceipt } from './zaps.ts';
import { CacheKind } from './kinds.ts';
import { attachLooks, membershipLooks } from './membershipLooks.ts';

export const K = {
  METADATA: 0,
  TEXT: 1,
  REPOST: 6,
  GENERIC_REPOST: 16,
  PICTURE: 20,
  ZAP: 9735,
  MEDIA_SERVERS: 10063,
  LONG_FORM: 30023,
} as const;

/** Kinds that become a card of their own. */
const CARD_KINDS = new Set<number>([K.TEXT, K.PICTURE, K.LONG_FORM]);
const REPOST_KINDS = new Set<number>([K.REPOST, K.GENERIC_REPOST]);

export interface FeedRange {
  since?: number;
  until?: number;
  orderBy: string;
  elements: string[];
}

export interface ParsedBundle {
  notes: FeedNote[];
  range?: FeedRange;
  profiles: Record<string, Profile>;
}

export function isNostrEvent(o: unknown): o is NostrEvent {
  if (typeof o !== 'object' || o === null) return false;
  const e = o as Record<string, unknown>;
  return (
    typeof e.id === 'string' &&
    typeof e.pubkey === 'string' &&
    typeof e.kind === 'number' &&
    typeof e.created_at === 'number' &&
    typeof e.content === 'string' &&
    Array.isArray(e.tags)
  );
}

function parseJson(text: string | undefined): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function num(v: unknown): number {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

function optNum(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function emptyStats(): NoteStats {
  return { likes: 0, replies: 0, mentions: 0, reposts: 0, zaps: 0, satszapped: 0, score: 0, score24h: 0 };
}

function coordinateOf(e: NostrEvent): string | undefined {
  if (e.kind < 30000 || e.kind >= 40000) return undefined;
  const d = e.tags.find((t) => t[0] === 'd')?.[1] ?? '';
  return `${e.kind}:${e.pubkey}:${d}`;
}

/** Everything a bundle says, indexed; built once per reply. */
class BundleIndex {
  readonly top = new Map<string, NostrEvent>();
  readonly topOrder: NostrEvent[] = [];
  readonly refs = new Map<string, NostrEvent>();
  readonly profiles: Record<string, Profile> = {};
  readonly stats = new Map<string, NoteStats>();
  readonly actions = new Map<string, NoteActions>();
  readonly zaps = new Map<string, TopZap[]>();
  readonly followers = new Map<string, number>();
  readonly hints = new Map<string, string>();
  readonly words = new Map<string, number>();
  /** Each author's Blossom servers (kind 10063), for pictures that fail to load. */
  readonly mediaServers = new Map<string, { at: number; servers: string[] }>();
  range?: FeedRange;

  constructor(objects: CacheObject[]) {
    for (const o of objects) this.add(o);
    for (const [pk, n] of this.followers) if (this.profiles[pk]) this.profiles[pk].followers = n;
    for (const [pk, list] of this.mediaServers) if (this.profiles[pk]) this.profiles[pk].mediaServers = list.servers;
    attachLooks(Object.values(this.profiles), membershipLooks(objects));
  }

  private addEvent(e: NostrEvent, topLevel: boolean): void {
    if (e.kind === K.METADATA) {
      const seen = this.profiles[e.pubkey];
      if (!seen || seen.created_at < e.created_at) this.profiles[e.pubkey] = parseProfile(e);
      return;
    }
    if (e.kind === K.MEDIA_SERVERS) {
      const seen = this.mediaServers.get(e.pubkey);
      if (seen && seen.at >= e.created_at) return;
      const servers = e.tags.filter((t) => t[0] === 'server' && typeof t[1] === 'string' && /^https?:\/\//i.test(t[1])).map((t) => t[1]);
      this.mediaServers.set(e.pubkey, { at: e.created_at, servers });
      return;
    }
    if (e.kind === K.ZAP) {
      const zap = zapFromReceipt(e);
      if (zap) this.addZap(zap);
      return;
    }
    const target = topLevel ? this.top : this.refs;
    if (!target.has(e.id)) {
      target.set(e.id, e);
      if (topLevel) this.topOrder.push(e);
    }
    const coord = coordinateOf(e);
    if (coord) this.refs.set(coord, e);
  }

  private addZap(zap: TopZap): void {
    const list = this.zaps.get(zap.eventId);
    if (list) list.push(zap);
    else this.zaps.set(zap.eventId, [zap]);
  }

  private add(o: CacheObject): void {
    if (o.kind < 10_000_000) {
      if (isNostrEvent(o)) this.addEvent(o, true);
      return;
    }
    switch (o.kind) {
      case CacheKind.REFERENCED_EVENT: {
        const ev = parseJson(o.content);
        if (isNostrEvent(ev)) this.addEvent(ev, false);
        return;
      }
      case CacheKind.NOTE_STATS: {
        const c = record(parseJson(o.content));
        if (c && typeof c.event_id === 'string') {
          this.stats.set(c.event_id, {
            likes: num(c.likes),
            replies: num(c.replies),
            mentions: num(c.mentions),
            reposts: num(c.reposts),
            zaps: num(c.zaps),
            satszapped: num(c.satszapped),
            score: num(c.score),
            score24h: num(c.score24h),
          });
        }
        return;
      }
      case CacheKind.NOTE_ACTIONS: {
        const c = record(parseJson(o.content));
        if (c && typeof c.event_id === 'string') {
          this.actions.set(c.event_id, {
            liked: c.liked === true,
            replied: c.replied === true,
            reposted: c.reposted === true,
            zapped: c.zapped === true,
          });
        }
        return;
      }
      case CacheKind.ZAP_INFO: {
        const zap = zapFromInfo(o);
        if (zap) this.addZap(zap);
        return;
      }
      case CacheKind.USER_SCORES:
      case CacheKind.FOLLOWER_COUNTS: {
        const c = record(parseJson(o.content));
        if (c) for (const [pk, n] of Object.entries(c)) if (typeof n === 'number') this.followers.set(pk, n);
        return;
      }
      case CacheKind.EVENT_RELAYS: {
        const c = record(parseJson(o.content));
        if (c) for (const [id, url] of Object.entries(c)) if (typeof url === 'string') this.hints.set(id, url);
        return;
      }
      case CacheKind.WORD_COUNT: {
        const c = record(parseJson(o.content));
        if (c && typeof c.event_id === 'string') this.words.set(c.event_id, num(c.words));
        return;
      }
      case CacheKind.RANGE: {
        const c = record(parseJson(o.content));
        if (!c) return;
        const elements = Array.isArray(c.elements) ? c.elements.filter((x): x is string => typeof x === 'string') : [];
        this.range = {
          since: optNum(c.since),
          until: optNum(c.until),
          orderBy: typeof c.order_by === 'string' ? c.order_by : 'created_at',
          elements,
        };
        return;
      }
      default:
        return;
    }
  }

  event(id: string): NostrEvent | undefined {
    return this.top.get(id) ?? this.refs.get(id);
  }

  profile(pubkey: string): Profile {
    return this.profiles[pubkey] ?? emptyProfile(pubkey);
  }
}

const MENTION = /nostr:((?:note|nevent|naddr|npub|nprofile)1[02-9ac-hj-np-z]+)/g;

interface Mentions {
  events: string[];
  pubkeys: string[];
}

function mentionsOf(e: NostrEvent): Mentions {
  const events: string[] = [];
  const pubkeys: string[] = [];
  for (const t of e.tags) {
    if ((t[0] === 'e' || t[0] === 'q' || t[0] === 'a') && t[1]) events.push(t[1]);
    else if ((t[0] === 'p' || t[0] === 'P') && t[1]) pubkeys.push(t[1]);
  }
  for (const m of e.content.matchAll(MENTION)) {
    try {
      const d = decode(m[1]);
      if (d.type === 'note') events.push(d.data);
      else if (d.type === 'nevent') events.push(d.data.id);
      else if (d.type === 'naddr') events.push(`${d.data.kind}:${d.data.pubkey}:${d.data.identifier}`);
      else if (d.type === 'npub') pubkeys.push(d.data);
      else if (d.type === 'nprofile') pubkeys.push(d.data.pubkey);
    } catch {
      // A mistyped mention is just text; nothing to attach.
    }
  }
  return { events, pubkeys };
}

/**
 * The spec's reply rule: e and a tags marked "reply" (preferred) or "root" name the parent;
 * unmarked and "mention" tags do not.
 */
export function replyTarget(e: Pick<NostrEvent, 'tags'>): { id: string; pubkey?: string } | undefined {
  for (const marker of ['reply', 'root']) {
    for (const name of ['e', 'a']) {
      const t = e.tags.find((x) => x[0] === name && x[3] === marker && x[1]);
      if (!t) continue;
      if (name === 'a') return { id: t[1], pubkey: t[1].split(':')[1] || undefined };
      return { id: t[1], pubkey: /^[0-9a-f]{64}$/.test(t[4] ?? '') ? t[4] : undefined };
    }
  }
  return undefined;
}

/** The event a repost points at: the referenced event when the bundle has it, else its own content. */
function repostedEvent(idx: BundleIndex, repost: NostrEvent): NostrEvent | undefined {
  const ref = repost.tags.find((t) => t[0] === 'e')?.[1] ?? repost.tags.find((t) => t[0] === 'a')?.[1];
  const known = ref ? idx.event(ref) : undefined;
  if (known) return known;
  const inner = parseJson(repost.content);
  return isNostrEvent(inner) ? inner : undefined;
}

function buildNote(idx: BundleIndex, item: NostrEvent): FeedNote | undefined {
  let event = item;
  let repost: NostrEvent | undefined;
  if (REPOST_KINDS.has(item.kind)) {
    const inner = repostedEvent(idx, item);
    if (!inner) return undefined;
    repost = item;
    event = inner;
  }
  if (!CARD_KINDS.has(event.kind)) return undefined;

  const mentions = mentionsOf(event);
  const referencedEvents: Record<string, NostrEvent> = {};
  const profiles: Record<string, Profile> = {};
  for (const id of mentions.events) {
    const ref = idx.event(id);
    if (!ref) continue;
    referencedEvents[id] = ref;
    if (idx.profiles[ref.pubkey]) profiles[ref.pubkey] = idx.profiles[ref.pubkey];
  }
  for (const pk of mentions.pubkeys) if (idx.profiles[pk]) profiles[pk] = idx.profiles[pk];

  const note: FeedNote = {
    key: item.id,
    event,
    author: idx.profile(event.pubkey),
    stats: idx.stats.get(event.id) ?? emptyStats(),
    topZaps: topZaps(idx.zaps.get(event.id) ?? []),
    referencedEvents,
    profiles,
  };
  // The top zaps row shows each zapper's avatar and name.
  const zappers: Record<string, Profile> = {};
  for (const z of note.topZaps) if (idx.profiles[z.pubkey]) zappers[z.pubkey] = idx.profiles[z.pubkey];
  if (Object.keys(zappers).length > 0) note.zapProfiles = zappers;
  const actions = idx.actions.get(event.id);
  if (actions) note.actions = actions;
  if (repost) {
    note.repostedBy = idx.profile(repost.pubkey);
    note.repostedAt = repost.created_at;
  }
  const parent = replyTarget(event);
  if (parent) {
    const pubkey = parent.pubkey ?? idx.event(parent.id)?.pubkey;
    note.replyTo = { id: parent.id };
    if (pubkey) {
      note.replyTo.pubkey = pubkey;
      if (idx.profiles[pubkey]) note.replyTo.author = idx.profiles[pubkey];
    }
  }
  const hint = idx.hints.get(event.id);
  if (hint) note.relayHint = hint;
  const words = idx.words.get(event.id);
  if (words !== undefined) note.words = words;
  return note;
}

/** NIP-10: the thread a note belongs to — its marked root, else its first positional e tag, else the note itself. */
export function threadRootOf(event: Pick<NostrEvent, 'id' | 'tags'>): string {
  const marked = event.tags.find((t) => t[0] === 'e' && t[3] === 'root' && t[1]);
  if (marked) return marked[1];
  const positional = event.tags.find((t) => t[0] === 'e' && t[1] && (t[3] === undefined || t[3] === ''));
  return positional ? positional[1] : event.id;
}

/**
 * Cards in RANGE.elements order; without a RANGE, the top-level posts newest first.
 * Elements that name no card (deleted, hidden, a repost of something missing) are skipped.
 */
export function parseBundle(objects: CacheObject[]): ParsedBundle {
  const idx = new BundleIndex(objects);
  const items: NostrEvent[] = [];
  if (idx.range && idx.range.elements.length > 0) {
    for (const id of idx.range.elements) {
      const e = idx.event(id);
      if (e) items.push(e);
    }
  } else {
    const primary = idx.topOrder.filter((e) => CARD_KINDS.has(e.kind) || REPOST_KINDS.has(e.kind));
    items.push(...primary.sort((a, b) => b.created_at - a.created_at));
  }
  const notes: FeedNote[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    const note = buildNote(idx, item);
    if (note) notes.push(note);
  }
  return { notes, range: idx.range, profiles: idx.profiles };
}

/** The time a card entered the feed: the repost's time for reposts (their RANGE key). */
export function feedTime(note: FeedNote): number {
  return note.repostedAt ?? note.event.created_at;
}
