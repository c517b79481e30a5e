/**
 * Compiles one user's content-moderation rules (S §2.3) from the stored lists:
 * - the user's own mute lists (kind 10000 and kind 30000 d=mute): pubkeys, words, hashtags and
 *   threads, in both scopes;
 * - subscribed mute lists (kind 30000 d=mutelists): each p tag follows that user's mute lists,
 *   in the scopes the tag names;
 * - the allow list (kind 30000 d=allowlist);
 * - the global groups primal_spam / primal_nsfw, switched on in the user's settings per scope.
 *   Their members are the p and e tags of the operator's kind-30000 lists d=spam and d=nsfw.
 * Precedence: the user's own key is never hidden; the allow list beats groups and subscribed
 * lists, but not the user's own mutes; people the user follows are never hidden by a group.
 */
import { defaultAppSettings, MODERATION_GROUPS, type ModerationGroup } from '../cache/defaults.ts';
import type { NostrEvent } from '../context.ts';
import { isHex64 } from '../ingest/verify.ts';
import type { Queryable } from '../store/db.ts';
import { eventsByAddress, inChunks, replaceableOf } from '../cache/data.ts';
import { getUserSettings } from './settings-store.ts';

export const SCOPES = ['content', 'trending'] as const;
export type Scope = (typeof SCOPES)[number];

/** d tags of the kind-30000 lists that take part in moderation. */
export const LIST_DS = ['mute', 'mutelists', 'allowlist', 'spam', 'nsfw'] as const;
/** Following more lists than this is not a use case; it would only make each compile slower. */
const MAX_SUBSCRIPTIONS = 50;
const MAX_WORDS = 500;
const MAX_WORD_CHARS = 100;

/** Where a hidden pubkey comes from, for search_filterlist (10000131). */
export type Reason = { action: 'block'; pubkey: string } | { action: 'block'; group: ModerationGroup };

export interface ScopeRules {
  /** Hidden pubkey → why (the list owner who muted it, or the group). */
  pubkeys: Map<string, Reason>;
  words: Set<string>;
  hashtags: Set<string>;
  /** Muted threads: an event id whose replies are hidden with it. */
  threads: Set<string>;
  /** Event ids listed by a group. */
  ids: Set<string>;
}

export interface CompiledRules {
  user: string;
  allow: Set<string>;
  scopes: Record<Scope, ScopeRules>;
  /** Pubkeys whose lists or settings these rules were built from: a change by any of them invalidates. */
  deps: Set<string>;
}

const emptyScope = (): ScopeRules => ({ pubkeys: new Map(), words: new Set(), hashtags: new Set(), threads: new Set(), ids: new Set() });

interface ListContent {
  pubkeys: string[];
  words: string[];
  hashtags: string[];
  threads: string[];
}

function readList(events: (NostrEvent | undefined)[]): ListContent {
  const out: ListContent = { pubkeys: [], words: [], hashtags: [], threads: [] };
  for (const ev of events) {
    for (const t of ev?.tags ?? []) {
      const v = t[1];
      if (typeof v !== 'string' || v === '') continue;
      if (t[0] === 'p' && isHex64(v)) out.pubkeys.push(v.toLowerCase());
      else if (t[0] === 'e' && isHex64(v)) out.threads.push(v.toLowerCase());
      else if (t[0] === 't') out.hashtags.push(v.replace(/^#/, '').toLowerCase());
      else if (t[0] === 'word' && v.trim().length <= MAX_WORD_CHARS) out.words.push(v.trim().toLowerCase());
    }
  }
  return out;
}

/**
 * The scopes a subscription tag asks for. Tags look like ["p", pubkey, relay?, petname?, flags?]
 * where flags is JSON {"content":bool,"trending":bool} or a list such as "content,trending";
 * with no flags the subscription covers both scopes, as following a mute list means.
 */
export function subscriptionScopes(tag: string[]): Scope[] {
  for (const extra of tag.slice(2)) {
    if (typeof extra !== 'string') continue;
    const s = extra.trim();
    if (s.startsWith('{')) {
      try {
        const flags = JSON.parse(s) as Record<string, unknown>;
        return SCOPES.filter((sc) => flags[sc] === true);
      } catch {
        continue;
      }
    }
    const words = s.toLowerCase().split(/[\s,]+/);
    if (words.some((w) => w === 'content' || w === 'trending')) return SCOPES.filter((sc) => words.includes(sc));
  }
  return [...SCOPES];
}

/** Which groups apply in which scope, from the user's settings (defaults when none are stored). */
export function groupScopes(settings: Record<string, unknown>): Map<ModerationGroup, Set<Scope>> {
  const out = new Map<ModerationGroup, Set<Scope>>();
  if (settings.applyContentModeration === false) return out;
  const entries = Array.isArray(settings.contentModeration) ? settings.contentModeration : [];
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    const { name, scopes } = entry as { name?: unknown; scopes?: unknown };
    // Old settings spell the groups without the prefix.
    const group = MODERATION_GROUPS.find((g) => g === name || g === `primal_${String(name)}`);
    if (!group || !Array.isArray(scopes)) continue;
    out.set(group, new Set(SCOPES.filter((sc) => scopes.includes(sc))));
  }
  return out;
}

function addList(rules: ScopeRules, list: ListContent, reason: Reason, allow: Set<string> | null): void {
  for (const pk of list.pubkeys) if (!rules.pubkeys.has(pk) && !allow?.has(pk)) rules.pubkeys.set(pk, reason);
  for (const w of list.words) if (rules.words.size < MAX_WORDS) rules.words.add(w);
  for (const h of list.hashtags) rules.hashtags.add(h);
  for (const e of list.threads) rules.threads.add(e);
}

async function ownLists(db: Queryable, pubkey: string): Promise<Map<string, NostrEvent | undefined>> {
  const addrs = LIST_DS.map((d) => ({ kind: 30000, pubkey, d }));
  const byAddr = await eventsByAddress(db, addrs);
  const mute10000 = (await replaceableOf(db, 10000, [pubkey])).get(pubkey);
  const out = new Map<string, NostrEvent | undefined>([['10000', mute10000]]);
  for (const d of LIST_DS) out.set(d, byAddr.get(`30000:${pubkey}:${d}`));
  return out;
}

/** Mute lists (10000 and 30000 d=mute) of many owners in two queries. */
async function muteListsOf(db: Queryable, owners: string[]): Promise<Map<string, ListContent>> {
  const out = new Map<string, ListContent>();
  if (!owners.length) return out;
  const k10000 = await replaceableOf(db, 10000, owners);
  const k30000 = await eventsByAddress(db, owners.map((pubkey) => ({ kind: 30000, pubkey, d: 'mute' })));
  for (const o of owners) out.set(o, readList([k10000.get(o), k30000.get(`30000:${o}:mute`)]));
  return out;
}

async function followedAmong(db: Queryable, user: string, candidates: Iterable<string>): Promise<Set<string>> {
  const rows = await inChunks([...new Set(candidates)], (chunk, marks) =>
    db.all<{ follows: string }>(`SELECT follows FROM follows WHERE pubkey = ? AND follows IN (${marks})`, [user, ...chunk]),
  );
  return new Set(rows.map((r) => r.follows));
}

/**
 * Builds the rules of `user` ('' for a visitor with no key: only the default groups apply).
 * `operator` is the pubkey whose d=spam / d=nsfw lists define the groups ('' = no groups).
 */
export async function compileRules(db: Queryable, user: string, operator: string): Promise<CompiledRules> {
  const rules: CompiledRules = {
    user,
    allow: new Set(),
    scopes: { content: emptyScope(), trending: emptyScope() },
    deps: new Set(user ? [user] : []),
  };
  let settings: Record<string, unknown> = defaultAppSettings();
  if (user) {
    settings = (await getUserSettings(db, user)) ?? settings;
    const lists = await ownLists(db, user);
    rules.allow = new Set(readList([lists.get('allowlist')]).pubkeys);
    const own = readList([lists.get('10000'), lists.get('mute')]);
    for (const sc of SCOPES) addList(rules.scopes[sc], own, { action: 'block', pubkey: user }, null);

    const subscriptions = new Map<string, Scope[]>();
    for (const t of lists.get('mutelists')?.tags ?? []) {
      if (t[0] !== 'p' || !isHex64(t[1]) || subscriptions.size >= MAX_SUBSCRIPTIONS) continue;
      const owner = t[1].toLowerCase();
      if (owner !== user) subscriptions.set(owner, subscriptionScopes(t));
    }
    const subscribed = await muteListsOf(db, [...subscriptions.keys()]);
    for (const [owner, scopes] of subscriptions) {
      rules.deps.add(owner);
      const list = subscribed.get(owner);
      if (!list) continue;
      for (const sc of scopes) addList(rules.scopes[sc], list, { action: 'block', pubkey: owner }, rules.allow);
    }
  }

  const groups = groupScopes(settings);
  if (operator && groups.size) {
    rules.deps.add(operator);
    const addrs = [...groups.keys()].map((g) => ({ kind: 30000, pubkey: operator, d: g.replace(/^primal_/, '') }));
    const lists = await eventsByAddress(db, addrs);
    const members = new Map<ModerationGroup, ListContent>();
    for (const g of groups.keys()) members.set(g, readList([lists.get(`30000:${operator}:${g.replace(/^primal_/, '')}`)]));
    const everyone = [...members.values()].flatMap((m) => m.pubkeys);
    const followed = user && everyone.length ? await followedAmong(db, user, everyone) : new Set<string>();
    for (const [g, scopes] of groups) {
      const m = members.get(g)!;
      for (const sc of scopes) {
        const r = rules.scopes[sc];
        for (const pk of m.pubkeys) {
          if (!r.pubkeys.has(pk) && !rules.allow.has(pk) && !followed.has(pk)) r.pubkeys.set(pk, { action: 'block', group: g });
        }
        for (const id of m.threads) r.ids.add(id);
      }
    }
  }
  for (const sc of SCOPES) rules.scopes[sc].pubkeys.delete(user);
  return rules;
}
