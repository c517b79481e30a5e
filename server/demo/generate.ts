import { nip19 } from 'nostr-tools';
import type { NostrEvent } from '../context.ts';
import { articlePhase } from './articles.ts';
import { composeNote, hashtagTags, TOPIC_BY_ID } from './compose.ts';
import { dvmPhase } from './dvms.ts';
import { reactionPhase, replyPhase, repostPhase } from './interactions.ts';
import { DEMO_MEDIA_DOMAIN, DEMO_NIP05_DOMAIN } from './media-urls.ts';
import { Network, type Counts } from './model.ts';
import { bookmarkPhase, deletionPhase, dmPhase, mutePhase } from './private.ts';
import { privateDmPhase } from './private17.ts';
import { buildUsers, profilePhases } from './profiles.ts';
import { Rng, WeightedPicker } from './rng.ts';
import { demoSigner } from './sign.ts';
import { HOUSE_NOTES } from './text-social.ts';
import { TOPICS } from './text-notes.ts';
import { zapPhase } from './zaps.ts';

export interface DemoNetworkOptions {
  /** Different seeds give different (but equally reproducible) networks. */
  seed?: string;
  /** 1 is the full network (≈320 users, ≈45,000 events); counts scale linearly. */
  scale?: number;
  /** Unix seconds; every timestamp lies in the 30 days before it. */
  now: number;
  nip05Domain?: string;
  mediaDomain?: string;
}

export const DEFAULT_DEMO_SEED = 'strucc';
export const BATCH_SIZE = 1000;

/** Event counts for a scale; small scales keep a minimum so every feature is present. */
export function demoCounts(scale = 1): Counts {
  const s = Math.max(0, scale);
  const n = (base: number, min: number) => Math.max(min, Math.round(base * s));
  return {
    users: n(320, 10),
    notes: n(7600, 40),
    replies: n(4000, 20),
    quotes: n(500, 3),
    reposts: n(1500, 5),
    reactions: n(22500, 60),
    zaps: n(1150, 6),
    articles: n(64, 3),
    dmPairs: n(40, 3),
    deletions: n(20, 2),
  };
}

/** Top-level notes: the house account's announcements and everyone's everyday posts. */
function notePhase(net: Network): void {
  const rng = net.rng.fork('notes');
  const house = net.users[0];
  HOUSE_NOTES.forEach((content, i) => {
    // The welcome note is the oldest, so it reads as the network's first post.
    const createdAt = i === 0 ? net.start + 6 * 3600 : net.sampleTime(rng, net.start + 7 * 3600);
    const event = net.emit({ kind: 1, created_at: createdAt, tags: hashtagTags(content), content }, house.account.secretKey);
    if (event) net.notes.push({ event, author: 0, depth: 0, topic: 'nostr', appeal: 4 });
  });
  const authors = new WeightedPicker(net.users.map((u) => u.activity));
  for (let k = 0; k < net.counts.notes; k++) {
    const author = net.users[authors.pick(rng)];
    const topic = TOPIC_BY_ID.get(rng.chance(0.75) ? rng.pick(author.topics) : rng.pick(TOPICS).id) ?? TOPICS[0];
    const friends = author.follows.filter((i) => i !== 0);
    const friend = friends.length > 0 ? net.users[rng.pick(friends)] : undefined;
    const composed = composeNote(rng, topic, {
      mentionNpub: friend ? nip19.npubEncode(friend.account.pubkey) : undefined,
      mentionPubkey: friend?.account.pubkey,
      mediaDomain: net.mediaDomain,
      siteDomain: net.nip05Domain,
    });
    const createdAt = net.sampleTime(rng, author.joinedAt + 600);
    const event = net.emit({ kind: 1, created_at: createdAt, tags: composed.tags, content: composed.content }, author.account.secretKey);
    if (!event) continue;
    // Appeal: popular authors draw more, and a lognormal factor lets a few posts go viral.
    const appeal = (0.15 + author.popularity * 6) ** 0.7 * Math.exp(0.9 * rng.normal());
    net.notes.push({ event, author: author.idx, depth: 0, topic: topic.id, appeal });
  }
}

function byTime(a: NostrEvent, b: NostrEvent): number {
  return a.created_at - b.created_at || (a.id < b.id ? -1 : 1);
}

function chunk(events: NostrEvent[], size: number): NostrEvent[][] {
  const out: NostrEvent[][] = [];
  for (let i = 0; i < events.length; i += size) out.push(events.slice(i, i + size));
  return out;
}

/**
 * The seeded demo network as batches of signed events in dependency order: profiles,
 * relay lists and contacts; notes and articles; then replies and quotes, reposts,
 * reactions, zaps, DMs, mute lists, bookmarks and deletions. Every reference points at
 * an event of an earlier batch (or earlier in the same batch), and every interaction is
 * later than its target. Same seed and `now` give identical events.
 */
export async function generateDemoNetwork(opts: DemoNetworkOptions): Promise<NostrEvent[][]> {
  if (!Number.isFinite(opts.now) || opts.now <= 0) throw new RangeError('generateDemoNetwork needs a positive `now` (unix seconds)');
  const sign = await demoSigner();
  const seed = opts.seed ?? DEFAULT_DEMO_SEED;
  const net = new Network(
    new Rng(`strucc-demo:${seed}`),
    Math.floor(opts.now),
    sign,
    demoCounts(opts.scale ?? 1),
    opts.nip05Domain ?? DEMO_NIP05_DOMAIN,
    opts.mediaDomain ?? DEMO_MEDIA_DOMAIN,
  );
  buildUsers(net);
  const { profiles, relayLists, contacts } = profilePhases(net);
  notePhase(net);
  articlePhase(net);
  const posts = [...net.notes, ...net.articles].map((p) => p.event).sort(byTime);
  const replies = replyPhase(net);
  const phases = [profiles, relayLists, contacts, posts, replies];
  const dms = dmPhase(net);
  phases.push(repostPhase(net), reactionPhase(net), zapPhase(net), dms);
  // Bookmarks mark what they point at as referenced, so deletions must come after them.
  phases.push(mutePhase(net), bookmarkPhase(net));
  phases.push(deletionPhase(net));
  // Last, with no randomness of its own: adding it changed no other demo event.
  phases.push(dvmPhase(net));
  // After that, with an rng of its own, for the same reason.
  phases.push(privateDmPhase(net, dms));
  return phases.flatMap((events) => chunk(events, BATCH_SIZE));
}
