import { neventEncode } from 'nostr-tools/nip19';
import { describe, expect, it } from 'vitest';
import { parseBundle, replyTarget } from '../../../core/bundle.ts';
import { topZaps } from '../../../core/zaps.ts';
import { bolt11Sats } from '../../../core/bolt11.ts';
import type { CacheObject, NostrEvent } from '../../../core/types.ts';

const hex = (c: string) => c.repeat(64);
const ALICE = hex('a'), BOB = hex('b'), CAROL = hex('c'), ZAPPER = hex('d');
let clock = 1_700_000_000;

/** A signed-looking event, typed as the cache objects a reply carries. */
function ev(kind: number, pubkey: string, content: string, tags: string[][] = [], id?: string): NostrEvent & CacheObject {
  clock += 10;
  return { id: id ?? `${kind}`.padEnd(8, '0') + String(clock).padStart(56, '0'), pubkey, created_at: clock, kind, tags, content, sig: hex('f').repeat(2) };
}
const meta = (pubkey: string, m: Record<string, unknown> | string) => ev(0, pubkey, typeof m === 'string' ? m : JSON.stringify(m));
const synth = (kind: number, content: unknown, extra: Record<string, unknown> = {}): CacheObject => ({ kind, content: JSON.stringify(content), ...extra });
const ref = (e: NostrEvent): CacheObject => ({ kind: 10000107, pubkey: e.pubkey, content: JSON.stringify(e) });
function receipt(target: string, sender: string, bolt11: string, message: string, amountMsat?: number): NostrEvent & CacheObject {
  const request = { pubkey: sender, kind: 9734, content: message, tags: amountMsat ? [['amount', String(amountMsat)]] : [] };
  return ev(9735, hex('9'), '', [['p', ALICE], ['e', target], ['bolt11', bolt11], ['description', JSON.stringify(request)]]);
}

describe('parseBundle', () => {
  const root = ev(1, CAROL, 'gyökér');
  const noteB = ev(1, CAROL, 'B jegyzet');
  const noteC = ev(1, CAROL, 'C jegyzet');
  const noteA = ev(1, ALICE, `válasz nostr:${neventEncode({ id: noteB.id })}`, [
    ['e', hex('7'), '', 'mention'],
    ['e', root.id, '', 'root', CAROL],
    ['p', CAROL],
  ]);
  const repostB = ev(6, BOB, '', [['e', noteB.id], ['p', CAROL]]);
  const repostC = ev(6, BOB, JSON.stringify(noteC), [['e', noteC.id]]);
  const article = ev(30023, ALICE, '# Cikk', [['d', 'cikk'], ['title', 'Cikk']]);
  const z1 = receipt(noteA.id, ZAPPER, 'lnbc10u1pjqqqqq', 'Haladjunk együtt!');
  const z2 = receipt(noteA.id, BOB, 'lnbc2500n1pjqqqqq', 'kicsi');
  const z3 = receipt(noteA.id, CAROL, 'garbage', 'tag alapján', 21_000);

  const objects: CacheObject[] = [
    repostB, noteA, article, repostC,
    meta(ALICE, { name: 'alice', display_name: 'Alíz' }), meta(BOB, { name: 'bob' }), meta(CAROL, '{not json'),
    ref(noteB), ref(root),
    synth(10000100, { event_id: noteA.id, likes: 5, replies: 2, mentions: 1, reposts: 3, zaps: 2, satszapped: 1250, score: 9, score24h: 4 }),
    synth(10000100, { event_id: noteB.id, likes: 1 }),
    synth(10000115, { event_id: noteA.id, liked: true, replied: false, reposted: false, zapped: true }),
    z1, z2, z2, z3,
    synth(10000129, { event_id: noteA.id, zap_receipt_id: z1.id, sender: ZAPPER, receiver: ALICE, amount_sats: 1000, created_at: 1 }),
    synth(10000108, { [ALICE]: 42, [BOB]: 7 }),
    synth(10000141, { [noteA.id]: 'wss://relay.example' }),
    synth(10000113, { since: 100, until: 200, order_by: 'created_at', elements: [repostB.id, noteA.id, article.id, repostC.id, hex('0')] }),
  ];
  const page = parseBundle(objects);

  it('orders cards by RANGE.elements and skips elements it cannot show', () => {
    expect(page.notes.map((n) => n.key)).toEqual([repostB.id, noteA.id, article.id, repostC.id]);
    expect(page.range).toEqual({ since: 100, until: 200, orderBy: 'created_at', elements: expect.any(Array) });
  });

  it('a kind-6 repost becomes the reposted note, filled from the referenced event when empty', () => {
    const [r] = page.notes;
    expect(r.event).toEqual(noteB);
    expect(r.repostedBy?.name).toBe('bob');
    expect(r.repostedAt).toBe(repostB.created_at);
    expect(r.author.pubkey).toBe(CAROL);
    expect(r.stats.likes).toBe(1);
  });

  it('a repost carrying its note in content works without a referenced event', () => {
    const r = page.notes[3];
    expect(r.event).toEqual(noteC);
    expect(r.repostedBy?.pubkey).toBe(BOB);
  });

  it('attaches author, stats, actions, relay hint, follower counts', () => {
    const a = page.notes[1];
    expect(a.author).toMatchObject({ name: 'alice', displayName: 'Alíz', followers: 42 });
    expect(a.stats).toEqual({ likes: 5, replies: 2, mentions: 1, reposts: 3, zaps: 2, satszapped: 1250, score: 9, score24h: 4 });
    expect(a.actions).toEqual({ liked: true, replied: false, reposted: false, zapped: true });
    expect(a.relayHint).toBe('wss://relay.example');
    expect(page.notes[2].stats.likes).toBe(0);
    expect(page.notes[2].actions).toBeUndefined();
  });

  it('malformed kind-0 JSON gives an empty profile, not a missing one', () => {
    expect(page.notes[0].author).toMatchObject({ pubkey: CAROL, name: '', displayName: '' });
  });

  it('top zaps: by amount descending, without duplicates, message kept from the receipt', () => {
    expect(page.notes[1].topZaps).toEqual([
      { id: z3.id, amount: 21, pubkey: CAROL, message: 'tag alapján', eventId: noteA.id },
      { id: z1.id, amount: 1000, pubkey: ZAPPER, message: 'Haladjunk együtt!', eventId: noteA.id },
      { id: z2.id, amount: 250, pubkey: BOB, message: 'kicsi', eventId: noteA.id },
    ].sort((x, y) => y.amount - x.amount));
  });

  it('replyTo follows the reply/root rule and ignores mentions', () => {
    expect(page.notes[1].replyTo).toEqual({ id: root.id, pubkey: CAROL, author: expect.objectContaining({ pubkey: CAROL }) });
    expect(page.notes[2].replyTo).toBeUndefined();
  });

  it('collects referenced events and profiles the content mentions', () => {
    const a = page.notes[1];
    expect(a.referencedEvents[noteB.id]).toEqual(noteB);
    expect(a.referencedEvents[root.id]).toEqual(root);
    expect(Object.keys(a.profiles)).toEqual([CAROL]);
  });

  it('without a RANGE lists the top-level posts newest first', () => {
    const p = parseBundle([noteA, article, meta(ALICE, { name: 'a' })]);
    expect(p.notes.map((n) => n.key)).toEqual([article.id, noteA.id]);
    expect(p.range).toBeUndefined();
  });

  it('an empty page and junk objects give no cards', () => {
    expect(parseBundle([synth(10000113, { order_by: 'created_at', elements: [] })]).notes).toEqual([]);
    expect(parseBundle([{ kind: 10000100, content: '{' }, { kind: 1 }, { kind: 10000107, content: 'x' }]).notes).toEqual([]);
  });

  it('drops a repost whose note is nowhere in the bundle', () => {
    const lonely = ev(6, BOB, '', [['e', hex('e')]]);
    expect(parseBundle([lonely]).notes).toEqual([]);
  });
});

describe('replyTarget', () => {
  it('prefers reply over root, e over a, and ignores unmarked and mention tags', () => {
    expect(replyTarget({ tags: [['e', 'r', '', 'root'], ['e', 'p', '', 'reply']] })).toEqual({ id: 'p' });
    expect(replyTarget({ tags: [['e', 'x'], ['e', 'y', '', 'mention']] })).toBeUndefined();
    expect(replyTarget({ tags: [['a', `30023:${ALICE}:cikk`, '', 'root']] })).toEqual({ id: `30023:${ALICE}:cikk`, pubkey: ALICE });
  });
});

describe('zap amounts', () => {
  it('reads bolt11 amounts with the m, u, n, p multipliers', () => {
    expect(bolt11Sats('lnbc1m1pjqq')).toBe(100_000);
    expect(bolt11Sats('lnbc10u1pjqq')).toBe(1000);
    expect(bolt11Sats('lnbc2500n1pjqq')).toBe(250);
    expect(bolt11Sats('lnbc10000000p1pjqq')).toBe(1000);
    expect(bolt11Sats('lnbc1pjqq')).toBeNull();
    expect(bolt11Sats('lntb10u1pjqq')).toBeNull();
  });

  it('keeps at most 10', () => {
    const many = Array.from({ length: 15 }, (_, i) => ({ id: String(i), amount: i, pubkey: '', message: '', eventId: 'e' }));
    expect(topZaps(many).map((z) => z.amount)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
  });
});

describe('membership looks in a bundle', () => {
  it('attaches a legend’s style, badge and glow and a premium member’s tier to their profiles, and nothing to others', () => {
    const noteA = ev(1, ALICE, 'legenda jegyzete');
    const noteB = ev(1, BOB, 'prémium jegyzet');
    const noteC = ev(1, CAROL, 'sima jegyzet');
    const bundle = parseBundle([
      noteA, noteB, noteC, meta(ALICE, { name: 'alice' }), meta(BOB, { name: 'bob' }), meta(CAROL, { name: 'carol' }),
      synth(10000168, { [ALICE]: { style: 'SUNFIRE', custom_badge: true, avatar_glow: true }, [BOB]: { style: 'GOLD', avatar_glow: true } }),
      synth(10000169, { [ALICE]: { tier: 'premium-legend', cohort_2: '2025' }, [BOB]: { tier: 'premium', cohort_2: '2026' } }),
    ]);
    const author = (id: string) => bundle.notes.find((n) => n.event.id === id)?.author;
    expect(author(noteA.id)?.membership).toEqual({ tier: 'premium-legend', style: 'SUNFIRE', badge: true, glow: true, since: '2025' });
    // Only legends get looks, whatever a 10000168 says about others.
    expect(author(noteB.id)?.membership).toEqual({ tier: 'premium', style: '', badge: false, glow: false, since: '2026' });
    expect(author(noteC.id)?.membership).toBeUndefined();
  });

  it('ignores an unknown style and malformed content', () => {
    const note = ev(1, ALICE, 'x');
    const bundle = parseBundle([note, meta(ALICE, { name: 'alice' }), synth(10000168, { [ALICE]: { style: 'PINK', avatar_glow: true } }), synth(10000169, { [ALICE]: { tier: 'premium-legend' } }), { kind: 10000169, content: '{' }]);
    expect(bundle.notes[0].author.membership).toMatchObject({ style: '', glow: true });
  });
});
