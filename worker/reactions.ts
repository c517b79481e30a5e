/**
 * The reactions modal's lists (spec §2 "Modals": tabs reactions, likes, zaps, reposts, quotes):
 * event_actions for kind 7 and 6, event_zaps_by_satszapped for zaps, note_mentions for quotes,
 * each a page of 20 (spec §9), read into plain entries the modal can draw.
 */
import { isNostrEvent, K, parseBundle } from '../core/bundle.ts';
import { emptyProfile, parseProfile } from '../core/profile.ts';
import type { CacheObject, CacheReply, NostrEvent, Profile, ReactionCounts, ReactionEntry, ReactionPage, ReactionTab } from '../core/types.ts';
import { zapFromInfo, zapFromReceipt } from '../core/zaps.ts';
import { CacheKind } from '../core/kinds.ts';
import { attachLooks, membershipLooks } from '../core/membershipLooks.ts';

export const REACTIONS_PAGE = 20;
/** How many reactions are read to count the likes among them; more than any demo note has. */
const COUNT_SCAN = 1000;

type Request = (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;

/** NIP-25: '+' and an empty content are likes; anything else is an emoji reaction. */
export function isLike(content: string): boolean {
  return content === '+' || content === '';
}

function profilesOf(objects: CacheObject[]): Record<string, Profile> {
  const out: Record<string, Profile> = {};
  for (const o of objects) {
    if (!isNostrEvent(o) || o.kind !== K.METADATA) continue;
    if (!out[o.pubkey] || out[o.pubkey].created_at < o.created_at) out[o.pubkey] = parseProfile(o);
  }
  attachLooks(Object.values(out), membershipLooks(objects));
  return out;
}

/** A kind-7 reaction's custom emoji image (NIP-30), when its content is :shortcode:. */
function reactionEmojiUrl(e: NostrEvent): string | undefined {
  const m = /^:([\w-]+):$/.exec(e.content);
  if (!m) return undefined;
  const url = e.tags.find((t) => t[0] === 'emoji' && t[1] === m[1])?.[2];
  return url?.startsWith('https://') ? url : undefined;
}

/** event_actions' answer: the acting events (newest first), then the actors' kind 0s. */
export function parseActions(objects: CacheObject[], kind: 6 | 7, onlyLikes: boolean): ReactionEntry[] {
  const profiles = profilesOf(objects);
  const entries: ReactionEntry[] = [];
  for (const o of objects) {
    if (!isNostrEvent(o) || o.kind !== kind) continue;
    if (onlyLikes && !isLike(o.content)) continue;
    entries.push({
      id: o.id,
      pubkey: o.pubkey,
      profile: profiles[o.pubkey] ?? emptyProfile(o.pubkey),
      created_at: o.created_at,
      content: kind === 7 ? o.content : '',
      emojiUrl: kind === 7 ? reactionEmojiUrl(o) : undefined,
    });
  }
  return entries;
}

/** The zap list bundle (S §2.3): receipts and 10000129s, biggest first as the RANGE says. */
export function parseZaps(objects: CacheObject[]): ReactionEntry[] {
  const profiles = profilesOf(objects);
  const byId = new Map<string, ReactionEntry>();
  const order: string[] = [];
  const add = (id: string, pubkey: string, amount: number, message: string, createdAt: number) => {
    const seen = byId.get(id);
    if (seen) {
      byId.set(id, { ...seen, content: seen.content || message, pubkey: pubkey || seen.pubkey });
      return;
    }
    order.push(id);
    byId.set(id, { id, pubkey, profile: emptyProfile(pubkey), created_at: createdAt, content: message, amount });
  };
  let range: string[] | undefined;
  for (const o of objects) {
    if (isNostrEvent(o) && o.kind === K.ZAP) {
      const z = zapFromReceipt(o);
      if (z) add(z.id, z.pubkey, z.amount, z.message, o.created_at);
    } else if (o.kind === CacheKind.ZAP_INFO) {
      const z = zapFromInfo(o);
      let createdAt = 0;
      try {
        createdAt = Number((JSON.parse(o.content ?? '{}') as { created_at?: unknown }).created_at) || 0;
      } catch {
        createdAt = 0;
      }
      if (z) add(z.id, z.pubkey, z.amount, z.message, createdAt);
    } else if (o.kind === CacheKind.RANGE) {
      try {
        const c = JSON.parse(o.content ?? '{}') as { elements?: unknown };
        if (Array.isArray(c.elements)) range = c.elements.filter((x): x is string => typeof x === 'string');
      } catch {
        range = undefined;
      }
    }
  }
  const ids = range ?? [...order].sort((a, b) => (byId.get(b)?.amount ?? 0) - (byId.get(a)?.amount ?? 0));
  return ids.flatMap((id) => {
    const entry = byId.get(id);
    return entry ? [{ ...entry, profile: profiles[entry.pubkey] ?? emptyProfile(entry.pubkey) }] : [];
  });
}

/** Kind-7 and kind-6 lists count the events the server sent, likes filtered out or not. */
function rawCount(objects: CacheObject[], kinds: number[]): number {
  return objects.filter((o) => isNostrEvent(o) && kinds.includes(o.kind)).length;
}

export function createReactions(request: Request) {
  return {
    async loadReactions(eventId: string, tab: ReactionTab, offset: number): Promise<ReactionPage> {
      const page = { event_id: eventId, limit: REACTIONS_PAGE, offset };
      if (tab === 'zaps') {
        const reply = await request('event_zaps_by_satszapped', page);
        const items = parseZaps(reply.events);
        return { tab, items, notes: [], nextOffset: offset + items.length, hasMore: items.length === REACTIONS_PAGE, notice: reply.notice };
      }
      if (tab === 'quotes') {
        const reply = await request('note_mentions', page);
        const notes = parseBundle(reply.events).notes;
        return { tab, items: [], notes, nextOffset: offset + notes.length, hasMore: notes.length === REACTIONS_PAGE, notice: reply.notice };
      }
      const kind = tab === 'reposts' ? 6 : 7;
      const reply = await request('event_actions', { ...page, kind });
      const raw = rawCount(reply.events, [kind]);
      return {
        tab,
        items: parseActions(reply.events, kind, tab === 'likes'),
        notes: [],
        nextOffset: offset + raw,
        hasMore: raw === REACTIONS_PAGE,
        notice: reply.notice,
      };
    },

    async reactionCounts(eventId: string): Promise<ReactionCounts> {
      const [reactions, quotes] = await Promise.all([
        request('event_actions', { event_id: eventId, kind: 7, limit: COUNT_SCAN, offset: 0 }),
        request('note_mentions_count', { event_id: eventId }),
      ]);
      const kind7 = reactions.events.filter((o): o is NostrEvent & CacheObject => isNostrEvent(o) && o.kind === 7);
      let quoteCount = 0;
      for (const o of quotes.events) {
        try {
          quoteCount = Number((JSON.parse(o.content ?? '{}') as { count?: unknown }).count) || 0;
        } catch {
          quoteCount = 0;
        }
      }
      return {
        reactions: kind7.length,
        likes: kind7.filter((e) => isLike(e.content)).length,
        quotes: quoteCount,
        complete: kind7.length < COUNT_SCAN,
      };
    },
  };
}
