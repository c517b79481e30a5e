/**
 * The account's lists as pure data (spec §3 Account state, §4 Follow/Mute/Like): defaults,
 * the newer-list-wins rule, and the next list event each change would publish.
 */
import { EMOJI_HISTORY_MAX, MIN_CONTACTS_TO_PUBLISH } from '../core/config.ts';
import type { AccountAction, AccountRecord, EmojiUse, MuteListEntry, NostrEvent, RelayFlags } from '../core/types.ts';

export type ListName = 'contacts' | 'mutes' | 'bookmarks' | 'mutelists' | 'allowlist' | 'relays';

/** Lists fetched from the cache server before a change (relays come from the relay pool instead). */
export const FETCHED_LISTS: readonly ListName[] = ['contacts', 'mutes', 'bookmarks', 'mutelists', 'allowlist'];

/** A list event as fetched; privateTags are the decrypted content of a mute list. */
export interface RemoteList {
  created_at: number;
  tags: string[][];
  content: string;
  privateTags?: string[][];
}

/** An event to sign and publish; created_at is set at signing, later than `after`. */
export interface Draft {
  kind: number;
  tags: string[][];
  content: string;
  /** The list this replaces was made at this time; the new one must be newer. */
  after: number;
  /** Tags to NIP-04-encrypt to oneself into content (private mutes). */
  encryptPrivate?: string[][];
}

export type ListAction = Extract<
  AccountAction,
  {
    type:
      | 'follow'
      | 'unfollow'
      | 'mute'
      | 'unmute'
      | 'muteTag'
      | 'unmuteTag'
      | 'bookmark'
      | 'unbookmark'
      | 'subscribeMuteList'
      | 'unsubscribeMuteList'
      | 'setMuteListFlags'
      | 'allow'
      | 'disallow'
      | 'publishRelays';
  }
>;

export type Plan = { kind: 'ignored' } | { kind: 'publish'; draft: Draft } | { kind: 'repair'; draft: Draft };

const LIST_OF: Record<ListAction['type'], ListName> = {
  follow: 'contacts',
  unfollow: 'contacts',
  mute: 'mutes',
  unmute: 'mutes',
  muteTag: 'mutes',
  unmuteTag: 'mutes',
  bookmark: 'bookmarks',
  unbookmark: 'bookmarks',
  subscribeMuteList: 'mutelists',
  unsubscribeMuteList: 'mutelists',
  setMuteListFlags: 'mutelists',
  allow: 'allowlist',
  disallow: 'allowlist',
  publishRelays: 'relays',
};

export function listOf(action: ListAction): ListName {
  return LIST_OF[action.type];
}

export function isListAction(action: AccountAction): action is ListAction {
  return action.type in LIST_OF;
}

/** Spec §9 default upload time settings. */
const DEFAULT_UPLOAD_TIME = { small: 250, medium: 250, large: 250, huge: 250, final: 100 };

export function defaultRecord(pubkey: string): AccountRecord {
  return {
    pubkey,
    following: [],
    followingSince: 0,
    contactTags: [],
    contactContent: '',
    muted: [],
    mutedTags: [],
    mutedPrivate: '',
    mutedSince: 0,
    mutelists: [ownMuteList(pubkey)],
    mutelistsSince: 0,
    allowlist: [],
    allowlistSince: 0,
    bookmarks: [],
    bookmarksSince: 0,
    likes: [],
    emojiHistory: [],
    relaySettings: {},
    relaysSince: 0,
    recommendedUsers: [],
    noteDraft: {},
    noteDraftUserRefs: {},
    uploadTime: { ...DEFAULT_UPLOAD_TIME },
    selectedFeeds: {},
    dmLastRelation: 'follows',
    membershipTier: 'none',
    premiumReminder: 0,
    dvms: [],
    usePrimalRelay: true,
    nwcList: [],
    nwcActive: [],
  };
}

/** A stored record from an older build gets the fields it lacks; the own filter list is restored. */
export function normalizeRecord(pubkey: string, stored: Partial<AccountRecord> | undefined): AccountRecord {
  const record = { ...defaultRecord(pubkey), ...(stored ?? {}), pubkey };
  return { ...record, mutelists: withOwnMuteList(pubkey, record.mutelists) };
}

function ownMuteList(pubkey: string): MuteListEntry {
  return { pubkey, content: true, trending: true };
}

/** Spec §3: the user's own key is always in their filter lists, with content and trending on. */
export function withOwnMuteList(pubkey: string, lists: MuteListEntry[]): MuteListEntry[] {
  const others = lists.filter((e) => e.pubkey !== pubkey);
  const own = lists.find((e) => e.pubkey === pubkey);
  return [{ ...(own ?? {}), ...ownMuteList(pubkey) }, ...others];
}

const unique = (values: string[]): string[] => [...new Set(values)];
const pTags = (tags: string[][]): string[] => unique(tags.filter((t) => t[0] === 'p' && typeof t[1] === 'string').map((t) => t[1]));

export function sinceOf(record: AccountRecord, list: ListName): number {
  switch (list) {
    case 'contacts':
      return record.followingSince;
    case 'mutes':
      return record.mutedSince;
    case 'bookmarks':
      return record.bookmarksSince;
    case 'mutelists':
      return record.mutelistsSince;
    case 'allowlist':
      return record.allowlistSince;
    case 'relays':
      return record.relaysSince;
  }
}

function parseFlags(content: string): Record<string, { content?: boolean; trending?: boolean }> {
  try {
    const v: unknown = JSON.parse(content);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, { content?: boolean; trending?: boolean }>) : {};
  } catch {
    return {};
  }
}

function relayTags(relays: Record<string, RelayFlags>): string[][] {
  const tags: string[][] = [];
  for (const [url, f] of Object.entries(relays)) {
    if (f.read && f.write) tags.push(['r', url]);
    else if (f.read) tags.push(['r', url, 'read']);
    else if (f.write) tags.push(['r', url, 'write']);
  }
  return tags;
}

function relaysFromTags(tags: string[][]): Record<string, RelayFlags> {
  const out: Record<string, RelayFlags> = {};
  for (const t of tags) {
    if (t[0] !== 'r' || !t[1]) continue;
    out[t[1]] = { read: t[2] !== 'write', write: t[2] !== 'read' };
  }
  return out;
}

/**
 * Takes a fetched or just-published list into the record. A fetched one counts only when newer
 * than the stored one (spec §4); `force` is for the list we have just published ourselves.
 */
export function applyList(record: AccountRecord, list: ListName, remote: RemoteList | null | undefined, force = false): AccountRecord {
  if (!remote) return record;
  if (!force && remote.created_at <= sinceOf(record, list)) return record;
  const at = remote.created_at;
  switch (list) {
    case 'contacts':
      return { ...record, following: pTags(remote.tags), contactTags: remote.tags, contactContent: remote.content, followingSince: at };
    case 'mutes':
      return {
        ...record,
        mutedTags: remote.tags,
        mutedPrivate: remote.content,
        mutedPrivateTags: remote.content === '' ? [] : remote.privateTags,
        muted: unique([...pTags(remote.tags), ...pTags(remote.privateTags ?? [])]),
        // Private mutes we could not read yet (no key at sync time): the list is taken again,
        // decrypted, before any change is published, so they are never dropped.
        mutedSince: remote.content !== '' && remote.privateTags === undefined ? record.mutedSince : at,
      };
    case 'bookmarks':
      return { ...record, bookmarks: remote.tags, bookmarksSince: at };
    case 'allowlist':
      return { ...record, allowlist: pTags(remote.tags), allowlistSince: at };
    case 'mutelists': {
      const flags = parseFlags(remote.content);
      const entries: MuteListEntry[] = remote.tags
        .filter((t) => t[0] === 'p' && t[1])
        .map((t) => {
          const e: MuteListEntry = { pubkey: t[1], content: flags[t[1]]?.content !== false, trending: flags[t[1]]?.trending !== false };
          if (t[2]) e.relay = t[2];
          if (t[3]) e.petname = t[3];
          return e;
        });
      return { ...record, mutelists: withOwnMuteList(record.pubkey, entries), mutelistsSince: at };
    }
    case 'relays':
      return { ...record, relaySettings: relaysFromTags(remote.tags), relaysSince: Math.max(record.relaysSince, at) };
  }
}

const sameTag = (a: string[], b: string[]) => a[0] === b[0] && a[1] === b[1];

/** Mute-list tags besides people: words, hashtags and threads. */
export const MUTE_TAG_NAMES = new Set(['word', 't', 'e']);

/** Words and hashtags match whatever their case, as the server's filter applies them. */
function sameMuteTag(a: string[], b: string[]): boolean {
  if (a[0] !== b[0] || typeof a[1] !== 'string' || typeof b[1] !== 'string') return false;
  return a[0] === 'e' ? a[1] === b[1] : a[1].toLocaleLowerCase('hu') === b[1].toLocaleLowerCase('hu');
}

/**
 * The private part of the mute list as it will be re-encrypted: every decrypted tag when they are
 * known (words and threads too), else the private pubkeys, which are all the record has kept.
 */
export function privateMuteTags(record: AccountRecord): string[][] {
  if (record.mutedPrivateTags) return record.mutedPrivateTags;
  const publicP = new Set(pTags(record.mutedTags));
  return record.muted.filter((p) => !publicP.has(p)).map((p) => ['p', p]);
}

function mutelistDraft(record: AccountRecord, entries: MuteListEntry[]): Draft {
  const flags: Record<string, { content: boolean; trending: boolean }> = {};
  const tags: string[][] = [['d', 'mutelists']];
  for (const e of withOwnMuteList(record.pubkey, entries)) {
    const tag = ['p', e.pubkey, e.relay ?? '', e.petname ?? ''];
    // The cache server reads a subscription's scopes from the tag itself (no flags: both scopes).
    if (!e.content || !e.trending) tag.push(JSON.stringify({ content: e.content, trending: e.trending }));
    while (tag.length > 2 && tag[tag.length - 1] === '') tag.pop();
    tags.push(tag);
    flags[e.pubkey] = { content: e.content, trending: e.trending };
  }
  return { kind: 30000, tags, content: JSON.stringify(flags), after: record.mutelistsSince };
}

/** What a change does to the record's current list: nothing, a publish, or the repair dialog. */
export function planChange(record: AccountRecord, action: ListAction): Plan {
  const ignored: Plan = { kind: 'ignored' };
  switch (action.type) {
    case 'follow':
    case 'unfollow': {
      const following = record.following.includes(action.pubkey);
      if (action.type === 'follow' && following) return ignored;
      if (action.type === 'unfollow' && (action.pubkey === record.pubkey || !following)) return ignored;
      const tags =
        action.type === 'follow'
          ? [...record.contactTags, ['p', action.pubkey]]
          : record.contactTags.filter((t) => !(t[0] === 'p' && t[1] === action.pubkey));
      const draft: Draft = { kind: 3, tags, content: record.contactContent, after: record.followingSince };
      // A list this short usually means the fetched one was lost or broken; publishing it would wipe the follows.
      return pTags(tags).length < MIN_CONTACTS_TO_PUBLISH ? { kind: 'repair', draft } : { kind: 'publish', draft };
    }
    case 'mute':
    case 'unmute': {
      const isMuted = record.muted.includes(action.pubkey);
      if (action.type === 'mute' ? isMuted : !isMuted) return ignored;
      let publicTags = record.mutedTags;
      let privateTags = privateMuteTags(record);
      if (action.type === 'mute') {
        if (action.private) privateTags = [...privateTags, ['p', action.pubkey]];
        else publicTags = [...publicTags, ['p', action.pubkey]];
      } else {
        publicTags = publicTags.filter((t) => !(t[0] === 'p' && t[1] === action.pubkey));
        privateTags = privateTags.filter((t) => !(t[0] === 'p' && t[1] === action.pubkey));
      }
      const draft: Draft = { kind: 10000, tags: publicTags, content: '', after: record.mutedSince };
      if (privateTags.length > 0) draft.encryptPrivate = privateTags;
      return { kind: 'publish', draft };
    }
    case 'muteTag':
    case 'unmuteTag': {
      const tag = action.tag;
      const privateTags = privateMuteTags(record);
      const isMuted = [...record.mutedTags, ...privateTags].some((t) => sameMuteTag(t, tag));
      if (!MUTE_TAG_NAMES.has(tag[0]) || !tag[1] || (action.type === 'muteTag' ? isMuted : !isMuted)) return ignored;
      const publicTags = action.type === 'muteTag' ? [...record.mutedTags, tag] : record.mutedTags.filter((t) => !sameMuteTag(t, tag));
      const draft: Draft = { kind: 10000, tags: publicTags, content: '', after: record.mutedSince };
      const keptPrivate = action.type === 'muteTag' ? privateTags : privateTags.filter((t) => !sameMuteTag(t, tag));
      if (keptPrivate.length > 0) draft.encryptPrivate = keptPrivate;
      return { kind: 'publish', draft };
    }
    case 'bookmark':
    case 'unbookmark': {
      const has = record.bookmarks.some((t) => sameTag(t, action.tag));
      if (action.type === 'bookmark' ? has : !has) return ignored;
      const tags = action.type === 'bookmark' ? [...record.bookmarks, action.tag] : record.bookmarks.filter((t) => !sameTag(t, action.tag));
      return { kind: 'publish', draft: { kind: 10003, tags, content: '', after: record.bookmarksSince } };
    }
    case 'subscribeMuteList': {
      if (record.mutelists.some((e) => e.pubkey === action.pubkey)) return ignored;
      const entry: MuteListEntry = { pubkey: action.pubkey, content: true, trending: true };
      if (action.relay) entry.relay = action.relay;
      if (action.petname) entry.petname = action.petname;
      return { kind: 'publish', draft: mutelistDraft(record, [...record.mutelists, entry]) };
    }
    case 'unsubscribeMuteList':
    case 'setMuteListFlags': {
      if (action.pubkey === record.pubkey || !record.mutelists.some((e) => e.pubkey === action.pubkey)) return ignored;
      const entries =
        action.type === 'unsubscribeMuteList'
          ? record.mutelists.filter((e) => e.pubkey !== action.pubkey)
          : record.mutelists.map((e) => (e.pubkey === action.pubkey ? { ...e, content: action.content, trending: action.trending } : e));
      return { kind: 'publish', draft: mutelistDraft(record, entries) };
    }
    case 'allow':
    case 'disallow': {
      const has = record.allowlist.includes(action.pubkey);
      if (action.type === 'allow' ? has : !has) return ignored;
      const list = action.type === 'allow' ? [...record.allowlist, action.pubkey] : record.allowlist.filter((p) => p !== action.pubkey);
      const tags = [['d', 'allowlist'], ...list.map((p) => ['p', p])];
      return { kind: 'publish', draft: { kind: 30000, tags, content: '', after: record.allowlistSince } };
    }
    case 'publishRelays':
      return { kind: 'publish', draft: { kind: 10002, tags: relayTags(action.relays), content: '', after: record.relaysSince } };
  }
}

/** Spec §4 Like: a kind-7 '+' on the note, naming its author and kind; an article also by its address (NIP-25). */
export function likeDraft(note: { id: string; pubkey: string; kind: number; address?: string }): Draft {
  return {
    kind: 7,
    tags: [
      ['e', note.id],
      ...(note.address ? [['a', note.address]] : []),
      ['p', note.pubkey],
      ['k', String(note.kind)],
    ],
    content: '+',
    after: 0,
  };
}

/** Most recent first, no repeats, at most 40 (spec §3). */
export function addEmoji(history: EmojiUse[], emoji: EmojiUse): EmojiUse[] {
  const rest = history.filter((e) => !(e.name === emoji.name && e.url === emoji.url));
  return [emoji, ...rest].slice(0, EMOJI_HISTORY_MAX);
}

export const LOCAL_ACTIONS = new Set<AccountAction['type']>(['addEmoji', 'setDraft', 'clearDraft', 'clearPremiumReminder', 'setLocal']);
export const isLocal = (a: AccountAction) => LOCAL_ACTIONS.has(a.type);

/** Local edits need no key and no network. */
export function applyLocal(record: AccountRecord, action: AccountAction): AccountRecord {
  switch (action.type) {
    case 'addEmoji':
      return { ...record, emojiHistory: addEmoji(record.emojiHistory, action.emoji) };
    case 'setDraft': {
      const parent = action.parent ?? 'root';
      return {
        ...record,
        noteDraft: { ...record.noteDraft, [parent]: action.text },
        noteDraftUserRefs: { ...record.noteDraftUserRefs, [parent]: action.userRefs ?? record.noteDraftUserRefs[parent] ?? {} },
      };
    }
    case 'clearDraft': {
      const parent = action.parent ?? 'root';
      const noteDraft = { ...record.noteDraft };
      const noteDraftUserRefs = { ...record.noteDraftUserRefs };
      delete noteDraft[parent];
      delete noteDraftUserRefs[parent];
      return { ...record, noteDraft, noteDraftUserRefs };
    }
    case 'clearPremiumReminder':
      return { ...record, premiumReminder: Date.now() };
    case 'setLocal':
      return { ...record, ...action.patch };
    default:
      return record;
  }
}

/** The record after our own list event (or like) was published: taken as the newest list. */
export function applyPublished(record: AccountRecord, action: AccountAction, signed: NostrEvent, draft: Draft | undefined): AccountRecord {
  if (action.type === 'like') return { ...record, likes: [...record.likes, action.note.id] };
  if (!isListAction(action)) return record;
  const remote: RemoteList = { created_at: signed.created_at, tags: signed.tags, content: signed.content };
  if (draft?.encryptPrivate) remote.privateTags = draft.encryptPrivate;
  return applyList(record, listOf(action), remote, true);
}
