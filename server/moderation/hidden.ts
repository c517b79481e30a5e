/**
 * What content moderation hides for one viewer in one scope, served from a small in-memory
 * cache of compiled rules. The cache forgets a user's rules when any pubkey they were built
 * from publishes a list, contact list or deletion (the indexer, inside the import transaction)
 * and again once the import is committed (the live 'event' feed), so a rebuild that raced the
 * transaction cannot stay in the cache.
 */
import type { NostrEvent, ServerContext } from '../context.ts';
import type { Indexer } from '../ingest/indexers.ts';
import type { Queryable } from '../store/db.ts';
import { compileRules, LIST_DS, SCOPES, type CompiledRules, type Reason, type Scope } from './rules.ts';

export interface HiddenSet {
  /** The viewer ('' for none); their own events are never hidden. */
  self: string;
  pubkeys: Set<string>;
  words: string[];
  hashtags: Set<string>;
  threads: Set<string>;
  /** Event ids hidden by a group list. */
  ids: Set<string>;
  allow: Set<string>;
  reasons: Map<string, Reason>;
  wordPattern: RegExp | null;
}

const MAX_ENTRIES = 5000;

interface Entry {
  rules: CompiledRules;
  views: Partial<Record<Scope, HiddenSet>>;
}

/** Operator per database: enrich only has the database handle, not the server context. */
const operators = new WeakMap<object, () => string>();
const dbIds = new WeakMap<object, number>();
let nextDbId = 1;
const entries = new Map<string, Entry>();
/** dep pubkey → cache keys built from it. */
const dependents = new Map<string, Set<string>>();
/**
 * A compile that started before one of its sources changed must not be kept. Each invalidation
 * bumps the generation and remembers it per pubkey, so unrelated imports (a firehose of contact
 * lists) never stop other users' rules from being cached.
 */
let generation = 0;
const changedAt = new Map<string, number>();
/** Compiles started before this are never kept (the per-pubkey memory was dropped). */
let floor = 0;
const MAX_CHANGED = 50_000;

function dbId(db: object): number {
  let id = dbIds.get(db);
  if (id === undefined) {
    id = nextDbId++;
    dbIds.set(db, id);
  }
  return id;
}

export function invalidateModeration(pubkey: string): void {
  generation++;
  if (changedAt.size >= MAX_CHANGED) {
    changedAt.clear();
    floor = generation;
  }
  changedAt.set(pubkey, generation);
  const keys = dependents.get(pubkey);
  if (!keys) return;
  dependents.delete(pubkey);
  for (const k of keys) entries.delete(k);
}

/** Forgets every compiled rule set (the operator changed, or tests switch scenarios). */
export function clearModerationCache(): void {
  floor = ++generation;
  changedAt.clear();
  entries.clear();
  dependents.clear();
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function view(rules: CompiledRules, scope: Scope): HiddenSet {
  const r = rules.scopes[scope];
  const words = [...r.words].filter((w) => w.length > 0);
  return {
    self: rules.user,
    pubkeys: new Set(r.pubkeys.keys()),
    words,
    hashtags: r.hashtags,
    threads: r.threads,
    ids: r.ids,
    allow: rules.allow,
    reasons: r.pubkeys,
    // Whole words only, so muting "bor" leaves "borsó" alone; \p{L} keeps Hungarian letters inside words.
    wordPattern: words.length ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'iu') : null,
  };
}

async function rulesFor(db: Queryable, user: string): Promise<Entry> {
  const key = `${dbId(db)}|${user}`;
  const hit = entries.get(key);
  if (hit) return hit;
  const startGen = generation;
  const operator = operators.get(db)?.() ?? '';
  const rules = await compileRules(db, user, operator);
  const entry: Entry = { rules, views: {} };
  // A source changed while compiling: use the result once, but do not keep it.
  if (startGen < floor || [...rules.deps].some((dep) => (changedAt.get(dep) ?? 0) > startGen)) return entry;
  if (entries.size >= MAX_ENTRIES) clearModerationCache();
  entries.set(key, entry);
  for (const dep of rules.deps) {
    const set = dependents.get(dep) ?? new Set<string>();
    set.add(key);
    dependents.set(dep, set);
  }
  return entry;
}

/** What `user` (undefined or '' for a visitor) has hidden in `scope`. */
export async function hiddenFor(db: Queryable, user: string | undefined, scope: Scope): Promise<HiddenSet> {
  const entry = await rulesFor(db, user ?? '');
  return (entry.views[scope] ??= view(entry.rules, scope));
}

/** Why `pubkey` is filtered for the viewer in `scope`, or an allow when the allow list lets it through. */
export async function filteringReason(
  db: Queryable,
  user: string | undefined,
  pubkey: string,
  scope: Scope = 'content',
): Promise<Reason | { action: 'allow'; pubkey: string } | undefined> {
  const h = await hiddenFor(db, user, scope);
  const reason = h.reasons.get(pubkey);
  if (reason) return reason;
  if (user && h.allow.has(pubkey)) return { action: 'allow', pubkey: user };
  return undefined;
}

const TEXT_KINDS = new Set([1, 6, 16, 20, 1068, 1111, 1311, 9802, 30023, 34235, 34236]);

export function isEventHidden(h: HiddenSet, ev: NostrEvent): boolean {
  if (ev.pubkey === h.self) return false;
  if (h.pubkeys.has(ev.pubkey) || h.ids.has(ev.id) || h.threads.has(ev.id)) return true;
  for (const t of ev.tags) {
    if (t[0] === 'e' && t[3] !== 'mention' && h.threads.has(t[1])) return true;
    if (t[0] === 't' && typeof t[1] === 'string' && h.hashtags.has(t[1].toLowerCase())) return true;
  }
  if (!TEXT_KINDS.has(ev.kind)) return false;
  if (h.hashtags.size) {
    for (const m of ev.content.matchAll(/#([\p{L}\p{N}_]+)/gu)) if (h.hashtags.has(m[1].toLowerCase())) return true;
  }
  return h.wordPattern !== null && h.wordPattern.test(ev.content);
}

/** Whether an imported event can change someone's compiled rules. */
function affectsModeration(ev: NostrEvent): boolean {
  if (ev.kind === 3 || ev.kind === 5 || ev.kind === 10000) return true;
  if (ev.kind !== 30000) return false;
  const d = ev.tags.find((t) => t[0] === 'd')?.[1] ?? '';
  return (LIST_DS as readonly string[]).includes(d);
}

export const moderationIndexer: Indexer = {
  name: 'moderation',
  async onEvent(_tx, event) {
    if (affectsModeration(event)) invalidateModeration(event.pubkey);
  },
};

/** Connects a running server: its operator for the groups, and post-commit invalidation. */
export function attachModeration(ctx: ServerContext): void {
  operators.set(ctx.db, () => ctx.config.operatorPubkey);
  ctx.live.on('event', (ev: NostrEvent) => {
    if (affectsModeration(ev)) invalidateModeration(ev.pubkey);
  });
}

export { SCOPES, type Reason, type Scope };
