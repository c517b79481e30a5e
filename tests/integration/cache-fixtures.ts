/**
 * A small signed network for the cache tests: three people who follow each other, notes,
 * replies, a repost, a quote, reactions and one zap with a real zap request inside.
 */
import { nip19 } from 'nostr-tools';
import { type VerifiedEvent } from 'nostr-tools/pure';
import { person, sign, type Person } from './people.ts';

export type { Person };

export function buildNetwork(now: number) {
  const alice = person();
  const bob = person();
  const carol = person();
  const wallet = person();
  const t = (offset: number) => now - 3600 + offset;

  const profile = (who: Person, name: string, at: number) =>
    sign(who, 0, at, JSON.stringify({ name, display_name: name, about: `${name} bemutatkozása` }));
  const profiles = [profile(alice, 'alice', t(0)), profile(bob, 'bob', t(0)), profile(carol, 'carol', t(0))];

  const contacts = [
    sign(alice, 3, t(1), '', [['p', bob.pk], ['p', carol.pk]]),
    sign(bob, 3, t(1), '', [['p', alice.pk]]),
    sign(carol, 3, t(1), '', [['p', alice.pk]]),
  ];
  const relays = sign(alice, 10002, t(1), '', [['r', 'wss://egy.example'], ['r', 'wss://ketto.example', 'read']]);

  const n1 = sign(bob, 1, t(10), 'Helló, világ! Az első bejegyzésem.');
  const n2 = sign(bob, 1, t(20), 'Második bejegyzés, képpel: https://media.example/kep.jpg');
  const quote = sign(carol, 1, t(30), `Ezt nézzétek: nostr:${nip19.noteEncode(n1.id)}`, [
    ['q', n1.id],
    ['p', bob.pk],
  ]);
  const r1 = sign(alice, 1, t(40), 'Szép első bejegyzés!', [
    ['e', n1.id, '', 'root'],
    ['p', bob.pk],
  ]);
  const r2 = sign(carol, 1, t(50), 'Egyetértek veled, ez tényleg jó.', [
    ['e', n1.id, '', 'root'],
    ['e', r1.id, '', 'reply'],
    ['p', bob.pk],
    ['p', alice.pk],
  ]);
  const repost = sign(alice, 6, t(60), '', [
    ['e', n2.id],
    ['p', bob.pk],
  ]);
  const reactions = [
    sign(alice, 7, t(70), '+', [['e', n1.id], ['p', bob.pk]]),
    sign(carol, 7, t(71), '❤', [['e', n1.id], ['p', bob.pk]]),
    sign(alice, 7, t(72), '+', [['e', n2.id], ['p', bob.pk]]),
  ];

  // 210n = 210 × 10⁸ / 10⁹ sats = 21 sats (S §4.2).
  const zapRequest = sign(carol, 9734, t(80), 'Köszönöm!', [
    ['p', bob.pk],
    ['e', n1.id],
    ['amount', '21000'],
    ['relays', 'wss://egy.example'],
  ]);
  const zapReceipt = sign(wallet, 9735, t(81), '', [
    ['p', bob.pk],
    ['e', n1.id],
    ['bolt11', 'lnbc210n1pjtestpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq'],
    ['description', JSON.stringify(zapRequest)],
  ]);

  const all: VerifiedEvent[] = [...profiles, ...contacts, relays, n1, n2, quote, r1, r2, repost, ...reactions, zapReceipt];
  return { alice, bob, carol, n1, n2, quote, r1, r2, repost, reactions, zapReceipt, all, t };
}

export type Network = ReturnType<typeof buildNetwork>;
