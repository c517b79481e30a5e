import type { NostrEvent } from '../context.ts';
import { sqlMarks } from '../cache/data.ts';
import type { Queryable, SqlValue } from '../store/db.ts';

export const DEFAULT_LIMIT = 500;
export const MAX_LIMIT = 1000;
/** Bounds a single filter's lists so one REQ cannot build an unbounded query. */
const MAX_LIST = 1000;

export interface Filter {
  ids?: string[];
  authors?: string[];
  kinds?: number[];
  tags: Map<string, string[]>;
  since?: number;
  until?: number;
  limit: number;
}

const HEX64 = /^[0-9a-f]{64}$/;

function stringList(value: unknown, name: string, hex: boolean): string[] {
  if (!Array.isArray(value)) throw new Error(`${name} must be an array`);
  if (value.length > MAX_LIST) throw new Error(`${name} has more than ${MAX_LIST} entries`);
  for (const v of value) {
    if (typeof v !== 'string') throw new Error(`${name} must hold strings`);
    if (hex && !HEX64.test(v)) throw new Error(`${name} must hold 64-character lowercase hex`);
  }
  return value as string[];
}

function timestamp(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

/** Validates one NIP-01 filter; throws with a message fit for CLOSED "invalid: …". */
export function parseFilter(raw: unknown): Filter {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('filter must be an object');
  const f: Filter = { tags: new Map(), limit: DEFAULT_LIMIT };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === 'ids') f.ids = stringList(value, key, true);
    else if (key === 'authors') f.authors = stringList(value, key, true);
    else if (key === 'kinds') {
      if (!Array.isArray(value) || value.length > MAX_LIST) throw new Error('kinds must be an array');
      for (const k of value) if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k > 65535) throw new Error('kinds must hold integers');
      f.kinds = value as number[];
    } else if (key === 'since') f.since = timestamp(value, key);
    else if (key === 'until') f.until = timestamp(value, key);
    else if (key === 'limit') f.limit = Math.min(timestamp(value, key), MAX_LIMIT);
    else if (/^#[a-zA-Z]$/.test(key)) f.tags.set(key.slice(1), stringList(value, key, false));
    // Unknown keys (search, NIP-50 and the like) are ignored rather than refused, as most relays do.
  }
  return f;
}

/** Whether a filter can match nothing at all, so no query is needed. */
export function isEmptyFilter(f: Filter, counting = false): boolean {
  return (
    (!counting && f.limit === 0) ||
    f.ids?.length === 0 ||
    f.authors?.length === 0 ||
    f.kinds?.length === 0 ||
    [...f.tags.values()].some((v) => v.length === 0) ||
    (f.since !== undefined && f.until !== undefined && f.since > f.until)
  );
}

interface EventRow {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string;
  content: string;
  sig: string;
}

/**
 * Who may see gift wraps (kind 1059): the pubkeys authenticated on the connection. Applied in the
 * query itself, so a limit counts only what the reader may receive and a count leaks nothing.
 */
export type WrapReaders = ReadonlySet<string>;

function sqlFor(f: Filter, count: boolean, readers?: WrapReaders): { sql: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (readers !== undefined) {
    const mayRead = [...readers];
    if (mayRead.length === 0) where.push('e.kind <> 1059');
    else {
      where.push(`(e.kind <> 1059 OR e.id IN (SELECT t.event_id FROM event_tags t WHERE t.name = 'p' AND t.value IN (${sqlMarks(mayRead.length)})))`);
      params.push(...mayRead);
    }
  }
  if (f.ids) {
    where.push(`e.id IN (${sqlMarks(f.ids.length)})`);
    params.push(...f.ids);
  }
  if (f.authors) {
    where.push(`e.pubkey IN (${sqlMarks(f.authors.length)})`);
    params.push(...f.authors);
  }
  if (f.kinds) {
    where.push(`e.kind IN (${sqlMarks(f.kinds.length)})`);
    params.push(...f.kinds);
  }
  if (f.since !== undefined) {
    where.push('e.created_at >= ?');
    params.push(f.since);
  }
  if (f.until !== undefined) {
    where.push('e.created_at <= ?');
    params.push(f.until);
  }
  for (const [name, values] of f.tags) {
    where.push(`e.id IN (SELECT t.event_id FROM event_tags t WHERE t.name = ? AND t.value IN (${sqlMarks(values.length)}))`);
    params.push(name, ...values);
  }
  // Replaceable and addressable kinds answer with their current version only. A request by
  // id is the exception: the client asked for that exact (maybe older, quoted) version.
  if (!f.ids) {
    where.push(
      `(NOT (e.kind IN (0, 3) OR (e.kind >= 10000 AND e.kind < 20000) OR (e.kind >= 30000 AND e.kind < 40000))
        OR EXISTS (SELECT 1 FROM replaceable r WHERE r.event_id = e.id))`,
    );
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  if (count) return { sql: `SELECT COUNT(*) AS n FROM events e ${clause}`, params };
  params.push(f.limit);
  return {
    sql: `SELECT e.id, e.pubkey, e.created_at, e.kind, e.tags, e.content, e.sig FROM events e ${clause}
          ORDER BY e.created_at DESC, e.id ASC LIMIT ?`,
    params,
  };
}

function toEvent(row: EventRow): NostrEvent {
  return {
    id: row.id,
    pubkey: row.pubkey,
    created_at: Number(row.created_at),
    kind: Number(row.kind),
    tags: JSON.parse(row.tags) as string[][],
    content: row.content,
    sig: row.sig,
  };
}

/** Stored events matching any of the filters, each filter limited on its own, newest first, without duplicates. */
export async function queryEvents(db: Queryable, filters: Filter[], readers?: WrapReaders): Promise<NostrEvent[]> {
  const byId = new Map<string, NostrEvent>();
  for (const f of filters) {
    if (isEmptyFilter(f)) continue;
    const { sql, params } = sqlFor(f, false, readers);
    for (const row of await db.all<EventRow>(sql, params)) if (!byId.has(row.id)) byId.set(row.id, toEvent(row));
  }
  return [...byId.values()].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** NIP-45 COUNT: the filters' counts added up (an event matching two filters counts twice, as most relays do). */
export async function countEvents(db: Queryable, filters: Filter[], readers?: WrapReaders): Promise<number> {
  let total = 0;
  for (const f of filters) {
    if (isEmptyFilter(f, true)) continue;
    const { sql, params } = sqlFor(f, true, readers);
    total += Number((await db.get<{ n: number }>(sql, params))?.n ?? 0);
  }
  return total;
}

/** Live matching of a newly stored event against a filter (limit does not apply to live events). */
export function matchFilter(f: Filter, event: NostrEvent): boolean {
  if (f.ids && !f.ids.includes(event.id)) return false;
  if (f.authors && !f.authors.includes(event.pubkey)) return false;
  if (f.kinds && !f.kinds.includes(event.kind)) return false;
  if (f.since !== undefined && event.created_at < f.since) return false;
  if (f.until !== undefined && event.created_at > f.until) return false;
  for (const [name, values] of f.tags) {
    if (!event.tags.some((t) => t[0] === name && typeof t[1] === 'string' && values.includes(t[1]))) return false;
  }
  return true;
}

