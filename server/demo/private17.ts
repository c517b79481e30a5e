/**
 * NIP-17 private messages in the demo network: kind-14 rumors sealed (13) and gift-wrapped (1059)
 * with NIP-44, between demo accounts and with the demo login, plus the kind-10050 inbox lists of
 * everyone who takes part (the demo login has none: the client publishes it on first login). It
 * runs last with an rng of its own, so adding it changed no other demo event. Keys and nonces come
 * from that rng, so the same seed gives the same wraps.
 */
import { getEventHash, getPublicKey } from 'nostr-tools/pure';
import { v2 } from 'nostr-tools/nip44';
import type { NostrEvent } from '../context.ts';
import { Network, type User } from './model.ts';
import { RELAY_URLS } from './text.ts';
import { DM_CONVERSATIONS } from './text-social.ts';

/** How many people the demo login has private (NIP-17) conversations with, beside its NIP-04 ones. */
export const DEMO_LOGIN_PRIVATE_PEERS = 2;
/** Private conversations among the other demo accounts. */
const OTHER_PRIVATE_PAIRS = 4;
const BLUR_SECONDS = 2 * 24 * 3600;

/**
 * `dms` are the NIP-04 events of dmPhase: the demo login's private partners are people it has no
 * NIP-04 conversation with, so each private conversation is a contact of its own on /dms.
 */
export function privateDmPhase(net: Network, dms: NostrEvent[]): NostrEvent[] {
  const rng = net.rng.fork('private-dms');
  const demo = net.users[1];
  const inNip04 = new Set<string>();
  for (const e of dms) {
    const to = e.tags.find((t) => t[0] === 'p')?.[1];
    if (e.pubkey === demo.account.pubkey && to) inNip04.add(to);
    if (to === demo.account.pubkey) inNip04.add(e.pubkey);
  }
  const others = net.users.slice(2).filter((u) => !inNip04.has(u.account.pubkey));
  const pairs: Array<[User, User]> = rng.sample(others, DEMO_LOGIN_PRIVATE_PEERS).map((u) => [u, demo]);
  const taken = new Set(pairs.map(([u]) => u.idx));
  const rest = others.filter((u) => !taken.has(u.idx));
  for (let i = 0; i + 1 < rest.length && pairs.length < DEMO_LOGIN_PRIVATE_PEERS + OTHER_PRIVATE_PAIRS; i += 2) {
    const [a, b] = rng.sample(rest, 2);
    if (a && b && a.idx !== b.idx) pairs.push([a, b]);
  }

  const out: NostrEvent[] = [];
  const withInbox = new Set<User>();
  const wrap = (from: User, to: User, rumor: { id: string }, at: number) => {
    // The seal: the rumor encrypted from the author to `to`, signed by the author, at a blurred time.
    const sealKey = v2.utils.getConversationKey(from.account.secretKey, to.account.pubkey);
    const seal = net.emit(
      { kind: 13, created_at: at - rng.int(BLUR_SECONDS), tags: [], content: v2.encrypt(JSON.stringify(rumor), sealKey, rng.bytes(32)) },
      from.account.secretKey,
    );
    if (!seal) return;
    // The wrap: by a one-time key drawn from the rng, for `to` only.
    let oneTime = rng.bytes(32);
    // A zero or out-of-range scalar is practically impossible, but getPublicKey would throw on it.
    while (!validKey(oneTime)) oneTime = rng.bytes(32);
    const wrapKey = v2.utils.getConversationKey(oneTime, to.account.pubkey);
    const event = net.emit(
      { kind: 1059, created_at: at - rng.int(BLUR_SECONDS), tags: [['p', to.account.pubkey]], content: v2.encrypt(JSON.stringify(seal), wrapKey, rng.bytes(32)) },
      oneTime,
    );
    if (event) out.push(event);
  };

  pairs.forEach((pair, pairIndex) => {
    const lines = rng.pick(DM_CONVERSATIONS);
    let [first, second] = pair;
    // With the demo login: in the second conversation it wrote last (read), in the first it did not.
    if (second === demo) {
      const demoLast = pairIndex % 2 === 1;
      const firstWritesLast = (lines.length - 1) % 2 === 0;
      if ((first === demo) !== (demoLast === firstWritesLast)) [first, second] = [second, first];
    }
    let t: number | null = net.sampleTime(rng, Math.max(first.joinedAt, second.joinedAt) + 3600);
    lines.forEach((line, lineIndex) => {
      if (t === null) return;
      const [from, to] = lineIndex % 2 === 0 ? [first, second] : [second, first];
      const base = { pubkey: from.account.pubkey, created_at: t, kind: 14, tags: [['p', to.account.pubkey]], content: line };
      const rumor = { ...base, id: getEventHash(base) };
      wrap(from, to, rumor, t);
      // NIP-17's copy for the sender's own devices.
      wrap(from, from, rumor, t);
      t = net.after(rng, t, 25 * 60);
    });
    for (const u of pair) if (u !== demo) withInbox.add(u);
  });

  // Their inbox lists name the network's first relay; Strucc also sends a copy to its own relay.
  for (const user of [...withInbox].sort((a, b) => a.idx - b.idx)) {
    const list = net.emit({ kind: 10050, created_at: user.joinedAt + 90, tags: [['relay', RELAY_URLS[0]]], content: '' }, user.account.secretKey);
    if (list) out.push(list);
  }
  return out.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
}

function validKey(key: Uint8Array): boolean {
  try {
    getPublicKey(key);
    return true;
  } catch {
    return false;
  }
}
