/**
 * Who an imported event notifies, and with what (S §3.8 "What creates which type"). Produces
 * candidates only; index-notifications.ts applies each recipient's settings and mutes.
 */
import { eventsByIds } from '../cache/data.ts';
import { extractRefs } from '../cache/refs.ts';
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { groupEventRow } from './action-facts.ts';
import { postParent, resolveRef } from './apply.ts';
import { previousContactList } from './index-followers.ts';
import { parseAddress, REPLY_KINDS } from './kinds.ts';
import { EVENT_ARGS, N, type NotificationArgs } from './notification-types.ts';
import { quotedRefs, replyInfo, type Ref } from './replies.ts';
import { isHex64 } from './verify.ts';
import { parseZapReceipt } from './zaps.ts';
import { readTarget } from './target-rows.ts';

export interface Candidate {
  recipient: string;
  type: number;
  args: NotificationArgs;
  /** Who caused it: never notified about their own doing, and checked against mutes. */
  initiator: string;
  /** Comes from a post naming more than MAX_MENTIONS people (S §3.8 blocking rules). */
  crowded: boolean;
}

export interface Sourced {
  candidates: Candidate[];
  createdAt: number;
  /** Text a muted word is looked for in. */
  text: string;
  /** Events involved, checked against muted threads. */
  threadIds: string[];
  hashtags: string[];
}

/** A post naming more people than this notifies none of them for the mention. */
export const MAX_MENTIONS = 10;
/** A reply chain longer than this notifies no one beyond the parent (S §3.8, REPLY_TO_REPLY). */
const MAX_CHAIN = 15;
/** A first contact list can name thousands; only this many new followees hear of it. */
const MAX_NEW_FOLLOWS = 1000;
/** Kinds whose text can mention people and posts. */
export const MENTIONING_KINDS: ReadonlySet<number> = new Set([1, 20, 1111, 30023]);

type Who = { key: string; value: string };

/** People a post mentions (p tags, npub/nprofile), its author excluded. */
function mentionsOf(post: NostrEvent): { pubkeys: string[]; crowded: boolean } {
  const pubkeys = extractRefs(post).pubkeys.filter((p) => p !== post.pubkey);
  return { pubkeys, crowded: pubkeys.length > MAX_MENTIONS };
}

/** Stored posts that `post` quotes or mentions (not its reply parent). */
async function quotedPosts(tx: Queryable, post: NostrEvent): Promise<NostrEvent[]> {
  const ids = new Set<string>();
  for (const ref of quotedRefs(post, REPLY_KINDS.has(post.kind) ? replyInfo(post) : null)) {
    const id = await resolveRef(tx, ref);
    if (id && id !== post.id) ids.add(id);
  }
  // A pipelined group read the posts its actions' targets quote (action-facts.ts); the rest are read here.
  const known = [...ids].map((id) => groupEventRow(tx, id));
  const missing = [...ids].filter((_, i) => known[i] === undefined);
  const loaded = missing.length > 0 ? await eventsByIds(tx, missing) : undefined;
  const out: NostrEvent[] = [];
  [...ids].forEach((id, i) => {
    const ev = known[i] === undefined ? loaded?.get(id) : known[i];
    if (ev) out.push(ev);
  });
  return out;
}

/**
 * An action (like, repost, zap, reply) on `target`: its author hears directly, authors of
 * posts it quotes hear with 20x, people it mentions with 10x.
 */
async function actionOn(
  tx: Queryable,
  target: NostrEvent,
  initiator: string,
  types: [number, number, number],
  extra: NotificationArgs,
): Promise<Candidate[]> {
  const out: Candidate[] = [{ recipient: target.pubkey, type: types[0], args: { your_post: target.id, ...extra }, initiator, crowded: false }];
  // Quoting clients also p-tag the quoted author; "your post was mentioned" says more than "you were".
  for (const q of await quotedPosts(tx, target)) {
    out.push({
      recipient: q.pubkey,
      type: types[2],
      args: { post_your_post_was_mentioned_in: target.id, your_post: q.id, ...extra },
      initiator,
      crowded: false,
    });
  }
  const m = mentionsOf(target);
  for (const pk of m.pubkeys) {
    out.push({ recipient: pk, type: types[1], args: { post_you_were_mentioned_in: target.id, ...extra }, initiator, crowded: m.crowded });
  }
  return out;
}

/** The stored event `id`; `actor`: the acting event whose recordAction may have read it already (target-rows.ts). */
async function eventById(tx: Queryable, id: string | null | undefined, actor?: NostrEvent): Promise<NostrEvent | undefined> {
  if (!id || !isHex64(id)) return undefined;
  // What recordAction read for `actor`, else what the pipelined group read (action-facts.ts), else a read.
  let read = actor ? readTarget(actor, id) : undefined;
  if (read === undefined) read = groupEventRow(tx, id);
  if (read !== undefined) return read ?? undefined;
  return (await eventsByIds(tx, [id])).get(id);
}

/** Ancestors above the parent, nearest first, or none when the chain is too long to notify. */
async function deepAncestors(tx: Queryable, parentId: string): Promise<string[]> {
  const chain: string[] = [];
  let current = parentId;
  // The reply, its parent, then at most MAX_CHAIN - 2 more: one extra step tells "too long".
  for (let i = 0; i < MAX_CHAIN - 1; i++) {
    const row = await tx.get<{ parent_id: string | null }>('SELECT parent_id FROM posts WHERE event_id = ?', [current]);
    const up = row?.parent_id;
    if (!up || !isHex64(up) || chain.includes(up) || up === parentId) return chain;
    chain.push(up);
    current = up;
  }
  return chain.length + 2 > MAX_CHAIN ? [] : chain;
}

async function fromPost(tx: Queryable, ev: NostrEvent): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const who: Who = { key: 'who_replied_to_it', value: ev.pubkey };
  if (REPLY_KINDS.has(ev.kind)) {
    const parent = await eventById(tx, await postParent(tx, ev), ev);
    if (parent) {
      const extra = { [who.key]: who.value, reply: ev.id };
      const [direct, ...rest] = await actionOn(tx, parent, ev.pubkey, [N.REPLIED, N.MENTIONED_POST_REPLIED, N.QUOTING_POST_REPLIED], extra);
      out.push(direct);
      const ancestors = await eventsByIds(tx, await deepAncestors(tx, parent.id));
      for (const a of ancestors.values()) {
        out.push({ recipient: a.pubkey, type: N.REPLY_TO_REPLY, args: { your_post: a.id, ...extra }, initiator: ev.pubkey, crowded: false });
      }
      // Mentions of the new post itself rank above what the parent mentioned (first candidate per recipient wins).
      out.push(...(await mentionCandidates(tx, ev)), ...rest);
      return out;
    }
  }
  return mentionCandidates(tx, ev);
}

async function mentionCandidates(tx: Queryable, ev: NostrEvent): Promise<Candidate[]> {
  if (!MENTIONING_KINDS.has(ev.kind)) return [];
  const out: Candidate[] = [];
  for (const q of await quotedPosts(tx, ev)) {
    out.push({
      recipient: q.pubkey,
      type: N.POST_MENTIONED,
      args: { your_post: q.id, your_post_were_mentioned_in: ev.id, your_post_was_mentioned_by: ev.pubkey },
      initiator: ev.pubkey,
      crowded: false,
    });
  }
  const m = mentionsOf(ev);
  for (const pk of m.pubkeys) {
    out.push({
      recipient: pk,
      type: N.MENTIONED,
      args: { you_were_mentioned_in: ev.id, you_were_mentioned_by: ev.pubkey },
      initiator: ev.pubkey,
      crowded: m.crowded,
    });
  }
  return out;
}

/** The reacted-to event per NIP-25: the last e tag, else an a tag. */
function reactionTarget(ev: NostrEvent): Ref | null {
  let ref: Ref | null = null;
  for (const t of ev.tags) if (t[0] === 'e' && isHex64(t[1])) ref = { type: 'e', value: t[1] };
  if (ref) return ref;
  const a = ev.tags.find((t) => t[0] === 'a' && typeof t[1] === 'string' && parseAddress(t[1]));
  return a ? { type: 'a', value: a[1] } : null;
}

async function fromContacts(tx: Queryable, ev: NostrEvent): Promise<Candidate[]> {
  // The list this one replaced is still stored; everything after it in the ordering has lost.
  const prev = await previousContactList(tx, ev);
  const before = new Set<string>();
  if (prev) {
    try {
      for (const t of JSON.parse(prev.tags) as unknown[]) if (Array.isArray(t) && t[0] === 'p' && isHex64(t[1])) before.add(t[1]);
    } catch {
      // An unreadable old list counts as empty.
    }
  }
  const out: Candidate[] = [];
  const added = new Set<string>();
  for (const t of ev.tags) {
    if (t[0] !== 'p' || !isHex64(t[1]) || before.has(t[1]) || added.has(t[1])) continue;
    added.add(t[1]);
    out.push({ recipient: t[1], type: N.NEW_FOLLOWER, args: { follower: ev.pubkey }, initiator: ev.pubkey, crowded: false });
    if (out.length >= MAX_NEW_FOLLOWS) break;
  }
  return out;
}

function tagValues(ev: NostrEvent | undefined, name: string): string[] {
  return ev ? ev.tags.filter((t) => t[0] === name && typeof t[1] === 'string').map((t) => t[1]) : [];
}

/** Everything `ev` notifies, with what the mute rules look at. */
export async function notificationsFrom(tx: Queryable, ev: NostrEvent): Promise<Sourced | null> {
  let candidates: Candidate[] = [];
  let text = ev.content;
  let target: NostrEvent | undefined;
  if (ev.kind === 3) {
    candidates = await fromContacts(tx, ev);
  } else if (ev.kind === 7) {
    if (ev.content.trim() === '-') return null;
    const ref = reactionTarget(ev);
    target = ref ? await eventById(tx, await resolveRef(tx, ref), ev) : undefined;
    if (target) {
      const extra = { who_liked_it: ev.pubkey, reaction: ev.content };
      candidates = await actionOn(tx, target, ev.pubkey, [N.LIKED, N.MENTIONED_POST_LIKED, N.QUOTING_POST_LIKED], extra);
    }
  } else if (ev.kind === 6) {
    target = await eventById(tx, ev.tags.find((t) => t[0] === 'e' && isHex64(t[1]))?.[1], ev);
    if (target) {
      const extra = { who_reposted_it: ev.pubkey };
      candidates = await actionOn(tx, target, ev.pubkey, [N.REPOSTED, N.MENTIONED_POST_REPOSTED, N.QUOTING_POST_REPOSTED], extra);
    }
  } else if (ev.kind === 9735) {
    const zap = parseZapReceipt(ev);
    if (typeof zap === 'string') return null;
    const zapped = zap.target ?? (zap.address ? await resolveRef(tx, { type: 'a', value: zap.address }) : null);
    if (!zapped) return null;
    target = await eventById(tx, zapped);
    text = zap.message;
    if (target) {
      const extra = { who_zapped_it: zap.sender, satszapped: zap.amountSats };
      const types: [number, number, number] = [N.ZAPPED, N.MENTIONED_POST_ZAPPED, N.QUOTING_POST_ZAPPED];
      candidates = await actionOn(tx, target, zap.sender, types, extra);
      candidates[0].args.message = zap.message;
    }
  } else if (MENTIONING_KINDS.has(ev.kind)) {
    candidates = await fromPost(tx, ev);
  }
  if (!candidates.length) return null;
  const threadIds = new Set([ev.id, ...tagValues(ev, 'e')]);
  if (target) threadIds.add(target.id);
  for (const c of candidates) {
    for (const [k, v] of Object.entries(c.args)) if (EVENT_ARGS.has(k) && typeof v === 'string') threadIds.add(v);
  }
  const hashtags = [...tagValues(ev, 't'), ...tagValues(target, 't')].map((h) => h.toLowerCase());
  return { candidates, createdAt: ev.created_at, text, threadIds: [...threadIds], hashtags };
}
