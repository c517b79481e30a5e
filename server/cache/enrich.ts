/**
 * The enrichment bundle (protocol S §2.2): given a page of (event id, sort key) pairs, the
 * events themselves plus everything a client needs to render them, ending with a RANGE.
 */
import { verifyEvent } from 'nostr-tools/pure';
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { mediaAndLinkMetadata } from '../media/info.ts';
import {
  actionsOf,
  addressKey,
  emptyStats,
  eventsByAddress,
  eventsByIds,
  followerCounts,
  mediaServerListsOf,
  profilesOf,
  statsByIds,
  tombstones,
  topZaps,
  wordCount,
  type Address,
  type CacheObject,
  type StatsRow,
  type ZapRow,
} from './data.ts';
import { hiddenFor as moderationHidden, isEventHidden } from '../moderation/hidden.ts';
import { extractRefs, firstETag } from './refs.ts';
import { CacheKind } from '../../core/kinds.ts';

/** How deep references of references are followed. */
const REF_DEPTH = 3;
const TOP_ZAPS = 5;
const STAT_KINDS = new Set([1, 30023]);

export interface FeedItem {
  id: string;
  key: number;
}

/**
 * Collects reply objects, dropping exact repeats: raw events by id, synthetic objects by
 * their whole JSON. One Output can span several bundles (thread_view sends two).
 */
export class Output {
  readonly objects: CacheObject[] = [];
  private readonly seen = new Set<string>();

  push(obj: CacheObject): void {
    // Each bundle's RANGE belongs to it, even when two bundles' ranges look alike.
    if (obj.kind === CacheKind.RANGE) {
      this.objects.push(obj);
      return;
    }
    const key = dedupKey(obj);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.objects.push(obj);
  }
}

/**
 * Keys of frozen objects (cached events, their referenced-event wrappers, counters, zaps, media),
 * which many replies carry: each key is built once and, being the same string every time, hashed
 * once by the Set. Under `npm run load` Output.push was ~9 % of the main thread on feed pages.
 */
const frozenKeys = new WeakMap<CacheObject, string>();

function dedupKey(obj: CacheObject): string {
  const frozen = Object.isFrozen(obj);
  let key = frozen ? frozenKeys.get(obj) : undefined;
  if (key !== undefined) return key;
  key = typeof obj.id === 'string' && typeof obj.sig === 'string' ? `raw:${obj.id}` : flatKey(obj);
  if (frozen) frozenKeys.set(obj, key);
  return key;
}

/**
 * A key equal for two objects exactly when their JSON is: each field's name and value with their
 * lengths, so no two objects share one. Synthetic objects carry their payload as JSON text already,
 * and JSON.stringify of the whole object escaped that text again for every object of every reply
 * (3 % of the main thread under `npm run load`). Nested values fall back to the JSON itself.
 */
function flatKey(obj: CacheObject): string {
  let key = '';
  for (const name in obj) {
    const v = obj[name];
    if (v === undefined) continue;
    if (typeof v === 'string') key += `${name.length}:${name}s${v.length}:${v}`;
    else if (typeof v === 'number' && Number.isFinite(v)) key += `${name.length}:${name}n${v};`;
    else return `J${JSON.stringify(obj)}`;
  }
  return key;
}

/**
 * The reply object of a frozen (cached: hot-cache.ts, data.ts) row, made once and frozen too, so its
 * JSON text (framing.ts) and dedup key (dedupKey) are made once for every reply that carries it instead
 * of for every note of every page; a row not frozen gets a fresh object. A changed row is a new row
 * object, so it gets a new reply object.
 */
function madeOnce<Row extends object>(made: WeakMap<Row, CacheObject>, row: Row, make: () => CacheObject): CacheObject {
  if (!Object.isFrozen(row)) return make();
  let obj = made.get(row);
  if (!obj) made.set(row, (obj = Object.freeze(make())));
  return obj;
}

const referencedObjects = new WeakMap<NostrEvent, CacheObject>();
const statsObjects = new WeakMap<StatsRow, CacheObject>();
const zapObjects = new WeakMap<ZapFields, CacheObject>();
/** A zap as the zaps table holds it (ZapRow, or a zap list's row, whose target may be a profile: null). */
type ZapFields = Omit<ZapRow, 'target_event_id'> & { target_event_id: string | null };

/** A stored event as a referenced-event object. */
export function referenced(ev: NostrEvent): CacheObject {
  return madeOnce(referencedObjects, ev, () => synthetic(CacheKind.REFERENCED_EVENT, ev, { pubkey: ev.pubkey }));
}

function noteStats(row: StatsRow): CacheObject {
  return madeOnce(statsObjects, row, () => synthetic(CacheKind.NOTE_STATS, { ...row, bookmarks: 0 }));
}

/** A zap's 10000129 object. */
export function zapInfo(z: ZapFields): CacheObject {
  return madeOnce(zapObjects, z, () =>
    synthetic(CacheKind.ZAP_INFO, {
      event_id: z.target_event_id,
      created_at: z.created_at,
      sender: z.sender,
      receiver: z.receiver,
      amount_sats: z.amount_sats,
      zap_receipt_id: z.receipt_id,
    }),
  );
}

export function synthetic(kind: number, content: unknown, extra: CacheObject = {}): CacheObject {
  return { kind, ...extra, content: JSON.stringify(content) };
}

export function range(orderBy: string, items: FeedItem[]): CacheObject {
  if (!items.length) return synthetic(CacheKind.RANGE, { order_by: orderBy, elements: [] });
  let since = Infinity;
  let until = -Infinity;
  for (const it of items) {
    since = Math.min(since, it.key);
    until = Math.max(until, it.key);
  }
  return synthetic(CacheKind.RANGE, { since, until, order_by: orderBy, elements: items.map((i) => i.id) });
}

/** Removes repeated ids (keeping the first key) and orders by key, newest/highest first unless asc. */
export function orderItems(items: FeedItem[], direction: 'desc' | 'asc' = 'desc'): FeedItem[] {
  const byId = new Map<string, FeedItem>();
  for (const it of items) if (!byId.has(it.id)) byId.set(it.id, it);
  const sign = direction === 'desc' ? -1 : 1;
  return [...byId.values()].sort((a, b) => sign * (a.key - b.key) || (a.id < b.id ? sign : -sign));
}

export interface EnrichOptions {
  viewer?: string;
  orderBy: string;
  direction?: 'desc' | 'asc';
  out?: Output;
  /** Leave the RANGE out (the caller adds its own or wants none). */
  noRange?: boolean;
}

/** A repost whose target we never stored may carry it in its content; trust it only if it verifies. */
function embeddedRepostTarget(ev: NostrEvent, target: string): NostrEvent | undefined {
  if (!ev.content.startsWith('{')) return undefined;
  try {
    const inner = JSON.parse(ev.content) as NostrEvent;
    if (inner && inner.id === target && verifyEvent(inner)) return inner;
  } catch {
    // Not JSON: a plain repost.
  }
  return undefined;
}

export async function enrich(db: Queryable, items: FeedItem[], opts: EnrichOptions): Promise<Output> {
  const out = opts.out ?? new Output();
  const ordered = orderItems(items, opts.direction);
  // Mutes, subscribed mute lists and the spam/nsfw groups (server/moderation), for feeds and threads.
  const hidden = await moderationHidden(db, opts.viewer, 'content');
  const isHidden = (ev: NostrEvent) => isEventHidden(hidden, ev);

  // The importer removes what authors delete, so every stored event is live.
  const primaryEvents = await eventsByIds(db, ordered.map((i) => i.id));

  // Walk references level by level so each level is one batch of queries.
  const known = new Map<string, NostrEvent>();
  const refs: NostrEvent[] = [];
  const mentionedPubkeys = new Set<string>();
  const resolvedAddresses = new Set<string>();
  let frontier: NostrEvent[] = [];
  const candidates = ordered.filter((i) => {
    const ev = primaryEvents.get(i.id);
    if (!ev || isHidden(ev)) return false;
    // A repost names the reposted author in its p tag; reposting someone you muted does not bring them back.
    if (ev.kind === 6 || ev.kind === 16) return !ev.tags.some((t) => t[0] === 'p' && hidden.pubkeys.has(t[1]));
    return true;
  });
  for (const it of candidates) {
    const ev = primaryEvents.get(it.id)!;
    known.set(ev.id, ev);
    frontier.push(ev);
  }
  for (let depth = 1; depth <= REF_DEPTH + 1 && frontier.length; depth++) {
    const wantIds = new Set<string>();
    const wantAddrs: Address[] = [];
    for (const ev of frontier) {
      const r = extractRefs(ev);
      for (const p of r.pubkeys) mentionedPubkeys.add(p);
      if (depth > REF_DEPTH) continue;
      for (const id of r.ids) if (!known.has(id)) wantIds.add(id);
      for (const a of r.addresses) {
        const key = addressKey(a);
        if (!resolvedAddresses.has(key)) {
          resolvedAddresses.add(key);
          wantAddrs.push(a);
        }
      }
    }
    if (depth > REF_DEPTH) break;
    const found = await eventsByIds(db, wantIds);
    const byAddr = await eventsByAddress(db, wantAddrs);
    for (const ev of frontier) {
      if (ev.kind !== 6 && ev.kind !== 16) continue;
      const target = firstETag(ev);
      if (target && !found.has(target) && !known.has(target)) {
        const inner = embeddedRepostTarget(ev, target);
        if (inner) found.set(inner.id, inner);
      }
    }
    const next: NostrEvent[] = [];
    for (const ev of [...found.values(), ...byAddr.values()]) {
      if (known.has(ev.id) || isHidden(ev)) continue;
      known.set(ev.id, ev);
      refs.push(ev);
      next.push(ev);
    }
    frontier = next;
  }

  // A repost of something its author deleted is dropped with it (S §2.2 step 3).
  const repostTargets = new Map<string, string>();
  for (const it of candidates) {
    const ev = primaryEvents.get(it.id)!;
    const target = ev.kind === 6 || ev.kind === 16 ? firstETag(ev) : undefined;
    if (target && !known.has(target)) repostTargets.set(ev.id, target);
  }
  const deletions = await tombstones(db, repostTargets.values());
  const primaries = candidates.filter((it) => {
    const target = repostTargets.get(it.id);
    if (!target) return true;
    const author = primaryEvents.get(it.id)!.tags.find((t) => t[0] === 'p')?.[1];
    const by = deletions.get(target);
    return !(by && (author === undefined || by.has(author)));
  });
  const primaryIds = new Set(primaries.map((p) => p.id));
  const emitted = [...primaries.map((p) => primaryEvents.get(p.id)!), ...refs.filter((r) => !primaryIds.has(r.id))];

  const posts = emitted.filter((e) => STAT_KINDS.has(e.kind));
  const postIds = posts.map((e) => e.id);
  const stats = await statsByIds(db, postIds);
  const actions = opts.viewer ? await actionsOf(db, opts.viewer, postIds) : new Map();
  const zaps = await topZaps(db, postIds, TOP_ZAPS);
  const receipts = await eventsByIds(db, zaps.map((z) => z.receipt_id));

  const wantProfiles: string[] = [];
  for (const e of emitted) wantProfiles.push(e.pubkey);
  wantProfiles.push(...mentionedPubkeys);
  for (const z of zaps) wantProfiles.push(z.sender, z.receiver);
  const profiles = await profilesOf(db, wantProfiles);
  const followers = await followerCounts(db, profiles.keys());

  for (const p of primaries) out.push(primaryEvents.get(p.id)! as unknown as CacheObject);
  for (const r of refs) out.push(referenced(r));
  const emittedProfiles: string[] = [];
  for (const pk of new Set(wantProfiles)) {
    const prof = profiles.get(pk);
    if (!prof) continue;
    out.push(prof as unknown as CacheObject);
    emittedProfiles.push(pk);
  }

  const zapsByEvent = new Map<string, typeof zaps>();
  for (const z of zaps) {
    const list = zapsByEvent.get(z.target_event_id) ?? [];
    list.push(z);
    zapsByEvent.set(z.target_event_id, list);
  }
  for (const e of posts) {
    out.push(noteStats(stats.get(e.id) ?? emptyStats(e.id)));
    const act = actions.get(e.id);
    if (act) out.push(synthetic(CacheKind.NOTE_ACTIONS, act));
    for (const z of zapsByEvent.get(e.id) ?? []) {
      const receipt = receipts.get(z.receipt_id);
      if (receipt) out.push(receipt as unknown as CacheObject);
      out.push(zapInfo(z));
    }
    if (e.kind === 30023) out.push(synthetic(CacheKind.WORD_COUNT, { event_id: e.id, words: wordCount(e.content) }));
  }

  // Media and link previews of every emitted note, repost and profile (S §2.2 step 3).
  const withMedia: NostrEvent[] = [...emitted];
  for (const pk of emittedProfiles) withMedia.push(profiles.get(pk)!);
  for (const obj of await mediaAndLinkMetadata(db, withMedia)) out.push(obj);

  const scores: Record<string, number> = {};
  for (const pk of emittedProfiles) scores[pk] = followers.get(pk) ?? 0;
  out.push(synthetic(CacheKind.USER_SCORES, scores));
  out.push(synthetic(CacheKind.EVENT_RELAYS, {}));
  for (const list of await mediaServerListsOf(db, emittedProfiles)) out.push(list as unknown as CacheObject);
  if (!opts.noRange) out.push(range(opts.orderBy, primaries));
  return out;
}
