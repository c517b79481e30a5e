import { nip19 } from 'nostr-tools';
import type { NostrEvent } from '../context.ts';
import { composeReply } from './compose.ts';
import { Network, type Post, type User } from './model.ts';
import { WeightedPicker, type Rng } from './rng.ts';
import { RELAY_URLS } from './text.ts';
import { QUOTE_COMMENTS } from './text-social.ts';

export const RELAY_HINT = RELAY_URLS[0];

/**
 * Who acts on a post: mostly the author's followers, sometimes anyone active. Never the
 * house account (it only posts) and never the author.
 */
export class ActorPicker {
  private readonly byActivity: WeightedPicker;

  constructor(private readonly net: Network) {
    this.byActivity = new WeightedPicker(net.users.map((u) => u.activity));
  }

  pick(rng: Rng, author: User): User | null {
    for (let tries = 0; tries < 12; tries++) {
      const idx = author.followers.length > 0 && rng.chance(0.6) ? rng.pick(author.followers) : this.byActivity.pick(rng);
      if (idx !== 0 && idx !== author.idx) return this.net.users[idx];
    }
    return null;
  }
}

function byTime(a: NostrEvent, b: NostrEvent): number {
  return a.created_at - b.created_at || (a.id < b.id ? -1 : 1);
}

/** Replies (NIP-10 threads up to depth 5) and quote posts, in time order. */
export function replyPhase(net: Network): NostrEvent[] {
  const rng = net.rng.fork('replies');
  const actors = new ActorPicker(net);
  const notePicker = new WeightedPicker(net.notes.map((p) => p.appeal));
  const out: NostrEvent[] = [];
  for (let k = 0; k < net.counts.replies; k++) {
    let parent: Post = net.notes[notePicker.pick(rng)];
    if (net.replies.length > 0 && rng.chance(0.42)) {
      const candidate = net.replies[rng.int(net.replies.length)];
      if (candidate.depth < 5) parent = candidate;
    }
    const root = parent.root ?? parent;
    const parentAuthor = net.users[parent.author];
    let replier: User | null = actors.pick(rng, parentAuthor);
    // Authors answer in their own threads: that is what makes threads deep.
    if (parent.depth >= 1 && root.author !== parent.author && root.author !== 0 && rng.chance(0.35)) replier = net.users[root.author];
    if (!replier) continue;
    const createdAt = net.after(rng, parent.event.created_at, 90 * 60);
    if (createdAt === null) continue;
    const tags: string[][] = [['e', root.event.id, RELAY_HINT, 'root', root.event.pubkey]];
    if (parent !== root) tags.push(['e', parent.event.id, RELAY_HINT, 'reply', parent.event.pubkey]);
    const people = [parent.event.pubkey, ...parent.event.tags.filter((t) => t[0] === 'p').map((t) => t[1])];
    for (const pk of [...new Set(people)].slice(0, 8)) if (pk !== replier.account.pubkey) tags.push(['p', pk]);
    const event = net.emit({ kind: 1, created_at: createdAt, tags, content: composeReply(rng, root.topic) }, replier.account.secretKey);
    if (!event) continue;
    net.referenced.add(parent.event.id).add(root.event.id);
    net.replies.push({ event, author: replier.idx, depth: parent.depth + 1, topic: root.topic, appeal: root.appeal * 0.25 * (0.5 + rng.next()), root });
    out.push(event);
  }

  const quotes: Post[] = [];
  for (let k = 0; k < net.counts.quotes; k++) {
    const target = net.notes[notePicker.pick(rng)];
    const quoter = actors.pick(rng, net.users[target.author]);
    const createdAt = net.after(rng, target.event.created_at, 4 * 3600);
    if (!quoter || createdAt === null) continue;
    const { id, pubkey } = target.event;
    const asNevent = rng.chance(0.6);
    const ref = asNevent ? nip19.neventEncode({ id, author: pubkey, relays: [RELAY_HINT] }) : nip19.noteEncode(id);
    const tags = [asNevent ? ['q', id, RELAY_HINT, pubkey] : ['e', id, RELAY_HINT, 'mention'], ['p', pubkey, '', 'mention']];
    const content = `${rng.pick(QUOTE_COMMENTS)}\n\nnostr:${ref}`;
    const event = net.emit({ kind: 1, created_at: createdAt, tags, content }, quoter.account.secretKey);
    if (!event) continue;
    net.referenced.add(id);
    quotes.push({ event, author: quoter.idx, depth: 0, topic: target.topic, appeal: target.appeal * 0.3 });
    out.push(event);
  }
  net.notes.push(...quotes);
  return out.sort(byTime);
}

/** Kind-6 reposts carrying the reposted event as JSON. */
export function repostPhase(net: Network): NostrEvent[] {
  const rng = net.rng.fork('reposts');
  const actors = new ActorPicker(net);
  const picker = new WeightedPicker(net.notes.map((p) => (p.event.tags.some((t) => t[0] === 'q' || t[3] === 'mention') ? 0.2 : 1) * p.appeal));
  const seen = new Set<string>();
  const out: NostrEvent[] = [];
  for (let k = 0; k < net.counts.reposts * 2 && out.length < net.counts.reposts; k++) {
    const target = net.notes[picker.pick(rng)];
    const reposter = actors.pick(rng, net.users[target.author]);
    if (!reposter || seen.has(`${reposter.idx}:${target.event.id}`)) continue;
    const createdAt = net.after(rng, target.event.created_at, 3 * 3600);
    if (createdAt === null) continue;
    const tags = [['e', target.event.id, RELAY_HINT], ['p', target.event.pubkey]];
    const event = net.emit({ kind: 6, created_at: createdAt, tags, content: JSON.stringify(target.event) }, reposter.account.secretKey);
    if (!event) continue;
    seen.add(`${reposter.idx}:${target.event.id}`);
    net.referenced.add(target.event.id);
    out.push(event);
  }
  return out.sort(byTime);
}

const REACTIONS: Array<[string, number]> = [['+', 70], ['❤️', 10], ['🤙', 5], ['🔥', 5], ['😂', 4], ['👏', 3], ['⚡', 1.5], ['-', 1.5]];
const REACTION_PICKER = new WeightedPicker(REACTIONS.map(([, w]) => w));

/** Kind-7 reactions: one per person and post, mostly likes. */
export function reactionPhase(net: Network): NostrEvent[] {
  const rng = net.rng.fork('reactions');
  const actors = new ActorPicker(net);
  const pool = [...net.notes, ...net.replies];
  const picker = new WeightedPicker(pool.map((p) => p.appeal));
  const seen = new Set<string>();
  const out: NostrEvent[] = [];
  for (let k = 0; k < net.counts.reactions * 2 && out.length < net.counts.reactions; k++) {
    const onArticle = net.articles.length > 0 && rng.chance(0.05);
    const target = onArticle ? rng.pick(net.articles) : pool[picker.pick(rng)];
    const reactor = actors.pick(rng, net.users[target.author]);
    if (!reactor || seen.has(`${reactor.idx}:${target.event.id}`)) continue;
    const createdAt = net.after(rng, target.event.created_at, 3 * 3600);
    if (createdAt === null) continue;
    let content = REACTIONS[REACTION_PICKER.pick(rng)][0];
    if (target.topic === 'jokes' && rng.chance(0.3)) content = '😂';
    const tags = [['e', target.event.id, RELAY_HINT, target.event.pubkey], ['p', target.event.pubkey], ['k', String(target.event.kind)]];
    if (target.address) tags.push(['a', target.address, RELAY_HINT]);
    const event = net.emit({ kind: 7, created_at: createdAt, tags, content }, reactor.account.secretKey);
    if (!event) continue;
    seen.add(`${reactor.idx}:${target.event.id}`);
    net.referenced.add(target.event.id);
    out.push(event);
  }
  return out.sort(byTime);
}
