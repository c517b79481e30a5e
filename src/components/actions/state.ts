/**
 * What the viewer has just done to notes, before the server's next answer knows it: likes,
 * reposts and bookmarks shown at once (and rolled back on failure), and notes deleted in this
 * session. Deletions and reposts also reach the other tabs of the same browser.
 */
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import hu from '../../../locales/hu/actions.json';
import en from '../../../locales/en/actions.json';
import i18n, { registerNamespace } from '../../i18n';
import type { FeedNote, NostrEvent, NoteStats, Profile, ZapResult } from '../../../core/types';
import { accountAction, useAccount } from '../../lib/account';
import { bookmarkTag, coordinateOf, hasBookmark, plainEvent, shownStats, type ViewerState } from '../../lib/noteActions';
import { payWithWebln, weblnPays } from '../../lib/webln';
import { Comlink, connect } from '../../worker-client';
import { toastError } from '../../lib/toast';

// The card's own strings are few; the menu and the dialogs bring theirs in their own chunk.
registerNamespace('actions', { hu, en });
export const ACTIONS_NS = 'actions';

interface Pending {
  liked?: boolean;
  reposted?: boolean;
  bookmarked?: boolean;
  /** The bookmark change was published; the entry goes once the account record shows it. */
  bookmarkDone?: boolean;
  /** Sats of zaps sent from this tab that the server's count does not show yet, over `zapBase`. */
  zapSats?: number;
  zapCount?: number;
  /** The server's satszapped when the first of those zaps was sent. */
  zapBase?: number;
}

let pending = new Map<string, Pending>();
let deleted = new Set<string>();
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

type Message = { type: 'deleted'; id: string } | { type: 'reposted'; id: string };

const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('strucc-note-actions');
channel?.addEventListener('message', (e: MessageEvent<Message>) => {
  if (e.data?.type === 'deleted') hideDeleted(e.data.id, false);
  if (e.data?.type === 'reposted') setPending(e.data.id, { reposted: true }, false);
});

function setPending(id: string, patch: Pending, share = true): void {
  const next = new Map(pending);
  const merged = { ...(next.get(id) ?? {}), ...patch };
  for (const key of Object.keys(merged) as (keyof Pending)[]) if (merged[key] === undefined) delete merged[key];
  if (Object.keys(merged).length === 0) next.delete(id);
  else next.set(id, merged);
  pending = next;
  emit();
  if (share && patch.reposted) channel?.postMessage({ type: 'reposted', id } satisfies Message);
}

export function hideDeleted(id: string, share = true): void {
  if (deleted.has(id)) return;
  deleted = new Set(deleted).add(id);
  emit();
  if (share) channel?.postMessage({ type: 'deleted', id } satisfies Message);
}

export function markReposted(id: string, reposted: boolean | undefined): void {
  setPending(id, { reposted });
}

export function useDeletedNotes(): ReadonlySet<string> {
  return useSyncExternalStore(subscribe, () => deleted, () => deleted);
}

function usePending(): Map<string, Pending> {
  return useSyncExternalStore(subscribe, () => pending, () => pending);
}

export interface NoteViewer extends ViewerState {
  bookmarked: boolean;
  stats: NoteStats;
}

/** The viewer's state of one note: the server's flags, the account record, then this tab's pending changes. */
export function useNoteViewer(note: FeedNote): NoteViewer {
  const account = useAccount()?.account;
  const local = usePending().get(note.event.id);
  const server = note.actions;
  const liked = local?.liked ?? (!!server?.liked || !!account?.likes.includes(note.event.id));
  const reposted = local?.reposted ?? !!server?.reposted;
  const recordBookmarked = hasBookmark(account?.bookmarks, bookmarkTag(note.event));
  const bookmarked = local?.bookmarked ?? recordBookmarked;
  const bookmarkSettled = !!local?.bookmarkDone && local.bookmarked === recordBookmarked;
  useEffect(() => {
    if (bookmarkSettled) setPending(note.event.id, { bookmarked: undefined, bookmarkDone: undefined });
  }, [bookmarkSettled, note.event.id]);
  const zap = useZapPending(note.event.id, note.stats.satszapped);
  const viewer: ViewerState = { liked, reposted, replied: !!server?.replied, zapped: !!server?.zapped || zap.zapping };
  const stats = shownStats(note.stats, server, viewer);
  if (zap.zapping) {
    stats.satszapped = zap.sats;
    stats.zaps += zap.count;
  }
  return { ...viewer, bookmarked, stats };
}

/** Spec §4 Like: a kind 7 '+'; a second like of the same note is ignored by the account. */
export async function likeNote(note: FeedNote, alreadyLiked: boolean): Promise<void> {
  if (alreadyLiked) return;
  const { id, pubkey, kind } = note.event;
  setPending(id, { liked: true });
  const address = coordinateOf(note.event);
  const result = await accountAction({ type: 'like', note: { id, pubkey, kind, ...(address ? { address } : {}) } }).catch(() => ({ ok: false }));
  // A like cannot be taken back, so a published one simply stays marked here.
  if (result.ok) return;
  setPending(id, { liked: undefined });
  toastError(i18n.t('toast.likeFailed', { ns: ACTIONS_NS }));
}

/**
 * The zaps sent from this tab that the server's `serverSats` does not show yet: the sats to show and
 * the count to add. Once the receipts are counted (the server's sum reached them) the local part goes.
 */
export function useZapPending(key: string, serverSats: number): { zapping: boolean; sats: number; count: number } {
  const local = usePending().get(key);
  const settled = local?.zapSats !== undefined && serverSats >= (local.zapBase ?? 0) + local.zapSats;
  useEffect(() => {
    if (settled) setPending(key, { zapSats: undefined, zapCount: undefined, zapBase: undefined });
  }, [settled, key]);
  if (local?.zapSats === undefined || settled) return { zapping: false, sats: serverSats, count: 0 };
  return { zapping: true, sats: Math.max(serverSats, (local.zapBase ?? 0) + local.zapSats), count: local.zapCount ?? 0 };
}

export interface ZapChoice {
  amountSats: number;
  comment: string;
}

/** What is zapped: a note or article (`event`), or a person's profile (no event). */
export interface ZapTarget {
  /** Where the optimistic count is kept: the event id, or `p:` and the pubkey for a profile. */
  key: string;
  /** The server's sats for it when the zap starts. */
  serverSats: number;
  recipient: string;
  lud16: string;
  lud06: string;
  event?: NostrEvent;
}

export function noteZapTarget(note: FeedNote): ZapTarget {
  return { key: note.event.id, serverSats: note.stats.satszapped, recipient: note.event.pubkey, lud16: note.author.lud16, lud06: note.author.lud06, event: note.event };
}

export function profileZapTarget(profile: Pick<Profile, 'pubkey' | 'lud16' | 'lud06'>, serverSats: number): ZapTarget {
  return { key: `p:${profile.pubkey}`, serverSats, recipient: profile.pubkey, lud16: profile.lud16, lud06: profile.lud06 };
}

function rollBack(key: string, sats: number): void {
  const now = pending.get(key);
  const left = (now?.zapSats ?? 0) - sats;
  setPending(key, left > 0 ? { zapSats: left, zapCount: Math.max(0, (now?.zapCount ?? 1) - 1) } : { zapSats: undefined, zapCount: undefined, zapBase: undefined });
}

/**
 * A zap paid by the chosen wallet (worker: LNURL-pay, NIP-57 request, NWC; or WebLN in this tab).
 * The count and the zapped state change at once and roll back with the spec's 'zap fail' toast; a
 * split zap that reached only some recipients keeps their part and says so.
 */
export async function sendZap(target: ZapTarget, choice: ZapChoice): Promise<boolean> {
  const { key } = target;
  if (!target.lud16 && !target.lud06) {
    toastError(i18n.t('toast.cannotZap', { ns: ACTIONS_NS }));
    return false;
  }
  const before = pending.get(key);
  setPending(key, {
    zapBase: before?.zapBase ?? target.serverSats,
    zapSats: (before?.zapSats ?? 0) + choice.amountSats,
    zapCount: (before?.zapCount ?? 0) + 1,
  });
  const api = await connect();
  const input = { recipient: target.recipient, lud16: target.lud16, lud06: target.lud06, amountSats: choice.amountSats, comment: choice.comment, ...(target.event ? { event: plainEvent(target.event) } : {}) };
  const result: ZapResult = await (weblnPays() ? api.zap(input, Comlink.proxy(payWithWebln)) : api.zap(input)).catch(() => ({ status: 'failed' as const, reason: 'failed', paidSats: 0 }));
  if (result.status === 'paid') return true;
  if (result.status === 'partial' && result.parts) {
    rollBack(key, choice.amountSats - result.paidSats);
    const paid = result.parts.filter((p) => p.status === 'paid').length;
    toastError(i18n.t('toast.zapPartial', { ns: ACTIONS_NS, paid, count: result.parts.length }));
    return true;
  }
  rollBack(key, choice.amountSats);
  if (result.reason === 'no-address') toastError(i18n.t('toast.cannotZap', { ns: ACTIONS_NS }));
  else if (result.reason === 'no-wallet') toastError(i18n.t('toast.noWallet', { ns: ACTIONS_NS }));
  else toastError(i18n.t('toast.zapFailed', { ns: ACTIONS_NS }));
  return false;
}

export const zapNote = (note: FeedNote, choice: ZapChoice): Promise<boolean> => sendZap(noteZapTarget(note), choice);

export async function toggleBookmark(note: FeedNote, bookmarked: boolean): Promise<void> {
  const id = note.event.id;
  const tag = bookmarkTag(note.event);
  setPending(id, { bookmarked: !bookmarked, bookmarkDone: undefined });
  const result = await accountAction({ type: bookmarked ? 'unbookmark' : 'bookmark', tag }).catch(() => ({ ok: false }));
  if (result.ok) {
    setPending(id, { bookmarkDone: true });
    return;
  }
  setPending(id, { bookmarked: undefined, bookmarkDone: undefined });
  toastError(i18n.t('toast.bookmarkFailed', { ns: ACTIONS_NS }));
}

/**
 * The notes without those deleted in this session (in any tab of the browser). Mutes, the pill and
 * the notes just published are decided in the worker (worker/feedView.ts) before a list gets here.
 */
export function useVisibleNotes(notes: FeedNote[]): FeedNote[] {
  const gone = useDeletedNotes();
  return useMemo(() => (gone.size === 0 ? notes : notes.filter((n) => !gone.has(n.event.id))), [notes, gone]);
}
