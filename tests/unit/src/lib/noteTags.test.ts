import { describe, expect, it } from 'vitest';
import { decode, naddrEncode, neventEncode, noteEncode, nprofileEncode, npubEncode } from 'nostr-tools/nip19';
import { buildNoteEvent, buildNoteTags, capRelayHints, hashtagsOf, quoteReference, referencesOf } from '../../../../src/lib/noteTags.ts';

const hex = (c: string) => c.repeat(64);
const ALICE = hex('a');
const BOB = hex('b');
const CAROL = hex('c');
const DAVE = hex('d');
const ME = hex('e');
const NOTE = hex('1');
const ROOT = hex('2');
const PARENT = hex('3');
const R1 = 'wss://one.example';
const R2 = 'wss://two.example';
const R3 = 'wss://three.example';
const R4 = 'wss://four.example';

const note = (id: string, pubkey: string, tags: string[][] = [], kind = 1) => ({ id, pubkey, kind, tags });

describe('hashtags (t tags)', () => {
  it('become lowercase t tags, once each, in order of use', () => {
    expect(buildNoteTags('Szia #Budapest és #nostr, meg #budapest')).toEqual([
      ['t', 'budapest'],
      ['t', 'nostr'],
    ]);
  });

  it('punctuation next to a hashtag is not part of it', () => {
    expect(hashtagsOf('(#Balaton) #kávé! #Duna. #tea? "#idézet" #a_b-c')).toEqual(['balaton', 'kávé', 'duna', 'tea', 'idézet', 'a_b']);
  });

  it('accented letters are kept, numbers alone, anchors in links and word-glued # are not hashtags', () => {
    expect(hashtagsOf('#Ősz #2024 https://pelda.hu/oldal#szakasz C#nyelv &#123; ##dupla #év2024')).toEqual(['ősz', 'év2024']);
  });
});

describe('nostr: mentions (NIP-27)', () => {
  it('npub becomes a p tag marked mention', () => {
    expect(buildNoteTags(`Szia nostr:${npubEncode(ALICE)}!`)).toEqual([['p', ALICE, '', 'mention']]);
  });

  it('nprofile becomes a p tag with its relay hint', () => {
    expect(buildNoteTags(`nostr:${nprofileEncode({ pubkey: BOB, relays: [R1] })}`)).toEqual([['p', BOB, R1, 'mention']]);
  });

  it('note and nevent become e tags marked mention', () => {
    const text = `nostr:${noteEncode(NOTE)} és nostr:${neventEncode({ id: ROOT, relays: [R2], author: CAROL })}`;
    expect(buildNoteTags(text)).toEqual([
      ['e', NOTE, '', 'mention'],
      ['e', ROOT, R2, 'mention'],
    ]);
  });

  it('naddr becomes an a tag with kind:pubkey:d marked mention', () => {
    const naddr = naddrEncode({ kind: 30023, pubkey: DAVE, identifier: 'cikkem', relays: [R3] });
    expect(buildNoteTags(`Olvasd: nostr:${naddr}`)).toEqual([['a', `30023:${DAVE}:cikkem`, R3, 'mention']]);
  });

  it('the same person or note twice is tagged once', () => {
    const npub = npubEncode(ALICE);
    expect(buildNoteTags(`nostr:${npub} nostr:${npub} nostr:${noteEncode(NOTE)} nostr:${noteEncode(NOTE)}`)).toEqual([
      ['e', NOTE, '', 'mention'],
      ['p', ALICE, '', 'mention'],
    ]);
  });

  it('invalid bech32 stays text without a tag', () => {
    const npub = npubEncode(ALICE);
    const broken = `${npub.slice(0, -1)}${npub.endsWith('q') ? 'p' : 'q'}`;
    const text = `nostr:${broken} nostr:npub1xyz nostr:nsec1abc @valaki`;
    expect(buildNoteTags(text)).toEqual([]);
    expect(referencesOf(text)).toEqual([]);
    expect(buildNoteEvent(text).content).toBe(text);
  });

  it('a bare npub without nostr: is not a mention', () => {
    expect(buildNoteTags(`${npubEncode(ALICE)} #x`)).toEqual([['t', 'x']]);
  });
});

describe('replies (NIP-10 markers)', () => {
  it('a reply to a root note carries only the root marker and the author p tag', () => {
    const tags = buildNoteTags('Egyetértek', { replyTo: { event: note(ROOT, ALICE), relay: R1 }, author: ME });
    expect(tags).toEqual([
      ['e', ROOT, R1, 'root', ALICE],
      ['p', ALICE],
    ]);
    expect(tags.filter((t) => t[3] === 'reply')).toEqual([]);
  });

  it('a reply to a reply carries root and reply markers and the parent p tags', () => {
    const parent = note(PARENT, BOB, [
      ['e', ROOT, R2, 'root', ALICE],
      ['p', ALICE, R3],
      ['p', CAROL],
    ]);
    expect(buildNoteTags('Én is', { replyTo: { event: parent, relay: R1 }, author: ME })).toEqual([
      ['e', ROOT, R2, 'root', ALICE],
      ['e', PARENT, R1, 'reply', BOB],
      ['p', BOB],
      ['p', ALICE, R3],
      ['p', CAROL],
    ]);
  });

  it('an old positional e tag on the parent is read as the root', () => {
    const parent = note(PARENT, BOB, [['e', ROOT], ['p', ALICE]]);
    const tags = buildNoteTags('x', { replyTo: { event: parent } });
    expect(tags.filter((t) => t[0] === 'e')).toEqual([
      ['e', ROOT, '', 'root'],
      ['e', PARENT, '', 'reply', BOB],
    ]);
  });

  it("the writer's own key is not carried over from the thread, unless they answer themselves", () => {
    const parent = note(PARENT, BOB, [['e', ROOT, '', 'root'], ['p', ME]]);
    expect(buildNoteTags('x', { replyTo: { event: parent }, author: ME }).filter((t) => t[0] === 'p')).toEqual([['p', BOB]]);
    const own = note(PARENT, ME, [['e', ROOT, '', 'root']]);
    expect(buildNoteTags('x', { replyTo: { event: own }, author: ME }).filter((t) => t[0] === 'p')).toEqual([['p', ME]]);
  });

  it('a mention of someone already in the thread is not tagged twice', () => {
    const tags = buildNoteTags(`nostr:${npubEncode(ALICE)} szerintem`, { replyTo: { event: note(ROOT, ALICE) } });
    expect(tags.filter((t) => t[0] === 'p')).toEqual([['p', ALICE]]);
  });

  it('a reply to an article roots at its address and id', () => {
    const article = note(NOTE, DAVE, [['d', 'cikk'], ['title', 'Cikk']], 30023);
    expect(buildNoteTags('Jó cikk', { replyTo: { event: article, relay: R1 } })).toEqual([
      ['a', `30023:${DAVE}:cikk`, R1, 'root'],
      ['e', NOTE, R1, 'root', DAVE],
      ['p', DAVE],
    ]);
  });
});

describe('quotes (NIP-18)', () => {
  it('carry a q tag with relay and pubkey, the nevent as an e mention and the author as a p mention', () => {
    const quote = { event: note(NOTE, CAROL), relay: R1 };
    const reference = quoteReference(quote);
    const decoded = decode(reference.slice('nostr:'.length));
    expect(decoded.type).toBe('nevent');
    expect(decoded.data).toMatchObject({ id: NOTE, author: CAROL, relays: [R1] });
    const tags = buildNoteTags(`Ezt nézd!\n\n${reference}`, { quote });
    expect(tags).toEqual([
      ['q', NOTE, R1, CAROL],
      ['e', NOTE, R1, 'mention'],
      ['p', CAROL, '', 'mention'],
    ]);
  });

  it('an article is quoted by naddr and its coordinate', () => {
    const quote = { event: note(NOTE, DAVE, [['d', 'cikk']], 30023) };
    expect(quoteReference(quote)).toMatch(/^nostr:naddr1/);
    expect(buildNoteTags(quoteReference(quote), { quote }).slice(0, 2)).toEqual([
      ['q', `30023:${DAVE}:cikk`],
      ['a', `30023:${DAVE}:cikk`, '', 'mention'],
    ]);
  });
});

describe('relay hints (spec §9: at most 3 per note)', () => {
  it('only the first three tags keep their relay; markers stay in place', () => {
    const parent = note(PARENT, BOB, [['e', ROOT, R1, 'root'], ['p', ALICE, R4]]);
    const text = `nostr:${nprofileEncode({ pubkey: CAROL, relays: [R3] })} nostr:${neventEncode({ id: NOTE, relays: [R4] })}`;
    const tags = buildNoteTags(text, { replyTo: { event: parent, relay: R2 } });
    expect(tags).toEqual([
      ['e', ROOT, R1, 'root'],
      ['e', PARENT, R2, 'reply', BOB],
      ['e', NOTE, R4, 'mention'],
      ['p', BOB],
      ['p', ALICE],
      ['p', CAROL, '', 'mention'],
    ]);
    expect(tags.filter((t) => t[2]?.startsWith('ws')).length).toBe(3);
  });

  it('relay fields that are not ws:// or wss:// URLs are dropped', () => {
    expect(capRelayHints([['p', ALICE, 'https://nem-relay.example'], ['e', NOTE, 'szemét', 'mention'], ['e', ROOT, 'ws://localhost:7777', 'root']])).toEqual([
      ['p', ALICE],
      ['e', NOTE, '', 'mention'],
      ['e', ROOT, 'ws://localhost:7777', 'root'],
    ]);
  });
});

describe('the event', () => {
  it('is kind 1 with the text as typed and seconds as created_at', () => {
    const event = buildNoteEvent('Helló #Nostr :strucc:', { emojis: { strucc: 'https://kep.example/strucc.png' } }, 1_700_000_000_123);
    expect(event).toEqual({
      kind: 1,
      content: 'Helló #Nostr :strucc:',
      created_at: 1_700_000_000,
      tags: [
        ['t', 'nostr'],
        ['emoji', 'strucc', 'https://kep.example/strucc.png'],
      ],
    });
  });
});
