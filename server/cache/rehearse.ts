/**
 * The caches warm.ts fills are half of a cold start; the other half is code V8 has not optimised
 * yet: the commands' own code, the membership query, the reply's text and its deflate run only
 * when requests come, so the first second of `npm run load` still cost ~1.5× the CPU per request
 * of a warm one (bench/RESULTS.md, s11-load and s12-load). Before the start is announced, each
 * process therefore answers the requests a client's first screens send (home feed, a follows
 * feed, threads, profiles, user infos, notes, a search) the way a connection does (registry,
 * membership, frame, deflate), and throws the replies away. They are reads through the same
 * cached calls as any request, so the caches keep only what requests would have kept.
 */
import type { ServerContext } from '../context.ts';
import { Args, type Kwargs } from './args.ts';
import { withMembership } from './connection.ts';
import { eventsByIds } from './data.ts';
import { zlibFrame } from './framing.ts';
import { COMMANDS, commandEnv } from './registry.ts';

/** Requests answered at most: enough for V8 to optimise every command's hot functions. */
export const REHEARSALS = 1_400;
/** Notes (and their authors, threads and words) the requests are aimed at. */
const NOTES = 200;
const VIEWERS = 50;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Targets {
  viewers: string[];
  notes: string[];
  authors: string[];
  threads: string[];
  words: string[];
}

async function targets(ctx: ServerContext): Promise<Targets | null> {
  const viewers = (await ctx.db.all<{ pubkey: string }>('SELECT pubkey FROM events WHERE kind = 3 ORDER BY created_at DESC LIMIT ?', [VIEWERS])).map((r) => r.pubkey);
  const rows = await ctx.db.all<{ id: string }>('SELECT event_id AS id FROM posts ORDER BY created_at DESC LIMIT ?', [NOTES]);
  const events = [...(await eventsByIds(ctx.db, rows.map((r) => r.id))).values()].filter((e) => e.kind === 1);
  if (!viewers.length || !events.length) return null;
  const threads = events.flatMap((e) => e.tags.filter((t) => t[0] === 'e' && typeof t[1] === 'string').map((t) => t[1]));
  const words = new Set(events.flatMap((e) => e.content.toLowerCase().split(/[^\p{L}]+/u).filter((w) => w.length >= 5 && w.length <= 12)));
  return {
    viewers,
    notes: events.map((e) => e.id),
    authors: [...new Set(events.map((e) => e.pubkey))],
    threads: threads.length ? threads : events.map((e) => e.id),
    words: words.size ? [...words] : ['nostr'],
  };
}

const pick = <T>(xs: T[], round: number, k = 0) => xs[(round + k) % xs.length];

/** The requests of a client's first screens, the round-th of each aimed at the round-th targets. */
const REQUESTS: ((t: Targets, round: number) => [string, Kwargs])[] = [
  (t, r) => ['mega_feed_directive', { spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: pick(t.viewers, r), limit: 20 }],
  (t, r) => ['feed', { pubkey: pick(t.viewers, r, 1), notes: 'follows', limit: 20, user_pubkey: pick(t.viewers, r) }],
  (t, r) => ['thread_view', { event_id: pick(t.threads, r), limit: 20, user_pubkey: pick(t.viewers, r) }],
  (t, r) => ['user_profile', { pubkey: pick(t.authors, r), user_pubkey: pick(t.viewers, r) }],
  (t, r) => ['user_infos', { pubkeys: Array.from({ length: 20 }, (_, k) => pick(t.authors, r, k)) }],
  (t, r) => ['events', { event_ids: Array.from({ length: 10 }, (_, k) => pick(t.notes, r, k)), user_pubkey: pick(t.viewers, r) }],
  (t, r) => ['search', { query: pick(t.words, r), limit: 20, user_pubkey: pick(t.viewers, r) }],
];

export interface Rehearsal {
  answered: number;
  /** Requests that threw (a search word the grammar rejects): only their warmth is lost. */
  refused: number;
}

/** Answers up to `count` requests while `live()`, yielding to real requests between two. */
export async function rehearseCommands(ctx: ServerContext, live: () => boolean, count = REHEARSALS): Promise<Rehearsal> {
  const done: Rehearsal = { answered: 0, refused: 0 };
  const t = await targets(ctx);
  if (!t) return done;
  const env = commandEnv(ctx, {});
  for (let i = 0; i < count && live(); i++) {
    const [name, kwargs] = REQUESTS[i % REQUESTS.length](t, Math.floor(i / REQUESTS.length));
    try {
      zlibFrame('rehearsal', await withMembership(ctx, await COMMANDS.get(name)!(new Args(kwargs), env)));
      done.answered++;
    } catch {
      done.refused++;
    }
    await nextTurn();
  }
  return done;
}
