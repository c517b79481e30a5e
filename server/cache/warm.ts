/**
 * A freshly started server's in-memory caches (hot-cache.ts) are empty and its code not yet
 * optimised: under `npm run load` the first second of a round cost ~1.5× the CPU per request of
 * a warm one, the main thread fell 1–2 s behind and those seconds alone put every command's p99
 * at 250–1,200 ms (bench/RESULTS.md, s11-load). So each process, before it announces its start
 * (app.ts; its sockets are already open and go first between pages), builds the bundles of the
 * newest notes once, as a feed page would: the same calls fill the same caches through their usual
 * invalidation checks, so nothing kept differs from what requests would have kept, and nothing is sent.
 */
import type { ServerContext } from '../context.ts';
import { enrich, type FeedItem } from './enrich.ts';
import { hotCaches } from './hot-cache.ts';

/** Notes whose bundles are built: well inside the events cache (50,000), and a few seconds of background CPU at most. */
export const WARM_NOTES = 10_000;
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

export function warmHotCaches(ctx: ServerContext, notes = WARM_NOTES, budgetMs = WARM_BUDGET_MS): Warming {
  let stopped = false;
  const run = async () => {
    // A store no server attached keeps no caches to fill.
    if (!hotCaches(ctx.db)) return;
    const started = performance.now();
    let before: number | undefined;
    let warmed = 0;
    const seen = new Set<string>();
    while (!stopped && warmed < notes && performance.now() - started < budgetMs) {
      // One index range per page (posts_time), so no statement holds the thread for long at a million events.
      const rows = await ctx.db.all<{ id: string; k: number | string }>(
        `SELECT event_id AS id, created_at AS k FROM posts${before === undefined ? '' : ' WHERE created_at <= ?'}
         ORDER BY created_at DESC LIMIT ?`,
        before === undefined ? [PAGE] : [before, PAGE],
      );
      const items: FeedItem[] = [];
      for (const r of rows) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        items.push({ id: r.id, key: Number(r.k) });
      }
      // Only posts of the same second as the last page's oldest: step past that second.
      if (!items.length) {
        if (rows.length < PAGE) break;
        before = Number(rows[rows.length - 1].k) - 1;
        continue;
      }
      if (stopped) break;
      await enrich(ctx.db, items, { orderBy: 'created_at' });
      warmed += items.length;
      before = Number(rows[rows.length - 1].k);
      if (rows.length < PAGE) break;
      // Requests that came in meanwhile go first.
      await nextTurn();
    }
    if (ctx.config.verbose) console.log(`Gyorsítótár előmelegítve: ${warmed} jegyzet, ${Math.round(performance.now() - started)} ms.`);
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
