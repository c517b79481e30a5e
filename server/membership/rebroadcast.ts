/**
 * Content rebroadcast (spec §6): a premium member's stored events are published again to the
 * write relays of their kind-10002 list, in batches, oldest first. The job and its cursor live in
 * membership_rebroadcasts, so a restart resumes where it stopped; at most a few jobs run at once
 * and each talks to a few relays at a time.
 */
import { lookup } from 'node:dns/promises';
import { CommandError } from '../cache/args.ts';
import type { NostrEvent, ServerContext } from '../context.ts';
import { publishToRelay } from '../ingest/publish.ts';
import { isPrivateAddress } from '../media/guard.ts';
import { membershipConfig } from './config.ts';

const BATCH = 50;
const MAX_RELAYS = 10;
const RELAY_CONCURRENCY = 4;
const MAX_RUNNING_JOBS = 4;
/** Batches in a row that no relay took before the job gives up. */
const MAX_FAILED_BATCHES = 3;
const STOP_GRACE_MS = 1000;

export type JobState = 'running' | 'done' | 'cancelled' | 'failed';

interface Runner {
  stopped: boolean;
  done: Promise<void>;
}

const runnersOf = new WeakMap<ServerContext, Map<string, Runner>>();
function runners(ctx: ServerContext): Map<string, Runner> {
  let m = runnersOf.get(ctx);
  if (!m) runnersOf.set(ctx, (m = new Map()));
  return m;
}

interface JobRow {
  pubkey: string;
  kinds: string;
  relays: string;
  status: string;
  total: number | string;
  done: number | string;
  cursor_created_at: number | string;
  cursor_id: string;
  error: string;
}

const parseList = <T>(text: string): T[] | null => {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? (v as T[]) : null;
  } catch {
    return null;
  }
};

/** Why this relay is not used, or null. Loopback and private networks only with FETCH_PRIVATE_ADDRESSES (tests). */
export async function relayProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'wss:' && !(allowPrivate && u.protocol === 'ws:')) return 'only wss:// relays are used';
  if (allowPrivate) return null;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || isPrivateAddress(host)) return 'private address';
  try {
    const addrs = await lookup(host, { all: true });
    if (!addrs.length || addrs.some((a) => isPrivateAddress(a.address))) return 'private address';
  } catch {
    return 'unknown host';
  }
  return null;
}

/** Write relays of the user's current kind-10002 list (r tags without a marker or marked write). */
async function writeRelays(ctx: ServerContext, pubkey: string): Promise<string[]> {
  const row = await ctx.db.get<{ tags: string }>(
    `SELECT e.tags FROM replaceable r JOIN events e ON e.id = r.event_id WHERE r.pubkey = ? AND r.kind = 10002 AND r.d = ''`,
    [pubkey],
  );
  const tags = row ? (parseList<unknown[]>(row.tags) ?? []) : [];
  const out = new Set<string>();
  for (const t of tags) {
    if (!Array.isArray(t) || t[0] !== 'r' || typeof t[1] !== 'string') continue;
    if (t[2] === undefined || t[2] === 'write' || t[2] === '') out.add(t[1].trim().replace(/\/+$/, ''));
  }
  return [...out];
}

function kindFilter(kinds: number[] | null): { sql: string; params: number[] } {
  if (!kinds || !kinds.length) return { sql: '', params: [] };
  return { sql: `AND kind IN (${kinds.map(() => '?').join(',')})`, params: kinds };
}

export async function rebroadcastStatus(ctx: ServerContext, pubkey: string): Promise<Record<string, unknown>> {
  const row = await ctx.db.get<JobRow>('SELECT * FROM membership_rebroadcasts WHERE pubkey = ?', [pubkey]);
  if (!row) return { running: false, kinds: null, status: 'idle', progress: 0, done: 0, total: 0, relays: [], error: '' };
  // A job left running by a previous process continues as soon as anyone asks about it.
  if (row.status === 'running' && !runners(ctx).has(pubkey)) launch(ctx, row);
  const total = Number(row.total);
  const done = Number(row.done);
  return {
    running: row.status === 'running',
    kinds: parseList<number>(row.kinds),
    status: row.status,
    progress: total > 0 ? Math.min(1, done / total) : row.status === 'done' ? 1 : 0,
    done,
    total,
    relays: parseList<string>(row.relays) ?? [],
    error: row.error,
  };
}

/**
 * Starts (or restarts) the member's rebroadcast to the write relays of their list; `chosen`, when
 * given, narrows it to those of them the member picked (a relay off the list is never used).
 */
export async function startRebroadcast(ctx: ServerContext, pubkey: string, kinds: number[] | undefined, chosen?: unknown): Promise<void> {
  if (runners(ctx).has(pubkey)) throw new CommandError('Már fut egy újraküldés; előbb várd meg vagy állítsd le.');
  if (runners(ctx).size >= MAX_RUNNING_JOBS) throw new CommandError('Most túl sok újraküldés fut, próbáld újra később.');
  if (chosen !== undefined && (!Array.isArray(chosen) || chosen.some((u) => typeof u !== 'string'))) throw new CommandError('invalid relays: expected a list of relay URLs');
  const picked = chosen === undefined ? null : new Set((chosen as string[]).map((u) => u.trim().replace(/\/+$/, '')));
  const listed = (await writeRelays(ctx, pubkey)).filter((url) => !picked || picked.has(url.trim().replace(/\/+$/, '')));
  if (!listed.length) throw new CommandError('Nincs írható relé a relélistádon (kind 10002), így nincs hová újraküldeni.');
  const relays: string[] = [];
  for (const url of listed) {
    if (relays.length >= MAX_RELAYS) break;
    if (!(await relayProblem(url, ctx.config.fetchPrivateAddresses))) relays.push(url);
  }
  if (!relays.length) throw new CommandError('A relélistád egyik reléje sem használható (csak nyilvános wss:// relék).');
  const k = kinds && kinds.length ? [...new Set(kinds)] : null;
  const f = kindFilter(k);
  const count = await ctx.db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM events WHERE pubkey = ? ${f.sql}`, [pubkey, ...f.params]);
  const now = ctx.now();
  const row: JobRow = {
    pubkey,
    kinds: JSON.stringify(k),
    relays: JSON.stringify(relays),
    status: 'running',
    total: Number(count?.n ?? 0),
    done: 0,
    cursor_created_at: -1,
    cursor_id: '',
    error: '',
  };
  await ctx.db.run(
    `INSERT INTO membership_rebroadcasts (pubkey, kinds, relays, status, total, done, cursor_created_at, cursor_id, error, started_at, updated_at)
     VALUES (?, ?, ?, 'running', ?, 0, -1, '', '', ?, ?)
     ON CONFLICT (pubkey) DO UPDATE SET kinds = excluded.kinds, relays = excluded.relays, status = 'running', total = excluded.total,
       done = 0, cursor_created_at = -1, cursor_id = '', error = '', started_at = excluded.started_at, updated_at = excluded.updated_at`,
    [pubkey, row.kinds, row.relays, row.total, now, now],
  );
  launch(ctx, row);
}

export async function cancelRebroadcast(ctx: ServerContext, pubkey: string): Promise<void> {
  const runner = runners(ctx).get(pubkey);
  if (runner) runner.stopped = true;
  await ctx.db.run(`UPDATE membership_rebroadcasts SET status = 'cancelled', updated_at = ? WHERE pubkey = ? AND status = 'running'`, [ctx.now(), pubkey]);
  await runner?.done;
}

/** Picks up jobs a previous run of the server left unfinished. */
export async function resumeRebroadcasts(ctx: ServerContext): Promise<void> {
  const rows = await ctx.db.all<JobRow>(`SELECT * FROM membership_rebroadcasts WHERE status = 'running' LIMIT ${MAX_RUNNING_JOBS}`);
  for (const row of rows) if (!runners(ctx).has(row.pubkey)) launch(ctx, row);
}

/**
 * Stops every runner (the jobs stay 'running' in the table and resume on the next start). A
 * runner waiting on a slow relay is not waited for: once stopped it touches the database no more.
 */
export async function stopRebroadcasts(ctx: ServerContext): Promise<void> {
  const all = [...runners(ctx).values()];
  for (const r of all) r.stopped = true;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, STOP_GRACE_MS);
    timer.unref();
  });
  await Promise.race([Promise.all(all.map((r) => r.done)), grace]);
  clearTimeout(timer);
}

function launch(ctx: ServerContext, row: JobRow): void {
  const runner: Runner = { stopped: false, done: Promise.resolve() };
  runners(ctx).set(row.pubkey, runner);
  runner.done = run(ctx, row, runner)
    .catch((err: unknown) => {
      if (ctx.config.verbose) console.error('Újraküldési hiba:', err);
    })
    .finally(() => {
      if (runners(ctx).get(row.pubkey) === runner) runners(ctx).delete(row.pubkey);
    });
}

async function finish(ctx: ServerContext, pubkey: string, status: JobState, error = ''): Promise<void> {
  await ctx.db.run(`UPDATE membership_rebroadcasts SET status = ?, error = ?, updated_at = ? WHERE pubkey = ? AND status = 'running'`, [
    status,
    error,
    ctx.now(),
    pubkey,
  ]);
}

/** Sends one batch to every relay, a few relays at a time; true when at least one relay took it. */
async function sendBatch(relays: string[], events: NostrEvent[], timeoutMs: number, allowPrivate: boolean): Promise<{ reached: boolean; error: string }> {
  let reached = false;
  let error = '';
  for (let i = 0; i < relays.length; i += RELAY_CONCURRENCY) {
    const answers = await Promise.all(relays.slice(i, i + RELAY_CONCURRENCY).map((url) => publishToRelay(url, events, timeoutMs, allowPrivate)));
    for (const perRelay of answers) {
      // A relay that already has an event answers "duplicate:"; it holds the event all the same.
      if (perRelay.some(([, ok, msg]) => ok || msg.startsWith('duplicate'))) reached = true;
      else error = perRelay.find(([, , msg]) => msg)?.[2] ?? error;
    }
  }
  return { reached, error };
}

async function run(ctx: ServerContext, row: JobRow, runner: Runner): Promise<void> {
  const kinds = parseList<number>(row.kinds);
  const relays = parseList<string>(row.relays) ?? [];
  const f = kindFilter(kinds);
  let cursorAt = Number(row.cursor_created_at);
  let cursorId = row.cursor_id;
  let failed = 0;
  while (!runner.stopped) {
    const rows = await ctx.db.all<{ id: string; created_at: number | string; kind: number | string; tags: string; content: string; sig: string }>(
      `SELECT id, created_at, kind, tags, content, sig FROM events
       WHERE pubkey = ? ${f.sql} AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT ${BATCH}`,
      [row.pubkey, ...f.params, cursorAt, cursorAt, cursorId],
    );
    if (!rows.length) return finish(ctx, row.pubkey, 'done');
    const events: NostrEvent[] = rows.map((r) => ({
      id: r.id,
      pubkey: row.pubkey,
      created_at: Number(r.created_at),
      kind: Number(r.kind),
      tags: parseList<string[]>(r.tags) ?? [],
      content: r.content,
      sig: r.sig,
    }));
    const result = await sendBatch(relays, events, membershipConfig(ctx).rebroadcastTimeoutMs, ctx.config.fetchPrivateAddresses);
    if (runner.stopped) return;
    failed = result.reached ? 0 : failed + 1;
    if (failed >= MAX_FAILED_BATCHES) return finish(ctx, row.pubkey, 'failed', result.error || 'a relék nem fogadták az eseményeket');
    const last = events[events.length - 1];
    cursorAt = last.created_at;
    cursorId = last.id;
    const moved = await ctx.db.run(
      `UPDATE membership_rebroadcasts SET done = done + ?, cursor_created_at = ?, cursor_id = ?, updated_at = ? WHERE pubkey = ? AND status = 'running'`,
      [events.length, cursorAt, cursorId, ctx.now(), row.pubkey],
    );
    // Cancelled (or replaced) meanwhile: the row no longer belongs to this runner.
    if (!moved.changes) return;
  }
}
