/**
 * Plain Nostr-filter shortcuts on the cache socket (S §1.1): `{ids}` works like `events`,
 * and `{since, until, limit, idsonly}` lists stored events by time and then receives every
 * newly imported event. Author and kind filters belong on the relay, not here.
 *
 * That live listing is a firehose of everything the server stores, so it is the operator's only:
 * the filter carries `event_from_user`, a kind-30078 event with `["d", "strucc-firehose"]` signed
 * by OPERATOR_PUBKEY within the last five minutes.
 */
import type { NostrEvent, ServerContext } from '../context.ts';
import type { SqlValue } from '../store/db.ts';
import { Args, CommandError } from './args.ts';
import type { CacheObject } from './data.ts';
import type { Filter } from './framing.ts';
import { plainSearchDelegate } from '../search/shortcut.ts';
import { verifyUserEvent } from './signed.ts';
import { CacheKind } from '../../core/kinds.ts';

export interface PlainResult {
  objects: CacheObject[];
  /** Set when the subscription should receive live pushes. */
  live?: { idsonly: boolean };
  /** Run this cache command instead (the `ids` shortcut). */
  delegate?: { command: string; kwargs: Record<string, unknown> };
}

export async function runPlainFilter(filter: Filter, ctx: ServerContext): Promise<PlainResult> {
  const search = plainSearchDelegate(filter);
  if (search) return { objects: [], delegate: search };
  if (filter.kinds !== undefined || filter.authors !== undefined) {
    throw new CommandError('kinds or authors filter is not supported');
  }
  if (filter.search !== undefined) throw new CommandError('search filter is not supported');
  if (filter.ids !== undefined) return { objects: [], delegate: { command: 'events', kwargs: { event_ids: filter.ids } } };
  for (const key of Object.keys(filter)) {
    if (!['since', 'until', 'limit', 'idsonly', 'event_from_user'].includes(key)) throw new CommandError(`unsupported filter field: ${key}`);
  }
  await assertOperator(filter.event_from_user, ctx);
  const args = new Args(filter);
  const since = args.optBound('since');
  const until = args.optBound('until');
  const idsonly = args.bool('idsonly', false);
  const limit = args.limit(20);
  const params: SqlValue[] = [];
  let where = '1 = 1';
  if (since !== undefined) {
    where += ' AND created_at >= ?';
    params.push(since);
  }
  if (until !== undefined) {
    where += ' AND created_at <= ?';
    params.push(until);
  }
  const rows = await ctx.db.all<Record<string, unknown>>(
    `SELECT id, pubkey, created_at, kind, tags, content, sig FROM events WHERE ${where}
     ORDER BY created_at DESC, id ASC LIMIT ?`,
    [...params, limit],
  );
  if (idsonly) return { objects: [{ kind: CacheKind.EVENT_IDS, ids: rows.map((r) => r.id) }], live: { idsonly } };
  const objects = rows.map((r) => ({
    id: r.id,
    pubkey: r.pubkey,
    created_at: Number(r.created_at),
    kind: Number(r.kind),
    tags: safeTags(r.tags),
    content: r.content,
    sig: r.sig,
  }));
  return { objects, live: { idsonly } };
}

export const FIREHOSE_D_TAG = 'strucc-firehose';
const FIREHOSE_MAX_AGE_SECONDS = 300;

async function assertOperator(raw: unknown, ctx: ServerContext): Promise<void> {
  const refusal = 'blocked: the live event stream is only for the operator';
  const operator = ctx.config.operatorPubkey;
  if (!operator || raw === undefined) throw new CommandError(refusal);
  const now = ctx.now();
  const event = await verifyUserEvent(raw, { kinds: [30078], now });
  if (typeof event === 'string') throw new CommandError(event);
  const fresh = Math.abs(now - event.created_at) <= FIREHOSE_MAX_AGE_SECONDS;
  const meant = event.tags.some((t) => t[0] === 'd' && t[1] === FIREHOSE_D_TAG);
  if (event.pubkey !== operator || !fresh || !meant) throw new CommandError(refusal);
}

function safeTags(raw: unknown): unknown {
  try {
    return JSON.parse(String(raw));
  } catch {
    return [];
  }
}

type LiveListener = (ev: NostrEvent) => void;
const hubs = new WeakMap<ServerContext, Set<LiveListener>>();

/**
 * One listener per server on ctx.live fans out to every live subscription, so a thousand
 * sockets do not mean a thousand emitter listeners.
 */
export function subscribeLive(ctx: ServerContext, listener: LiveListener): () => void {
  let set = hubs.get(ctx);
  if (!set) {
    const listeners = new Set<LiveListener>();
    set = listeners;
    hubs.set(ctx, listeners);
    ctx.live.on('event', (ev: NostrEvent) => {
      for (const l of listeners) {
        try {
          l(ev);
        } catch {
          // One broken socket must not stop pushes to the others.
        }
      }
    });
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function livePush(ev: NostrEvent, idsonly: boolean): CacheObject {
  return idsonly ? { kind: CacheKind.EVENT_IDS, ids: [ev.id] } : (ev as unknown as CacheObject);
}
