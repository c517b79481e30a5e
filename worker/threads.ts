/**
 * Runs machines/thread.ts in the worker: thread_view for notes and long_form_content_thread_view
 * for articles (protocol S §3.1), read into parents, the focused note and the replies.
 */
import { createActor, fromPromise, type Actor } from 'xstate';
import { threadMachine, threadNotes, threadStatusOf, type FetchThreadInput, type ThreadPage, type UnresolvedRepost } from '../machines/thread.ts';
import { isNostrEvent, K, parseBundle } from '../core/bundle.ts';
import type { CacheRequest } from './util/cacheRequest.ts';
import { InstanceRegistry } from './instances.ts';
import { NO_FILTER, visibleNotes, withOwnReplies, type FeedViewContext, type ViewerFilter } from './feedView.ts';
import type { OwnNotes } from './ownNotes.ts';
import { emptyProfile, parseProfile } from '../core/profile.ts';
import type { CacheObject, FeedNote, NostrEvent, ThreadSnapshot, ThreadTarget } from '../core/types.ts';
import { CacheKind } from '../core/kinds.ts';

const REPOSTS = new Set<number>([K.REPOST, K.GENERIC_REPOST]);

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function coordinate(e: NostrEvent): string {
  return `${e.kind}:${e.pubkey}:${e.tags.find((t) => t[0] === 'd')?.[1] ?? ''}`;
}

function targetKey(target: ThreadTarget): string {
  return target.type === 'note' ? target.id : `${target.kind}:${target.pubkey}:${target.identifier}`;
}

/**
 * A thread answer to a ThreadPage. thread_view sends the replies' bundle with its RANGE, then the
 * parent chain (ending with the focused note) with another; the article view sends the article,
 * then the replies with their RANGE. Which RANGE is which is told by whether it holds the focus.
 */
export function parseThread(objects: CacheObject[], target: ThreadTarget): ThreadPage {
  const ranges: string[][] = [];
  const rest: CacheObject[] = [];
  for (const o of objects) {
    if (o.kind !== CacheKind.RANGE) {
      rest.push(o);
      continue;
    }
    const c = parseJson(o.content) as { elements?: unknown } | undefined;
    ranges.push(Array.isArray(c?.elements) ? c.elements.filter((x): x is string => typeof x === 'string') : []);
  }
  // Without RANGEs parseBundle lists every top-level card; the order is rebuilt from the ranges.
  const bundle = parseBundle(rest);
  const notes: Record<string, FeedNote> = {};
  for (const n of bundle.notes) notes[n.key] = n;

  const want = targetKey(target);
  let focus: string | undefined = notes[want] ? want : undefined;
  if (!focus && target.type === 'article') {
    focus = bundle.notes.find((n) => n.event.kind >= 30000 && n.event.kind < 40000 && coordinate(n.event) === want)?.key;
  }

  const chain = focus !== undefined ? ranges.find((r) => r.includes(focus)) : undefined;
  const parents = chain ? chain.slice(0, chain.indexOf(focus as string)).filter((k) => k !== focus) : [];
  const exclude = new Set([...parents, focus]);
  const replyRange = ranges.find((r) => r !== chain);
  let replies: string[];
  if (replyRange) replies = replyRange.filter((k) => !exclude.has(k));
  else {
    // No RANGE to go by: direct replies to the focus, newest first.
    replies = bundle.notes
      .filter((n) => focus !== undefined && n.replyTo?.id === notes[focus]?.event.id && !exclude.has(n.key))
      .sort((a, b) => b.event.created_at - a.event.created_at)
      .map((n) => n.key);
  }

  // Reposts in the ranges whose reposted note the answer did not carry: resolved after EOSE.
  const unresolved: UnresolvedRepost[] = [];
  const byId = new Map<string, NostrEvent>();
  const profiles = new Map<string, ReturnType<typeof parseProfile>>();
  for (const o of rest) {
    if (!isNostrEvent(o)) continue;
    if (o.kind === K.METADATA) profiles.set(o.pubkey, parseProfile(o));
    else byId.set(o.id, o);
  }
  for (const key of [...parents, ...replies]) {
    const e = byId.get(key);
    if (notes[key] || !e || !REPOSTS.has(e.kind)) continue;
    const target = e.tags.find((t) => t[0] === 'e')?.[1];
    if (target) unresolved.push({ key, target, repostedBy: profiles.get(e.pubkey) ?? emptyProfile(e.pubkey), repostedAt: e.created_at });
  }
  return { parents, focus, replies, notes, unresolved };
}

export async function fetchThread(request: CacheRequest, input: FetchThreadInput): Promise<ThreadPage> {
  const { target } = input;
  const viewer = input.userPubkey ? { user_pubkey: input.userPubkey } : {};
  const reply =
    target.type === 'note'
      ? await request('thread_view', { event_id: target.id, limit: input.limit, ...viewer })
      : await request('long_form_content_thread_view', { pubkey: target.pubkey, kind: target.kind, identifier: target.identifier, limit: input.limit, ...viewer });
  if (reply.notice !== undefined) throw new Error(reply.notice);
  return parseThread(reply.events, target);
}

/** The reposted notes, by id, from `events` with the full bundle. */
export async function resolveReposts(request: CacheRequest, ids: string[], userPubkey?: string): Promise<Record<string, FeedNote>> {
  const reply = await request('events', { event_ids: ids, extended_response: true, ...(userPubkey ? { user_pubkey: userPubkey } : {}) });
  if (reply.notice !== undefined) throw new Error(reply.notice);
  const out: Record<string, FeedNote> = {};
  for (const n of parseBundle(reply.events).notes) out[n.event.id] = n;
  return out;
}

function snapshotOf(actor: Actor<typeof threadMachine>, { own, filter }: FeedViewContext): ThreadSnapshot {
  const snap = actor.getSnapshot();
  const c = snap.context;
  const note = c.focus !== undefined ? c.notes[c.focus] : undefined;
  const out: ThreadSnapshot = {
    target: c.target,
    status: threadStatusOf(snap),
    parents: threadNotes(c, c.parents),
    // A reply written in any tab shows here at once (worker/feedView.ts).
    // Muted people's replies leave the list (and its count); a thread opened on purpose keeps its own thread.
    replies: visibleNotes(withOwnReplies(note, threadNotes(c, c.replies), own), { muted: filter.muted, mutedThreads: NO_FILTER.mutedThreads }),
  };
  if (note) out.note = note;
  if (c.error !== undefined) out.error = c.error;
  return out;
}

export interface ThreadServiceOptions {
  request: CacheRequest;
  viewer: () => string | undefined;
  throttleMs?: number;
  own?: OwnNotes;
  filter?: () => ViewerFilter;
}

export class ThreadService {
  private readonly pages: InstanceRegistry<Actor<typeof threadMachine>, ThreadSnapshot>;
  private readonly machine;

  constructor(private readonly options: ThreadServiceOptions) {
    const { request } = options;
    this.machine = threadMachine.provide({
      actors: {
        fetchThread: fromPromise<ThreadPage, FetchThreadInput>(({ input }) => fetchThread(request, input)),
        resolveReposts: fromPromise<Record<string, FeedNote>, { ids: string[]; userPubkey?: string }>(({ input }) =>
          resolveReposts(request, input.ids, input.userPubkey),
        ),
      },
    });
    const own = options.own;
    this.pages = new InstanceRegistry((actor) => snapshotOf(actor, { own: own?.all ?? [], filter: options.filter?.() ?? NO_FILTER }), options.throttleMs);
    own?.watch(() => this.pages.refresh());
  }

  /** The mutes changed: open threads show their replies again through them. */
  refresh(): void {
    this.pages.refresh();
  }

  open(tabId: string, target: ThreadTarget, cb: (s: ThreadSnapshot) => unknown, release: () => void): number {
    return this.pages.open(tabId, createActor(this.machine, { input: { target, userPubkey: this.options.viewer() } }), cb, release);
  }

  /** Open threads fetched for another viewer are fetched again for this one. */
  setViewer(userPubkey: string | undefined): void {
    this.pages.forEach((actor) => actor.send({ type: 'SET_VIEWER', userPubkey }));
  }

  reload(handle: number, target?: ThreadTarget): void {
    this.pages.get(handle)?.send({ type: 'LOAD', target });
  }

  close(handle: number): void {
    this.pages.close(handle);
  }

  closeTab(tabId: string): void {
    this.pages.closeTab(tabId);
  }

  dispose(): void {
    this.pages.dispose();
  }
}
