/**
 * A freshly started server's in-memory caches (hot-cache.ts) are empty and its code not yet
 * optimised: under `npm run load` the first second of a round cost ~1.5× the CPU per request of
 * a warm one, the main thread fell 1–2 s behind and those seconds alone put every command's p99
 * at 250–1,200 ms (bench/RESULTS.md, s11-load). So each process, before it announces its start
 * (app.ts; its sockets are already open and go first between pages), builds the bundles of the
 * newest notes once, as a feed page would, then the first follows-feed page of the newest contact
 * lists' owners: the same calls fill the same caches through their usual invalidation checks, so
 * nothing kept differs from what requests would have kept, and nothing is sent.
 */
import type { ServerContext } from '../context.ts';
import { feedItems } from './commands/feeds.ts';
import { enrich } from './enrich.ts';
import { hotCaches } from './hot-cache.ts';
import { rehearseCommands } from './rehearse.ts';

/** Notes whose bundles are built: well inside the events cache (50,000), and a few seconds of background CPU at most. */
export const WARM_NOTES = 10_000;
/** Viewers whose follows feed is built (the follows cache holds 5,000). */
export const FEED_VIEWERS = 2_000;
/** Notes per bundle: a page of statements per slice, and a short slice between two requests (a few ms). */
const PAGE = 50;
/** A slow machine or a huge store stops warming here rather than delaying the start (it waits for this, app.ts). */
export const WARM_BUDGET_MS = 5_000;

export interface Warming {
  /** Resolves once the warming ended (done, stopped or failed: a cold cache is only slower). */
  done: Promise<void>;
  /** Ends it after the current page, for a closing server. */
  stop(): Promise<void>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Rows of the statement `sql` builds (id, created_at as k) for the given kinds, newest first, a page of PAGE at a time: one index range per page
 * (posts_time, events_kind_time), so no statement holds the thread for long at a million events.
 */
async function* newest(ctx: ServerContext, sql: (bound: string) => string, kinds: number[], live: () => boolean) {
  let before: number | undefined;
  const seen = new Set<string>();
  while (live()) {
    const bound = before === undefined ? '' : ' AND created_at <= ?';
    const rows = await ctx.db.all<{ id: string; k: number | string }>(sql(bound), [...kinds, ...(before === undefined ? [] : [before]), PAGE]);
    const fresh = rows.filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    if (fresh.length) yield fresh.map((r) => ({ id: r.id, key: Number(r.k) }));
    if (rows.length < PAGE) return;
    // A page of one second only (all seen already): step past that second.
    before = Number(rows[rows.length - 1].k) - (fresh.length ? 0 : 1);
    // Requests that came in meanwhile go first.
    await nextTurn();
  }
}

export function warmHotCaches(ctx: ServerContext, notes = WARM_NOTES, budgetMs = WARM_BUDGET_MS): Warming {
  let stopped = false;
  const run = async () => {
    // A store no server attached keeps no caches to fill.
    if (!hotCaches(ctx.db)) return;
    const started = performance.now();
    const live = () => !stopped && performance.now() - started < budgetMs;
    let warmed = 0;
    const posts = newest(ctx, (bound) => `SELECT event_id AS id, created_at AS k FROM posts WHERE 1 = 1${bound} ORDER BY created_at DESC LIMIT ?`, [], () => live() && warmed < notes);
    for await (const items of posts) {
      await enrich(ctx.db, items, { orderBy: 'created_at' });
      warmed += items.length;
    }
    // The follows feed's first page of the newest contact lists' owners: their follows and each followed
    // author's newest posts (follows-cache.ts), the page every client opens with.
    let viewers = 0;
    const lists = newest(ctx, (bound) => `SELECT pubkey AS id, created_at AS k FROM events WHERE kind = ?${bound} ORDER BY created_at DESC LIMIT ?`, [3], () => live() && viewers < FEED_VIEWERS);
    for await (const owners of lists) {
      for (const { id: viewer } of owners) {
        if (!live()) break;
        const items = await feedItems(ctx.db, { pubkey: viewer, notes: 'follows', includeReplies: false, limit: 20, offset: 0 });
        await enrich(ctx.db, items, { viewer, orderBy: 'created_at' });
        viewers++;
        await nextTurn();
      }
    }
    // Then the code: the requests of a client's first screens, answered and thrown away (rehearse.ts).
    const rehearsed = await rehearseCommands(ctx, live);
    if (ctx.config.verbose) {
      console.log(`Gyorsítótár előmelegítve: ${warmed} jegyzet, ${viewers} követési hírfolyam, ${rehearsed.answered} próbakérés, ${Math.round(performance.now() - started)} ms.`);
    }
  };
  const done = run().catch((err: unknown) => {
    if (ctx.config.verbose) console.error('Gyorsítótár-előmelegítési hiba:', err);
  });
  return {
    done,
    async stop() {
      stopped = true;
      await done;
    },
  };
}
