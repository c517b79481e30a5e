/**
 * The account's lists on the cache server (protocol C.2: contact_list, mutelist, mutelists,
 * allowlist, get_bookmarks, membership_status) and the publishing of a list change.
 */
import type { Draft, ListName, RemoteList } from '../machines/accountLists.ts';
import type { PublishOutput } from '../machines/account.ts';
import { AccountError } from '../core/keys.ts';
import type { Signer } from './signer.ts';
import type { CacheObject, CacheReply, MembershipTier, NostrEvent } from '../core/types.ts';

export type CacheRequest = (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;

/** Publishes a signed event: the relay pool's publish service, or the cache server's import. */
export type Publisher = (event: NostrEvent) => Promise<{ success: boolean; reasons: Record<string, string> | string[] }>;

const LIST_QUERY: Record<Exclude<ListName, 'relays'>, { command: string; kind: number; d?: string }> = {
  contacts: { command: 'contact_list', kind: 3 },
  mutes: { command: 'mutelist', kind: 10000 },
  bookmarks: { command: 'get_bookmarks', kind: 10003 },
  mutelists: { command: 'mutelists', kind: 30000, d: 'mutelists' },
  allowlist: { command: 'allowlist', kind: 30000, d: 'allowlist' },
};

function isEvent(o: CacheObject): o is CacheObject & NostrEvent {
  return typeof o.pubkey === 'string' && typeof o.created_at === 'number' && Array.isArray(o.tags) && typeof o.content === 'string';
}

/**
 * The newest matching list event of the reply, or null when the server has none. Before a change
 * (`strict`), an unreadable answer or private part fails: publishing over it would lose entries.
 */
export async function fetchRemoteList(
  request: CacheRequest,
  signer: Signer,
  pubkey: string,
  list: ListName,
  strict = false,
): Promise<RemoteList | null> {
  if (list === 'relays') return null;
  const q = LIST_QUERY[list];
  const payload: Record<string, unknown> = { pubkey };
  if (list !== 'bookmarks') payload.extended_response = false;
  const reply = await request(q.command, payload);
  if (reply.notice !== undefined) throw new Error('fetch-failed');
  const found = reply.events
    .filter(isEvent)
    .filter((e) => e.kind === q.kind && e.pubkey === pubkey && (!q.d || e.tags.some((t) => t[0] === 'd' && t[1] === q.d)))
    .sort((a, b) => b.created_at - a.created_at)[0];
  if (!found) return null;
  const remote: RemoteList = { created_at: found.created_at, tags: found.tags, content: found.content };
  if (list === 'mutes' && found.content !== '') {
    remote.privateTags = await decryptPrivate(signer, pubkey, found.content);
    if (strict && remote.privateTags === undefined) throw new AccountError('decrypt-no-nsec');
  }
  return remote;
}

/** Private mute tags; a list we cannot decrypt (no key, another key's scheme) counts as none. */
async function decryptPrivate(signer: Signer, pubkey: string, content: string): Promise<string[][] | undefined> {
  try {
    const text = content.includes('?iv=') ? await signer.nip04Decrypt(pubkey, content) : await signer.nip44Decrypt(pubkey, content);
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return undefined;
    return parsed.filter((t): t is string[] => Array.isArray(t) && t.every((x) => typeof x === 'string'));
  } catch {
    return undefined;
  }
}

/** Every list at once; one that fails is left as stored. */
export async function fetchRemoteLists(
  request: CacheRequest,
  signer: Signer,
  pubkey: string,
  lists: readonly ListName[],
): Promise<Partial<Record<ListName, RemoteList | null>>> {
  const out: Partial<Record<ListName, RemoteList | null>> = {};
  await Promise.all(
    lists.map(async (list) => {
      try {
        out[list] = await fetchRemoteList(request, signer, pubkey, list);
      } catch {
        out[list] = undefined;
      }
    }),
  );
  return out;
}

function reasonList(reasons: Record<string, string> | string[]): string[] {
  return Array.isArray(reasons) ? reasons : Object.entries(reasons).map(([relay, why]) => (relay === '*' ? why : `${relay}: ${why}`));
}

/**
 * Signs the draft and publishes it. Private mutes are NIP-04-encrypted to oneself (spec §4);
 * created_at is kept after the list it replaces, or relays would keep the old one.
 */
export async function publishDraft(signer: Signer, publisher: Publisher, draft: Draft): Promise<PublishOutput> {
  const pubkey = signer.pubkey ?? '';
  const content = draft.encryptPrivate ? await signer.nip04Encrypt(pubkey, JSON.stringify(draft.encryptPrivate)) : draft.content;
  const created_at = Math.max(Math.floor(Date.now() / 1000), draft.after + 1);
  const event = await signer.sign({ kind: draft.kind, tags: draft.tags, content, created_at });
  const result = await publisher(event);
  return { success: result.success, reasons: reasonList(result.reasons), event };
}

/** Without the relay pool, the cache server's import is the publish (it forwards notes to relays). */
export function cachePublisher(request: CacheRequest): Publisher {
  return async (event) => {
    const reply = await request('import_events', { events: [event] });
    return reply.notice === undefined ? { success: true, reasons: [] } : { success: false, reasons: [reply.notice] };
  };
}

const TIERS: readonly MembershipTier[] = ['none', 'premium', 'premium-legend'];

/** The tier from a membership_status answer; undefined when there is none (spec: then tier none). */
export async function fetchMembership(request: CacheRequest, signer: Signer): Promise<MembershipTier | undefined> {
  const event = await signer.signRequest('get_membership_status', { description: 'membership status' });
  const reply = await request('membership_status', { event_from_user: event });
  if (reply.notice !== undefined) return undefined;
  for (const e of reply.events) {
    if (typeof e.content !== 'string') continue;
    try {
      const body = JSON.parse(e.content) as { tier?: unknown };
      const tier = body.tier === 'legend' ? 'premium-legend' : body.tier;
      if (typeof tier === 'string' && (TIERS as readonly string[]).includes(tier)) return tier as MembershipTier;
    } catch {
      continue;
    }
  }
  return undefined;
}
