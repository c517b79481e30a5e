import type { NostrEvent } from '../context.ts';
import { Nip04Encryptor } from './dm-crypto.ts';
import { Network, type User } from './model.ts';
import { WeightedPicker } from './rng.ts';
import { DELETION_REASONS, DM_CONVERSATIONS, MUTED_HASHTAGS, MUTED_WORDS } from './text-social.ts';

/** How many people the demo login has conversations with, whatever the scale. */
export const DEMO_LOGIN_DM_PEERS = 5;

/**
 * NIP-04 direct messages. The demo login always gets DEMO_LOGIN_DM_PEERS conversations of its
 * own (outside the scale's pair count, so /dms is alive even on a tiny network); in every
 * second one the demo login wrote last, which the seed reads as "already read" (one answers
 * what one has read), so some stay unread and some do not.
 */
export function dmPhase(net: Network): NostrEvent[] {
  const rng = net.rng.fork('dms');
  const crypto = new Nip04Encryptor();
  const users = net.users.slice(1);
  const demo = net.users[1];
  const pairs: Array<[User, User]> = [];
  const seen = new Set<string>();
  const addPair = (a: User, b: User) => {
    const key = a.idx < b.idx ? `${a.idx}:${b.idx}` : `${b.idx}:${a.idx}`;
    if (a.idx === b.idx || seen.has(key)) return;
    seen.add(key);
    pairs.push([a, b]);
  };
  const friends = [...new Set([...demo.follows, ...demo.followers])].filter((i) => i > 1);
  // Short of friends (a tiny network), anyone else will do.
  const strangers = users.map((u) => u.idx).filter((i) => i > 1 && !friends.includes(i));
  const demoPeers = rng.sample(friends, DEMO_LOGIN_DM_PEERS);
  demoPeers.push(...rng.sample(strangers, DEMO_LOGIN_DM_PEERS - demoPeers.length));
  for (const i of demoPeers) addPair(net.users[i], demo);
  const demoPairCount = pairs.length;
  // The rest of the network writes among itself: the demo login keeps exactly its own conversations.
  const rest = users.filter((u) => u !== demo);
  for (let tries = 0; pairs.length < demoPairCount + net.counts.dmPairs && tries < net.counts.dmPairs * 20; tries++) {
    const a = rng.pick(rest);
    const others = a.follows.filter((i) => i > 1);
    addPair(a, others.length > 0 ? net.users[rng.pick(others)] : rng.pick(rest));
  }
  const out: NostrEvent[] = [];
  pairs.forEach((pair, pairIndex) => {
    const lines = rng.pick(DM_CONVERSATIONS);
    let [first, second] = pair;
    if (pairIndex < demoPairCount) {
      // The speakers alternate, so who opens decides who writes the last line.
      const demoLast = pairIndex % 2 === 1;
      const firstWritesLast = (lines.length - 1) % 2 === 0;
      if ((first === demo) !== (demoLast === firstWritesLast)) [first, second] = [second, first];
    }
    let t: number | null = net.sampleTime(rng, Math.max(first.joinedAt, second.joinedAt) + 3600);
    lines.forEach((line, lineIndex) => {
      if (t === null) return;
      const [from, to] = lineIndex % 2 === 0 ? [first, second] : [second, first];
      const content = crypto.encrypt(from.account.secretKey, to.account.pubkey, line, `${pairIndex}:${lineIndex}`);
      const event = net.emit({ kind: 4, created_at: t, tags: [['p', to.account.pubkey]], content }, from.account.secretKey);
      if (event) out.push(event);
      t = net.after(rng, t, 25 * 60);
    });
  });
  return out.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
}

/** Kind-10000 mute lists: a few people, sometimes a word or a hashtag. */
export function mutePhase(net: Network): NostrEvent[] {
  const rng = net.rng.fork('mutes');
  const out: NostrEvent[] = [];
  for (const user of net.users.slice(2)) {
    if (!(user.idx === 2 || rng.chance(0.12))) continue;
    const candidates = net.users.filter((u) => u.idx > 1 && u.idx !== user.idx && !user.follows.includes(u.idx));
    const tags = rng.sample(candidates, rng.range(1, 4)).map((u) => ['p', u.account.pubkey]);
    if (rng.chance(0.25)) tags.push(['word', rng.pick(MUTED_WORDS)]);
    if (rng.chance(0.2)) tags.push(['t', rng.pick(MUTED_HASHTAGS)]);
    if (tags.length === 0) continue;
    const createdAt = net.sampleTime(rng, user.joinedAt + 3600);
    const event = net.emit({ kind: 10000, created_at: createdAt, tags, content: '' }, user.account.secretKey);
    if (event) out.push(event);
  }
  return out;
}

/** Kind-10003 bookmarks of notes (and sometimes articles) that existed at the time. */
export function bookmarkPhase(net: Network): NostrEvent[] {
  const rng = net.rng.fork('bookmarks');
  const picker = new WeightedPicker(net.notes.map((p) => p.appeal));
  const out: NostrEvent[] = [];
  for (const user of net.users.slice(1)) {
    if (!(user.idx === 1 || rng.chance(0.25))) continue;
    const chosen = new Set<number>();
    const want = rng.range(2, 10);
    for (let tries = 0; chosen.size < want && tries < want * 5; tries++) {
      const i = picker.pick(rng);
      if (net.notes[i].author !== user.idx) chosen.add(i);
    }
    const notes = [...chosen].map((i) => net.notes[i]);
    const tags = notes.map((p) => ['e', p.event.id]);
    let latest = Math.max(user.joinedAt, ...notes.map((p) => p.event.created_at));
    if (net.articles.length > 0 && rng.chance(0.2)) {
      const article = rng.pick(net.articles);
      tags.push(['a', article.address ?? '']);
      latest = Math.max(latest, article.event.created_at);
      net.referenced.add(article.event.id);
    }
    const createdAt = net.after(rng, latest, 6 * 3600);
    if (createdAt === null || tags.length === 0) continue;
    const event = net.emit({ kind: 10003, created_at: createdAt, tags, content: '' }, user.account.secretKey);
    if (!event) continue;
    for (const p of notes) net.referenced.add(p.event.id);
    out.push(event);
  }
  return out;
}

/** Kind-5 deletions by authors of their own notes that nothing else refers to. */
export function deletionPhase(net: Network): NostrEvent[] {
  const rng = net.rng.fork('deletions');
  const candidates = net.notes.filter((p) => p.author !== 0 && !net.referenced.has(p.event.id));
  const out: NostrEvent[] = [];
  for (const post of rng.sample(candidates, net.counts.deletions)) {
    const createdAt = net.after(rng, post.event.created_at, 2 * 3600);
    if (createdAt === null) continue;
    const author = net.users[post.author];
    const tags = [['e', post.event.id], ['k', String(post.event.kind)]];
    const event = net.emit({ kind: 5, created_at: createdAt, tags, content: rng.pick(DELETION_REASONS) }, author.account.secretKey);
    if (event) out.push(event);
  }
  return out;
}
