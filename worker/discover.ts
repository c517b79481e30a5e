/**
 * The explore and search part of the worker API (cache-protocol S §3.3, §3.4, §3.7): people
 * gaining followers, the biggest zaps, the day's hashtags and the name search, parsed here so
 * the tabs receive plain Profile and FeedNote objects.
 */
import { K, parseBundle } from '../core/bundle.ts';
import type { CacheRequest } from './feeds.ts';
import { emptyProfile } from '../core/profile.ts';
import { zapFromInfo, zapFromReceipt } from '../core/zaps.ts';
import type { CacheObject, ExplorePage, ExplorePerson, ExploreTopic, ExploreZap, FeedNote, NostrEvent, Profile, StruccApi } from '../core/types.ts';
import { isNostrEvent } from '../core/bundle.ts';
import { CacheKind } from '../core/kinds.ts';

const MAX_EXPLORE_LIMIT = 50;

export type DiscoverApi = Required<Pick<StruccApi, 'explorePeople' | 'exploreZaps' | 'exploreTopics' | 'searchUsers'>>;

function json(o: CacheObject | undefined): unknown {
  if (!o || typeof o.content !== 'string') return undefined;
  try {
    return JSON.parse(o.content);
  } catch {
    return undefined;
  }
}

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function rangeElements(objects: CacheObject[]): string[] {
  const elements = record(json(objects.find((o) => o.kind === CacheKind.RANGE))).elements;
  return Array.isArray(elements) ? elements.filter((e): e is string => typeof e === 'string') : [];
}

/** Offset paging: the sort keys (follower gain, zap amount) repeat, so an `until` bound would repeat rows. */
function pageArgs(page: { limit?: number; offset?: number }, fallback: number): { limit: number; offset: number } {
  const limit = Math.min(MAX_EXPLORE_LIMIT, Math.max(1, Math.floor(page.limit ?? fallback)));
  return { limit, offset: Math.max(0, Math.floor(page.offset ?? 0)) };
}

/** explore_people: 10000157 gains, the user_infos profiles, RANGE(increase) giving the order. */
export function parsePeople(objects: CacheObject[]): ExplorePerson[] {
  const gains = record(json(objects.find((o) => o.kind === CacheKind.FOLLOWER_INCREASES)));
  const { profiles } = parseBundle(objects.filter((o) => o.kind !== CacheKind.RANGE));
  const order = rangeElements(objects);
  const keys = order.length ? order : Object.keys(gains);
  const out: ExplorePerson[] = [];
  for (const pubkey of keys) {
    const gain = record(gains[pubkey]);
    const profile = profiles[pubkey] ?? emptyProfile(pubkey);
    const increase = Number(gain.increase);
    const count = Number(gain.count);
    out.push({
      profile,
      increase: Number.isFinite(increase) ? increase : 0,
      followers: profile.followers ?? (Number.isFinite(count) ? count : 0),
    });
  }
  return out;
}

/** The zap request's comment, from the receipt's description tag (NIP-57), whatever the invoice says. */
function zapMessage(receipt: NostrEvent | undefined): string {
  const description = receipt?.tags.find((t) => t[0] === 'description')?.[1];
  if (!description) return '';
  try {
    const request = JSON.parse(description) as { content?: unknown };
    return typeof request.content === 'string' ? request.content : '';
  } catch {
    return '';
  }
}

/** explore_zaps: receipts with their 10000129 readings, the senders' and receivers' kind 0s, and the zapped posts. */
export function parseZaps(objects: CacheObject[]): ExploreZap[] {
  const withoutRange = objects.filter((o) => o.kind !== CacheKind.RANGE);
  const { notes, profiles } = parseBundle(withoutRange);
  const noteById = new Map<string, FeedNote>(notes.map((n) => [n.event.id, n]));
  const receipts = new Map<string, NostrEvent>();
  const infos = new Map<string, Record<string, unknown>>();
  for (const o of objects) {
    if (o.kind === K.ZAP && isNostrEvent(o)) receipts.set(o.id, o);
    if (o.kind === CacheKind.ZAP_INFO) {
      const c = record(json(o));
      if (typeof c.zap_receipt_id === 'string') infos.set(c.zap_receipt_id, c);
    }
  }
  const order = rangeElements(objects);
  const ids = order.length ? order : [...receipts.keys()];
  const out: ExploreZap[] = [];
  for (const id of ids) {
    const receipt = receipts.get(id);
    const info = infos.get(id);
    const fromReceipt = receipt ? zapFromReceipt(receipt) : undefined;
    const fromInfo = info ? zapFromInfo({ kind: CacheKind.ZAP_INFO, content: JSON.stringify(info) }) : undefined;
    const zap = fromInfo ?? fromReceipt;
    if (!zap) continue;
    const sender = fromInfo?.pubkey || fromReceipt?.pubkey || '';
    const receiver = typeof info?.receiver === 'string' ? info.receiver : receipt?.tags.find((t) => t[0] === 'p')?.[1] ?? '';
    const createdAt = Number(info?.created_at ?? receipt?.created_at ?? 0);
    out.push({
      id,
      amount: zap.amount,
      message: zapMessage(receipt) || fromReceipt?.message || fromInfo?.message || '',
      created_at: Number.isFinite(createdAt) ? createdAt : 0,
      sender: profiles[sender] ?? emptyProfile(sender),
      receiver: profiles[receiver] ?? emptyProfile(receiver),
      note: noteById.get(zap.eventId),
    });
  }
  return out;
}

/** explore_topics: a 10000160 {hashtag: count}, biggest first. */
export function parseTopics(objects: CacheObject[]): ExploreTopic[] {
  const counts = record(json(objects.find((o) => o.kind === CacheKind.TOPICS)));
  return Object.entries(counts)
    .map(([tag, count]) => ({ tag, count: Number(count) }))
    .filter((t) => t.tag && Number.isFinite(t.count))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag, 'hu'));
}

/** user_search: the matching kind 0s, most followed first (the server's order, kept when counts tie). */
export function parseUsers(objects: CacheObject[]): Profile[] {
  const { profiles } = parseBundle(objects);
  const order: string[] = [];
  for (const o of objects) if (o.kind === K.METADATA && isNostrEvent(o) && !order.includes(o.pubkey)) order.push(o.pubkey);
  return order.map((pk) => profiles[pk]).filter((p): p is Profile => !!p);
}

export interface DiscoverOptions {
  request: CacheRequest;
  /** The viewer explore personalises for (the signed-in user, else none). */
  viewer?: () => string | undefined;
}

/** A NOTICE is the server's answer (spec §8): an empty page, not an error. */
async function objectsOf(request: CacheRequest, command: string, payload: Record<string, unknown>): Promise<CacheObject[]> {
  const reply = await request(command, payload);
  if (reply.notice === 'timeout') throw new Error('timeout');
  return reply.notice !== undefined ? [] : reply.events;
}

export function createDiscover({ request, viewer }: DiscoverOptions): DiscoverApi {
  const withViewer = (payload: Record<string, unknown>, userPubkey?: string) => {
    const pk = userPubkey ?? viewer?.();
    return pk ? { ...payload, user_pubkey: pk } : payload;
  };
  return {
    async explorePeople(page = {}, userPubkey) {
      const args = pageArgs(page, 10);
      const people = parsePeople(await objectsOf(request, 'explore_people', withViewer(args, userPubkey)));
      return { items: people, hasMore: people.length >= args.limit } satisfies ExplorePage<ExplorePerson>;
    },
    async exploreZaps(page = {}, userPubkey) {
      const args = pageArgs(page, 20);
      const zaps = parseZaps(await objectsOf(request, 'explore_zaps', withViewer(args, userPubkey)));
      return { items: zaps, hasMore: zaps.length >= args.limit } satisfies ExplorePage<ExploreZap>;
    },
    async exploreTopics() {
      return parseTopics(await objectsOf(request, 'explore_topics', {}));
    },
    async searchUsers(query, limit = 10) {
      const term = query.trim();
      if (!term) return [];
      return parseUsers(await objectsOf(request, 'user_search', { query: term, limit: Math.min(100, Math.max(1, limit)) }));
    },
  };
}
