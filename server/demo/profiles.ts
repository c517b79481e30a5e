import type { NostrEvent } from '../context.ts';
import { HOUSE, ZAPPER, demoUser } from './accounts.ts';
import { avatarUrl, bannerUrl, BANNER_COUNT } from './media-urls.ts';
import { Network, type User } from './model.ts';
import { WeightedPicker, type Rng } from './rng.ts';
import {
  asciiName, BIO_EXTRAS, EMOJI_FLAIR, FAMILY_NAMES, FEMALE_GIVEN, HANDLES, INTERESTS, JOBS, MALE_GIVEN, NICKNAMES, RELAY_URLS, TOWNS,
} from './text.ts';
import { HOUSE_PROFILE, ZAPPER_PROFILE } from './text-social.ts';
import { TOPICS } from './text-notes.ts';

const TOPIC_IDS = TOPICS.map((t) => t.id);
/** How many of the most active users the house account follows. */
const HOUSE_FOLLOWS = 150;

interface NameChoice {
  displayName: string;
  username: string;
}

function chooseName(rng: Rng, taken: Set<string>, ordinary = false): NameChoice {
  const family = rng.pick(FAMILY_NAMES);
  const given = rng.chance(0.5) ? rng.pick(MALE_GIVEN) : rng.pick(FEMALE_GIVEN);
  // The demo login gets a plain personal name: it is who a visitor becomes.
  const roll = ordinary ? 0 : rng.next();
  const handle = rng.pick(HANDLES);
  let displayName: string;
  let base: string;
  if (roll < 0.5) {
    displayName = `${family} ${given}`;
    base = rng.chance(0.5) ? `${given}${family}` : `${family}.${given}`;
  } else if (roll < 0.62) {
    displayName = `${family} ${given} ${rng.pick(EMOJI_FLAIR)}`;
    base = `${given}${family}`;
  } else if (roll < 0.78) {
    const nick = rng.pick(NICKNAMES);
    displayName = rng.chance(0.5) ? nick : `${nick} ${family[0]}.`;
    base = `${nick}${family}`;
  } else if (roll < 0.9 && !taken.has(`handle:${handle}`)) {
    // Each handle belongs to one person; a second draw falls through to a plain given name.
    taken.add(`handle:${handle}`);
    displayName = handle;
    base = handle;
  } else {
    displayName = given;
    base = `${given}${rng.range(70, 99)}`;
  }
  let username = asciiName(base).slice(0, 20) || 'demo';
  for (let n = 2; taken.has(username); n++) username = `${asciiName(base).slice(0, 18)}${n}`;
  taken.add(username);
  return { displayName, username };
}

function bio(rng: Rng, user: { town: { in: string; from: string } }): string {
  const job = rng.pick(JOBS);
  const parts = [rng.chance(0.5) ? `${job} ${user.town.from}.` : `${job} vagyok, ${user.town.in} élek.`];
  if (rng.chance(0.7)) {
    const [a, b] = rng.sample(INTERESTS, 2);
    parts.push(`Szeretem ${a} és ${b}.`);
  }
  if (rng.chance(0.6)) parts.push(rng.pick(BIO_EXTRAS));
  return parts.join(' ');
}

/** Creates the house account and N users, with popularity, activity, topics and follows. */
export function buildUsers(net: Network): void {
  const rng = net.rng.fork('users');
  const n = net.counts.users;
  const taken = new Set<string>(['strucc', 'strucczap']);
  // Popularity follows a Zipf-like law over a shuffled rank; user 1 (the demo login) is
  // placed among the well-followed so its notifications are lively.
  const ranks = rng.sample(Array.from({ length: n }, (_, i) => i + 2), n);
  const demoRankSlot = ranks.indexOf(Math.min(12, n + 1));
  [ranks[0], ranks[demoRankSlot]] = [ranks[demoRankSlot], ranks[0]];

  net.users.push({
    idx: 0, account: HOUSE, username: 'strucc', displayName: 'Strucc', town: TOWNS[0], popularity: 1.2, activity: 0,
    topics: ['nostr'], follows: [], followers: [], joinedAt: net.start,
  });
  for (let i = 1; i <= n; i++) {
    const { displayName, username } = chooseName(rng, taken, i === 1);
    const rank = ranks[i - 1];
    const popularity = 1 / rank ** 0.9;
    const activity = Math.exp(rng.next() * 2.5 - 1) * (0.6 + 4 * popularity) * (i === 1 ? 2 : 1);
    const topics = rng.sample(TOPIC_IDS, rng.range(2, 3));
    net.users.push({
      idx: i, account: demoUser(i), username, displayName, town: rng.pick(TOWNS), popularity, activity, topics,
      follows: [], followers: [], joinedAt: net.start + rng.int(3 * 24 * 3600),
    });
  }
  buildFollowGraph(net, rng);
}

function buildFollowGraph(net: Network, rng: Rng): void {
  const users = net.users;
  const picker = new WeightedPicker(users.map((u) => u.popularity));
  for (const user of users) {
    if (user.idx === 0) continue;
    // The demo login follows a good handful, so its home feed is lively from the first click.
    const want = Math.min(users.length - 1, user.idx === 1 ? 45 : 5 + Math.floor(rng.exp(22)), 220);
    const chosen = new Set<number>();
    for (let tries = 0; chosen.size < want && tries < want * 30; tries++) {
      const j = picker.pick(rng);
      if (j !== user.idx) chosen.add(j);
    }
    for (const j of rng.sample(users.map((u) => u.idx), users.length)) {
      if (chosen.size >= want) break;
      if (j !== user.idx) chosen.add(j);
    }
    user.follows = [...chosen];
  }
  const house = users[0];
  house.follows = users
    .slice(1)
    .sort((a, b) => b.activity - a.activity || a.idx - b.idx)
    .slice(0, HOUSE_FOLLOWS)
    .map((u) => u.idx);
  for (const user of users) for (const j of user.follows) users[j].followers.push(user.idx);
}

function profileEvent(net: Network, user: User, rng: Rng): NostrEvent | null {
  const isHouse = user.idx === 0;
  const metadata: Record<string, string> = {
    name: user.username,
    display_name: user.displayName,
    displayName: user.displayName,
    about: isHouse ? HOUSE_PROFILE.about : bio(rng, user),
    picture: avatarUrl(net.mediaDomain, user.account.pubkey),
    banner: bannerUrl(net.mediaDomain, 1 + rng.int(BANNER_COUNT)),
    nip05: `${user.username}@${net.nip05Domain}`,
    lud16: `${user.username}@${net.nip05Domain}`,
  };
  if (isHouse || rng.chance(0.45)) metadata.website = `https://${net.nip05Domain}/~${user.username}`;
  metadata.location = isHouse ? HOUSE_PROFILE.location : user.town.name;
  return net.emit({ kind: 0, created_at: user.joinedAt, tags: [], content: JSON.stringify(metadata) }, user.account.secretKey);
}

/** Kind 0 for everyone (plus the zap service), kind 10002 relay lists and kind 3 contacts. */
export function profilePhases(net: Network): { profiles: NostrEvent[]; relayLists: NostrEvent[]; contacts: NostrEvent[] } {
  const rng = net.rng.fork('profiles');
  const profiles: NostrEvent[] = [];
  const relayLists: NostrEvent[] = [];
  const contacts: NostrEvent[] = [];
  for (const user of net.users) {
    const profile = profileEvent(net, user, rng);
    if (profile) profiles.push(profile);
  }
  const zapperMeta = {
    ...ZAPPER_PROFILE,
    picture: avatarUrl(net.mediaDomain, ZAPPER.pubkey),
    nip05: `${ZAPPER_PROFILE.name}@${net.nip05Domain}`,
  };
  const zapper = net.emit({ kind: 0, created_at: net.start, tags: [], content: JSON.stringify(zapperMeta) }, ZAPPER.secretKey);
  if (zapper) profiles.push(zapper);

  for (const user of net.users) {
    const relays = rng.sample(RELAY_URLS.slice(1), rng.range(1, 3));
    const tags = [['r', RELAY_URLS[0]], ...relays.map((url) => (rng.chance(0.5) ? ['r', url] : ['r', url, rng.chance(0.5) ? 'read' : 'write']))];
    const list = net.emit({ kind: 10002, created_at: user.joinedAt + 60, tags, content: '' }, user.account.secretKey);
    if (list) relayLists.push(list);
    const follows = net.emit(
      { kind: 3, created_at: user.joinedAt + 120 + rng.int(3600), tags: user.follows.map((j) => ['p', net.users[j].account.pubkey]), content: '' },
      user.account.secretKey,
    );
    if (follows) contacts.push(follows);
  }
  return { profiles, relayLists, contacts };
}
