import { describe, expect, it } from 'vitest';
import { decode, naddrEncode, neventEncode, noteEncode, nprofileEncode, npubEncode } from 'nostr-tools/nip19';
import type { FeedNote } from '../../../../../core/types';
import { emptyProfile } from '../../../../../core/profile';
import { isVanityName, parseProfileKey, parseThreadId, vanityTarget } from '../../../../../src/components/thread/ids';
import { byEngagement, newestFirst } from '../../../../../src/components/thread/order';
import { formatJoinDate, mediaOf, websiteHref } from '../../../../../src/components/profile/format';

const ID = 'ab'.repeat(32);
const PUBKEY = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';

function note(id: string, created_at: number, extra: Partial<FeedNote['stats']> = {}, content = '', tags: string[][] = []): FeedNote {
  return {
    key: id,
    event: { id, pubkey: PUBKEY, created_at, kind: 1, tags, content, sig: '' },
    author: emptyProfile(PUBKEY),
    stats: { likes: 0, replies: 0, mentions: 0, reposts: 0, zaps: 0, satszapped: 0, score: 0, score24h: 0, ...extra },
    topZaps: [],
    referencedEvents: {},
    profiles: {},
  };
}

describe('parseThreadId', () => {
  it('reads hex, note1 and nevent1 as the same note', () => {
    expect(parseThreadId(ID)).toEqual({ type: 'note', id: ID });
    expect(parseThreadId(ID.toUpperCase())).toEqual({ type: 'note', id: ID });
    expect(parseThreadId(noteEncode(ID))).toEqual({ type: 'note', id: ID });
    expect(parseThreadId(neventEncode({ id: ID, author: PUBKEY }))).toEqual({ type: 'note', id: ID, author: PUBKEY });
    expect(parseThreadId(`nostr:${noteEncode(ID)}`)).toEqual({ type: 'note', id: ID });
  });

  it('sends an naddr to the article route', () => {
    const naddr = naddrEncode({ kind: 30023, pubkey: PUBKEY, identifier: 'cikk' });
    expect(parseThreadId(naddr)).toEqual({ type: 'article', naddr });
  });

  it('rejects bad checksums, other prefixes, short hex and huge input', () => {
    const good = noteEncode(ID);
    const broken = `${good.slice(0, -1)}${good.endsWith('q') ? 'p' : 'q'}`;
    expect(parseThreadId(broken).type).toBe('invalid');
    expect(parseThreadId(npubEncode(PUBKEY)).type).toBe('invalid');
    expect(parseThreadId('abc123').type).toBe('invalid');
    expect(parseThreadId('').type).toBe('invalid');
    expect(parseThreadId(`note1${'q'.repeat(6000)}`).type).toBe('invalid');
    expect(parseThreadId('<script>alert(1)</script>').type).toBe('invalid');
  });
});

describe('parseProfileKey', () => {
  it('reads npub, nprofile and hex', () => {
    expect(parseProfileKey(npubEncode(PUBKEY))).toEqual({ type: 'pubkey', pubkey: PUBKEY });
    expect(parseProfileKey(nprofileEncode({ pubkey: PUBKEY, relays: ['wss://relay.example'] }))).toEqual({ type: 'pubkey', pubkey: PUBKEY });
    expect(parseProfileKey(PUBKEY)).toEqual({ type: 'pubkey', pubkey: PUBKEY });
  });

  it('rejects a note id and garbage', () => {
    expect(parseProfileKey(noteEncode(ID)).type).toBe('invalid');
    expect(parseProfileKey('npub1hibas').type).toBe('invalid');
  });
});

describe('vanity names', () => {
  it('accepts NIP-05 local parts only', () => {
    expect(isVanityName('bandimate')).toBe(true);
    expect(isVanityName('kiss.anna_2')).toBe(true);
    expect(isVanityName('két szó')).toBe(false);
    expect(isVanityName('ékezet')).toBe(false);
    expect(isVanityName('')).toBe(false);
  });

  it('a vanity identifier is a note id, else the author’s article by d-tag', () => {
    expect(vanityTarget(PUBKEY, noteEncode(ID))).toEqual({ type: 'note', id: ID });
    const target = vanityTarget(PUBKEY, 'az-elso-cikkem');
    expect(target.type).toBe('article');
    if (target.type !== 'article') return;
    const decoded = decode(target.naddr);
    expect(decoded.type).toBe('naddr');
    if (decoded.type === 'naddr') expect(decoded.data).toMatchObject({ kind: 30023, pubkey: PUBKEY, identifier: 'az-elso-cikkem' });
  });
});

describe('reply order', () => {
  const replies = [note('a', 100, { likes: 1 }), note('b', 300), note('c', 200, { replies: 4, zaps: 1 })];
  it('newest first', () => {
    expect(newestFirst(replies).map((n) => n.key)).toEqual(['b', 'c', 'a']);
  });
  it('by engagement, ties broken by recency, the server score winning when set', () => {
    expect(byEngagement(replies).map((n) => n.key)).toEqual(['c', 'a', 'b']);
    expect(byEngagement([...replies, note('d', 50, { score: 1000 })]).map((n) => n.key)[0]).toBe('d');
  });
});

describe('profile helpers', () => {
  it('links only http(s) websites, adding https to a bare domain', () => {
    expect(websiteHref('strucc.test/~anna')).toBe('https://strucc.test/~anna');
    expect(websiteHref('http://pelda.hu')).toBe('http://pelda.hu/');
    expect(websiteHref('javascript:alert(1)')).toBeNull();
    expect(websiteHref('  ')).toBeNull();
  });

  it('writes the join month in Hungarian', () => {
    expect(formatJoinDate(Date.UTC(2026, 9, 15) / 1000, 'hu')).toBe('2026. október');
  });

  it('collects gallery media from imeta tags and links, once each, skipping other links', () => {
    const img = 'https://media.strucc.test/img/3.svg';
    const items = mediaOf([
      note('x', 1, {}, `Nézd! ${img}`, [['imeta', `url ${img}`, 'm image/svg+xml']]),
      note('y', 2, {}, 'https://pelda.hu/video.mp4, és https://pelda.hu/oldal'),
      note('z', 3, {}, '', [['imeta', 'url https://cdn.pelda.hu/abc', 'm video/webm']]),
    ]);
    expect(items.map((i) => [i.url, i.video])).toEqual([
      [img, false],
      ['https://pelda.hu/video.mp4', true],
      ['https://cdn.pelda.hu/abc', true],
    ]);
  });
});
