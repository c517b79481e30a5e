/**
 * What the latency benches ask for (bench/server.ts over sockets, bench/hot-queries.ts in process):
 * the hot commands with random but realistic targets drawn from the bench database.
 */
import type { NostrEvent } from '../server/context.ts';
import { openSqlite } from '../server/store/sqlite.ts';

export interface Targets {
  viewers: string[];
  threads: string[];
  profiles: string[];
  notified: string[];
  words: string[];
}

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

/** Frequent longer words of the demo notes: searches that find something. */
function searchWords(events: NostrEvent[]): string[] {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.kind !== 1) continue;
    for (const w of e.content.toLowerCase().split(/[^\p{L}]+/u)) if (w.length >= 5 && w.length <= 12) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 60).map(([w]) => w);
}

export async function benchTargets(file: string, events: NostrEvent[]): Promise<Targets> {
  const db = openSqlite(file);
  try {
    const col = async (sql: string) => (await db.all<{ v: string }>(sql)).map((r) => r.v);
    return {
      viewers: await col('SELECT pubkey AS v FROM follows GROUP BY pubkey LIMIT 2000'),
      threads: await col('SELECT root_id AS v FROM posts WHERE root_id IS NOT NULL GROUP BY root_id ORDER BY COUNT(*) DESC LIMIT 1000'),
      profiles: await col(`SELECT pubkey AS v FROM replaceable WHERE kind = 0 AND d = '' LIMIT 5000`),
      notified: await col('SELECT pubkey AS v FROM notifications GROUP BY pubkey LIMIT 2000'),
      words: searchWords(events),
    };
  } finally {
    await db.close();
  }
}

/** Short name prefixes: common Hungarian starts and the b… of the synthetic "bench…" users. */
const USER_PREFIXES = ['a', 'b', 'k', 'be', 'sz', 'an', 'ben', 'kat', 'mar', 'bench1'];

/** [row label, command, arguments of the next request]. */
export function hotCommands(t: Targets): [string, string, () => Record<string, unknown>][] {
  const viewer = () => pick(t.viewers);
  return [
    ['mega_feed_directive (latest)', 'mega_feed_directive', () => ({ spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: viewer(), limit: 20 })],
    ['thread_view', 'thread_view', () => ({ event_id: pick(t.threads), limit: 20, user_pubkey: viewer() })],
    ['user_profile', 'user_profile', () => ({ pubkey: pick(t.profiles), user_pubkey: viewer() })],
    // popular: the bench server runs on today's clock while the data ends at BENCH_NOW, so the week-bound
    // timeframes would rank an empty window; popular ranks everything (the score index walked from the top).
    ['explore (popular, global)', 'explore', () => ({ timeframe: 'popular', scope: 'global', limit: 20, user_pubkey: viewer() })],
    ['get_notifications', 'get_notifications', () => ({ pubkey: pick(t.notified), limit: 20, user_pubkey: viewer() })],
    ['search', 'search', () => ({ query: pick(t.words), limit: 20, user_pubkey: viewer() })],
    // The grammar's costliest family (ranks the newest 5,000 matches by a count) and user_search's short
    // prefixes, "b…" among them (3,000+ synthetic "bench…" names): issue 18's < 100 ms is for search of every kind.
    ['search (orderby:likes|score|replies)', 'search', () => ({ query: `${pick(t.words)} orderby:${pick(['likes', 'score', 'replies'])}`, limit: 20, user_pubkey: viewer() })],
    ['user_search (1-3 letter prefix)', 'user_search', () => ({ query: pick(USER_PREFIXES), limit: 10, user_pubkey: viewer() })],
  ];
}
