import { describe, expect, it } from 'vitest';
import { npubEncode, nprofileEncode } from 'nostr-tools/nip19';
import { buildQuery, EMPTY_FORM, formFromDescription, nameTerms, profileTarget, splitTerms, userRef } from '../../../../../src/components/search/query';
import { parsePeople, parseTopics, parseUsers, parseZaps } from '../../../../../worker/discover';
import type { CacheObject } from '../../../../../core/types';

const HEX = '19b1a39b5504585fda021f3439e6784037ed41137518027565a79fd5a25c0818';
const NPUB = npubEncode(HEX);

describe('the advanced search form writes the S §3.7 grammar', () => {
  it('writes nothing for an empty form', () => {
    expect(buildQuery(EMPTY_FORM)).toBe('');
  });

  it('puts every field in a stable order', () => {
    const q = buildQuery({
      ...EMPTY_FORM,
      words: 'kutya  macska',
      phrase: 'jó "reggelt"',
      excluded: 'eső "rossz idő" #nsfw',
      hashtags: '#balaton, strand',
      from: HEX,
      to: NPUB,
      mention: 'nem-kulcs',
      kind: 'reads',
      since: '2025-01-02',
      until: 'tegnap',
      minLikes: '5',
      minZaps: '-3',
      minReplies: '2.7',
      scope: 'myfollows',
      order: 'satszapped',
    });
    expect(q).toBe(
      `kutya macska "jó reggelt" #balaton #strand -eső -"rossz idő" -#nsfw from:${NPUB} to:${NPUB} kind:30023 since:2025-01-02 minlikes:5 minreplies:2 scope:myfollows orderby:satszapped`,
    );
  });

  it('maps each kind to its terms', () => {
    expect(buildQuery({ ...EMPTY_FORM, kind: 'images' })).toBe('kind:1 filter:image');
    expect(buildQuery({ ...EMPTY_FORM, kind: 'readsComments' })).toBe('repliestokind:30023');
    expect(buildQuery({ ...EMPTY_FORM, kind: 'notes' })).toBe('');
  });

  it('accepts npub, nprofile and hex users and rejects names and broken bech32', () => {
    const nprofile = nprofileEncode({ pubkey: HEX, relays: [] });
    expect(userRef(nprofile)).toBe(nprofile);
    expect(userRef(`nostr:${NPUB}`)).toBe(NPUB);
    expect(userRef(HEX.toUpperCase())).toBe(NPUB);
    expect(userRef('Ferenc')).toBeNull();
    expect(userRef(`${NPUB.slice(0, -1)}q`)).toBeNull();
  });

  it('splits words and quoted phrases, an unclosed quote running to the end', () => {
    expect(splitTerms('a "b c" d "e f')).toEqual(['a', '"b c"', 'd', '"e f"']);
  });
});

describe('the form from parse_advanced_search_query', () => {
  it('fills every field and builds the same query back', () => {
    const form = formFromDescription({
      includes: 'kutya "jó reggelt" "második kifejezés"',
      excludes: 'macska #nsfw',
      hashtags: '#balaton',
      kind: 'Reads',
      postedBy: [HEX],
      replingTo: [],
      userMentions: [HEX],
      timeframe: 'Custom',
      customTimeframe: { since: '2024-01-01', until: '' },
      scope: 'My Follows',
      sortBy: 'Likes',
      minLikes: 5,
      minZaps: 0,
      minReplies: 3,
    });
    expect(form).toMatchObject({
      words: 'kutya "második kifejezés"',
      phrase: 'jó reggelt',
      excluded: 'macska #nsfw',
      hashtags: '#balaton',
      from: NPUB,
      mention: NPUB,
      kind: 'reads',
      since: '2024-01-01',
      until: '',
      minLikes: '5',
      minZaps: '',
      minReplies: '3',
      scope: 'myfollows',
      order: 'likes',
    });
    expect(buildQuery(form)).toBe(
      `kutya "második kifejezés" "jó reggelt" #balaton -macska -#nsfw from:${NPUB} mention:${NPUB} kind:30023 since:2024-01-01 minlikes:5 minreplies:3 scope:myfollows orderby:likes`,
    );
  });

  it('keeps the defaults for labels it does not know', () => {
    expect(formFromDescription({ kind: 'Hologram', scope: '?', sortBy: 7 })).toEqual(EMPTY_FORM);
  });
});

describe('search terms', () => {
  it('opens a profile for a whole-query npub only', () => {
    expect(profileTarget(NPUB)).toBe(NPUB);
    expect(profileTarget(`from:${NPUB}`)).toBeNull();
    expect(profileTarget('npub1invalid')).toBeNull();
  });

  it('keeps only plain words for the name search', () => {
    expect(nameTerms(`Ferenc "pontos szöveg" -nem #tag from:${NPUB} OR ( kind:1 )`)).toBe('Ferenc');
  });
});

const profile = (pubkey: string, name: string): CacheObject => ({ kind: 0, id: `m${pubkey}`, pubkey, created_at: 1, tags: [], content: JSON.stringify({ name }), sig: '' });
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('explore replies to plain objects', () => {
  it('explore_people keeps the RANGE order with gains and follower counts', () => {
    const people = parsePeople([
      { kind: 10000157, content: JSON.stringify({ [A]: { increase: 3, count: 10 }, [B]: { increase: 9, count: 40 } }) },
      profile(A, 'anna'),
      profile(B, 'bela'),
      { kind: 10000133, content: JSON.stringify({ [A]: 11, [B]: 41 }) },
      { kind: 10000113, content: JSON.stringify({ elements: [B, A], order_by: 'increase' }) },
    ]);
    expect(people.map((p) => [p.profile.name, p.increase, p.followers])).toEqual([
      ['bela', 9, 41],
      ['anna', 3, 11],
    ]);
  });

  it('explore_zaps pairs receipts with their 10000129 and the zapped note', () => {
    const note = { kind: 1, id: 'n'.repeat(64), pubkey: B, created_at: 5, tags: [], content: 'Szia', sig: '' };
    const zaps = parseZaps([
      { kind: 9735, id: 'z'.repeat(64), pubkey: 'c'.repeat(64), created_at: 6, tags: [['p', B], ['e', note.id], ['description', JSON.stringify({ pubkey: A, content: 'Köszi!', tags: [] })]], content: '', sig: '' },
      note,
      { kind: 10000129, content: JSON.stringify({ event_id: note.id, created_at: 6, sender: A, receiver: B, amount_sats: 2100, zap_receipt_id: 'z'.repeat(64) }) },
      profile(A, 'anna'),
      profile(B, 'bela'),
      { kind: 10000113, content: JSON.stringify({ elements: ['z'.repeat(64)], order_by: 'amount_sats' }) },
    ]);
    expect(zaps).toHaveLength(1);
    expect(zaps[0]).toMatchObject({ amount: 2100, message: 'Köszi!', sender: { name: 'anna' }, receiver: { name: 'bela' } });
    expect(zaps[0].note?.event.content).toBe('Szia');
  });

  it('explore_topics sorts by count, and an empty or broken reply gives nothing', () => {
    expect(parseTopics([{ kind: 10000160, content: '{"b":1,"a":5,"c":1}' }])).toEqual([
      { tag: 'a', count: 5 },
      { tag: 'b', count: 1 },
      { tag: 'c', count: 1 },
    ]);
    expect(parseTopics([])).toEqual([]);
    expect(parseTopics([{ kind: 10000160, content: 'nem json' }])).toEqual([]);
  });

  it('user_search keeps the server order', () => {
    expect(parseUsers([profile(B, 'bela'), profile(A, 'anna')]).map((p) => p.name)).toEqual(['bela', 'anna']);
  });
});
