/**
 * orderby:likes|score|replies|satszapped ranks a query's newest RANK_WINDOW matches by a count (sql.ts):
 * for a common word every request reads 5,000 matches and their counts (tens of ms of CPU at 1M events)
 * to return 20. This keeps each such window in memory — per note its id, created_at, the window's order
 * key and the four counts — read on a miss (window-rows.ts: one statement on SQLite, the window then its
 * counts on PostgreSQL), and sorts and pages it here, so a page costs a sort of memory at most. Requests for
 * a window being read wait for that one read; at most BUILDS_AT_ONCE windows are read at once.
 *
 * A window is exactly what the plain statement would rank now (tests/integration/search-window-cache.test.ts
 * compares them page by page on both stores), because the hot cache (hot-cache.ts) tells it of every
 * committed event, local or from another process:
 * - a note's counts changed: its counts are read again at the next request (`statsChanged`; all of them
 *   after `allStatsChanged`, when the hot cache cannot name the notes);
 * - a new note of a kind the query covers: at the next request the matches created in the new notes'
 *   time span are read again (a narrow slice of the window's own statement) and merged in, trimmed back
 *   to the newest RANK_WINDOW;
 * - a deletion, a new version of a replaceable note (its old row goes), a contact list for a query that
 *   reads follows: the window is dropped and built again when next asked for.
 * Queries whose matches other events can change (windowShape) are not cached. The memory is bounded by
 * rows over all windows, least recently used windows going first.
 */
import type { NostrEvent } from '../context.ts';
import type { FeedItem } from '../cache/enrich.ts';
import { SEARCH_KINDS } from '../ingest/index-search.ts';
import { hasPointer } from '../ingest/kinds.ts';
import type { Queryable } from '../store/db.ts';
import type { ParsedQuery } from './grammar.ts';
import { RANK_WINDOW, type SearchPage } from './sql.ts';
import { concat, emptyRows, indexOf, pick, readCounts, readWindow, type Rows } from './window-rows.ts';
import { buildWindowRows, windowShape, type WindowMetric, type WindowQueryOptions, type WindowShape } from './window-sql.ts';

/**
 * 64 full windows: ~60 MB (192 bytes a row measured with 60 windows of the 1M bench database, ids, their
 * index and three metrics' orders included; bench/RESULTS.md s10-orderby).
 */
export const MAX_WINDOW_ROWS = 320_000;
/**
 * Windows read at once; more wait their turn. A burst of cold windows (a restart, a new common word in many
 * queries) would otherwise take every connection of PostgreSQL's pool (store/postgres.ts, 8) for as long as
 * the burst lasts and queue every other command's statements behind it (a `SELECT 1` waited 4–6 s behind 60
 * windows at 1M events, bench/RESULTS.md s11-pgob). Half the pool: the rest stays free for other commands,
 * and four keep the cores of a small PostgreSQL busy (two at once were slower to build a burst on a busy machine).
 */
export const BUILDS_AT_ONCE = 4;
/** Past this many changed notes awaiting a re-read, all the window's counts are read again instead. */
const MAX_STALE_IDS = 1000;

class Window {
  rows: Rows = emptyRows(0);
  index = new Map<string, number>();
  /** Row numbers per metric in the plain statement's order: count, then created_at, newest first, then id. */
  private sorted: Partial<Record<WindowMetric, Uint32Array>> = {};
  /** Set while the building statement runs. */
  built: Promise<void> | null = null;
  refreshing: Promise<void> | null = null;
  /** created_at span of new notes not read yet. */
  pending: { since: number; until: number } | null = null;
  /** Notes whose counts changed since they were read; 'all': every note's may have. */
  stale: Set<string> | 'all' = new Set();
  /** Dropped from the cache: still answers the requests that hold it, once. */
  dead = false;

  constructor(
    readonly q: ParsedQuery,
    readonly opts: WindowQueryOptions,
    readonly shape: WindowShape,
  ) {}

  get size(): number {
    return this.rows.ids.length;
  }

  get full(): boolean {
    return this.size >= (this.opts.rankWindow ?? RANK_WINDOW);
  }

  setRows(rows: Rows, index = indexOf(rows)): void {
    this.rows = rows;
    this.index = index;
    this.sorted = {};
  }

  countsChanged(): void {
    this.sorted = {};
  }

  order(metric: WindowMetric): Uint32Array {
    const done = this.sorted[metric];
    if (done) return done;
    const { ids, createdAt } = this.rows;
    const k = this.rows.counts[metric];
    const perm = Uint32Array.from(ids.keys());
    perm.sort((a, b) => k[b] - k[a] || createdAt[b] - createdAt[a] || (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
    this.sorted[metric] = perm;
    return perm;
  }

  /** The page the plain statement's outer ORDER BY / LIMIT / OFFSET and RANGE bounds on the count give. */
  page(metric: WindowMetric, page: SearchPage): FeedItem[] {
    const out: FeedItem[] = [];
    if (page.limit <= 0) return out;
    const k = this.rows.counts[metric];
    let skip = page.offset;
    for (const i of this.order(metric)) {
      const v = k[i];
      if (page.until !== undefined && v > page.until) continue;
      if (page.since !== undefined && v < page.since) break;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push({ id: this.rows.ids[i], key: v });
      if (out.length >= page.limit) break;
    }
    return out;
  }

  admits(kind: number): boolean {
    return this.shape.kinds === null || this.shape.kinds.has(kind);
  }

  noteCreated(at: number): void {
    this.pending = this.pending ? { since: Math.min(this.pending.since, at), until: Math.max(this.pending.until, at) } : { since: at, until: at };
  }

  statsChanged(id: string): void {
    if (this.stale === 'all') return;
    // While its rows are being read, any note may end up in the window.
    if (!this.built && !this.refreshing && !this.index.has(id)) return;
    this.stale.add(id);
    if (this.stale.size > MAX_STALE_IDS) this.stale = 'all';
  }

  get needsRefresh(): boolean {
    return this.pending !== null || this.stale === 'all' || this.stale.size > 0;
  }
}

export class WindowCache {
  /** Insertion order is use order: least recently used first. */
  private readonly windows = new Map<string, Window>();
  private rows = 0;
  private readonly builds = new Gate(BUILDS_AT_ONCE);

  constructor(private readonly maxRows = MAX_WINDOW_ROWS) {}

  /** Windows held and their rows (for tests and the bench). */
  get stats(): { windows: number; rows: number } {
    return { windows: this.windows.size, rows: this.rows };
  }

  /**
   * The page of an orderby search from its cached window, or null when the query is not one the cache
   * keeps (windowShape): the caller runs the plain statement then.
   */
  async page(db: Queryable, q: ParsedQuery, opts: WindowQueryOptions & { page: SearchPage }): Promise<FeedItem[] | null> {
    const shape = windowShape(q, opts.defaultKinds);
    if (!shape) return null;
    const metric = q.orderBy as WindowMetric;
    const wopts: WindowQueryOptions = { viewer: opts.viewer, dialect: db.dialect, defaultKinds: opts.defaultKinds, rankWindow: opts.rankWindow };
    const build = buildWindowRows(q, wopts);
    const key = `${build.sql}\u0000${JSON.stringify(build.params)}`;
    let w = this.windows.get(key);
    if (w) {
      this.windows.delete(key);
      this.windows.set(key, w);
    } else {
      const fresh = new Window(q, wopts, shape);
      w = fresh;
      this.windows.set(key, fresh);
      fresh.built = this.load(db, fresh, key).finally(() => (fresh.built = null));
    }
    if (w.built) await w.built;
    if (w.refreshing) await w.refreshing;
    else if (w.needsRefresh && !w.dead) {
      const refreshing = this.refresh(db, w, key);
      w.refreshing = refreshing.finally(() => (w.refreshing = null));
      await w.refreshing;
    }
    return w.page(metric, opts.page);
  }

  private async load(db: Queryable, w: Window, key: string): Promise<void> {
    try {
      const { rows, index } = await this.builds.run(() => readWindow(db, w.q, w.opts));
      this.resize(w, () => w.setRows(rows, index));
    } catch (err) {
      this.drop(key, w);
      throw err;
    }
  }

  /** Brings a window up to date with what happened since it was read (see the header). */
  private async refresh(db: Queryable, w: Window, key: string): Promise<void> {
    const pending = w.pending;
    const stale = w.stale;
    w.pending = null;
    w.stale = new Set();
    try {
      if (pending) await this.mergeSlice(db, w, pending);
      if (stale === 'all' || stale.size) await this.reread(db, w, stale === 'all' ? w.rows.ids : [...stale].filter((id) => w.index.has(id)));
    } catch (err) {
      this.drop(key, w);
      throw err;
    }
  }

  /** Reads again the matches created in `span` and puts them in place of the window's rows of that span. */
  private async mergeSlice(db: Queryable, w: Window, span: { since: number; until: number }): Promise<void> {
    // A full window keeps its oldest rows against notes created a second or more before them (a search key
    // is created_at × 2^20 plus less than 2^20, and the few probes of a clash, search-schema.ts).
    if (w.full && span.until < minOf(w.rows.createdAt) - 1) return;
    // One second more above: a note of the span's last second whose key moved up on a clash still falls inside.
    const slice = { since: span.since, until: span.until + 1 };
    if (Math.max(w.q.since ?? slice.since, slice.since) > Math.min(w.q.until ?? slice.until, slice.until)) return;
    const { n, rows: found } = await readWindow(db, w.q, w.opts, slice);
    const size = w.opts.rankWindow ?? RANK_WINDOW;
    if (n >= size) {
      // The slice alone fills a window: read the whole of it again.
      const whole = await readWindow(db, w.q, w.opts);
      this.resize(w, () => w.setRows(whole.rows, whole.index));
      return;
    }
    const inSpan = (at: number) => at >= span.since && at <= span.until;
    const keep = [...w.rows.ids.keys()].filter((i) => !inSpan(w.rows.createdAt[i]));
    const add = [...found.ids.keys()].filter((i) => inSpan(found.createdAt[i]));
    const all = concat(pick(w.rows, keep), pick(found, add));
    // Newest first in the window's own order: the plain statement ranks the first RANK_WINDOW of these.
    const byOrder = [...all.ids.keys()].sort((a, b) => all.order[b] - all.order[a]);
    this.resize(w, () => w.setRows(pick(all, byOrder.slice(0, size))));
  }

  private async reread(db: Queryable, w: Window, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await readCounts(db, w.rows, w.index, ids);
    w.countsChanged();
  }

  /** Runs a change of `w`'s rows, keeping the total in step and within the bound. */
  private resize(w: Window, change: () => void): void {
    const before = w.size;
    change();
    if (w.dead) return;
    this.rows += w.size - before;
    for (const [key, lru] of this.windows) {
      if (this.rows <= this.maxRows || lru === w) break;
      this.drop(key, lru);
    }
  }

  private drop(key: string, w: Window): void {
    if (w.dead) return;
    w.dead = true;
    this.rows -= w.size;
    if (this.windows.get(key) === w) this.windows.delete(key);
  }

  private dropWhere(f: (w: Window) => boolean): void {
    for (const [key, w] of [...this.windows]) if (f(w)) this.drop(key, w);
  }

  /** A committed event (the hot cache's live feed): what it can add to or take from the windows. */
  onEvent(event: NostrEvent): void {
    if (event.kind === 5) return this.dropWhere(() => true);
    if (event.kind === 3) this.dropWhere((w) => w.shape.follows);
    if (event.kind === 9735) return this.zapped(event);
    if (!SEARCH_KINDS.has(event.kind)) return;
    // A new version of a replaceable note takes the old one's row away (ingest/index-search.ts).
    if (hasPointer(event.kind)) return this.dropWhere((w) => w.admits(event.kind));
    for (const w of this.windows.values()) if (w.admits(event.kind)) w.noteCreated(event.created_at);
  }

  /**
   * A zap receipt counts on the note its last e tag names (ingest/apply.ts applyZap), or, for an article
   * named by address or by an old version's id, on the article's current version, which only windows
   * covering addressable kinds can hold.
   */
  private zapped(event: NostrEvent): void {
    for (const t of event.tags) if (t[0] === 'e' && typeof t[1] === 'string') this.statsChanged(t[1]);
    for (const w of this.windows.values()) if (w.shape.kinds === null || [...w.shape.kinds].some(hasPointer)) w.stale = 'all';
  }

  /** A note's counts changed (hot-cache.ts forgetEngagement). */
  statsChanged(id: string): void {
    for (const w of this.windows.values()) w.statsChanged(id);
  }

  /** Any note's counts may have changed. */
  allStatsChanged(): void {
    for (const w of this.windows.values()) w.stale = 'all';
  }

  clear(): void {
    this.dropWhere(() => true);
  }
}

function minOf(xs: Float64Array): number {
  let m = Infinity;
  for (const x of xs) if (x < m) m = x;
  return m;
}

/** At most `size` tasks running at once, the others started in turn as those end. */
class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running++;
    else await new Promise<void>((start) => this.waiting.push(start));
    try {
      return await task();
    } finally {
      // The slot passes to the next task waiting, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
