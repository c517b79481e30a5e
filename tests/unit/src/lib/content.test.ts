import { describe, expect, it } from 'vitest';
import { naddrEncode, neventEncode, noteEncode, nprofileEncode } from 'nostr-tools/nip19';
import { decodeCashu, embedOf, emojiMap, isImageUrl, parseContent, type ContentPart } from '../../../../src/lib/content';

const PUBKEY = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';
const NPUB = 'npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6';
const ID = 'a'.repeat(64);
const INVOICE =
  'lnbc2500u1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpu9qrsgquk0rl77nj30yxdy8j9vdx85fkpmdla2087ne0xh8nhedh8w27kyke0lp53ut353s06fv3qfegext0eh0ymjpf39tuven09sam30g4vgpfna3rh';

const types = (parts: ContentPart[]) => parts.map((p) => p.type);

function cashuToken(payload: unknown): string {
  const b64 = Buffer.from(JSON.stringify(payload)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `cashuA${b64}`;
}

describe('parseContent: text, links and media', () => {
  it('keeps plain text and its line breaks in one piece', () => {
    expect(parseContent('Szia!\n\nHogy vagy?')).toEqual([{ type: 'text', text: 'Szia!\n\nHogy vagy?' }]);
  });

  it('splits out links and leaves sentence punctuation outside them', () => {
    expect(parseContent('Nézd: https://pelda.hu/cikk.')).toEqual([
      { type: 'text', text: 'Nézd: ' },
      { type: 'link', url: 'https://pelda.hu/cikk' },
      { type: 'text', text: '.' },
    ]);
  });

  it('keeps a balanced closing parenthesis in a link, and drops an unbalanced one', () => {
    expect(parseContent('https://hu.wikipedia.org/wiki/Strucc_(madár)')).toEqual([
      { type: 'link', url: 'https://hu.wikipedia.org/wiki/Strucc_(madár)' },
    ]);
    expect(parseContent('(lásd https://pelda.hu/a_(b))')).toEqual([
      { type: 'text', text: '(lásd ' },
      { type: 'link', url: 'https://pelda.hu/a_(b)' },
      { type: 'text', text: ')' },
    ]);
    expect(parseContent('(https://pelda.hu/x)')).toEqual([
      { type: 'text', text: '(' },
      { type: 'link', url: 'https://pelda.hu/x' },
      { type: 'text', text: ')' },
    ]);
  });

  it('recognises images and videos by extension and by the demo media host', () => {
    expect(parseContent('https://kepek.hu/a.JPG')).toEqual([{ type: 'image', url: 'https://kepek.hu/a.JPG' }]);
    expect(isImageUrl('https://media.strucc.test/abc')).toBe(true);
    expect(isImageUrl('https://pelda.hu/video.mp4')).toBe(false);
    expect(types(parseContent('https://v.hu/a.mp4 https://v.hu/b.webm https://v.hu/c.ogg?x=1'))).toEqual(['video', 'text', 'video', 'text', 'video']);
  });

  it('turns media-service links into players with the spec heights', () => {
    const [yt] = parseContent('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10');
    expect(yt).toMatchObject({ type: 'embed', embed: { service: 'youtube', src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ' } });
    expect(embedOf('https://youtu.be/dQw4w9WgXcQ')?.service).toBe('youtube');
    expect(embedOf('https://open.spotify.com/intl-hu/track/4uLU6hMCjMI75M1A2tKUQC')).toEqual({
      service: 'spotify',
      src: 'https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC',
      height: 352,
    });
    expect(embedOf('https://www.twitch.tv/strucc')?.height).toBeUndefined();
    expect(embedOf('https://www.mixcloud.com/dj/set-1/')?.height).toBe(120);
    expect(embedOf('https://soundcloud.com/artist/track')?.height).toBe(166);
    expect(embedOf('https://music.apple.com/hu/album/x/123?i=456')?.height).toBe(175);
    expect(embedOf('https://music.apple.com/hu/album/x/123')?.height).toBe(450);
    expect(embedOf('https://wavlake.com/track/abc-123')?.height).toBe(380);
    expect(embedOf('https://www.youtube.com/@csatorna')).toBeNull();
    expect(embedOf('https://pelda.hu/watch?v=dQw4w9WgXcQ')).toBeNull();
  });

  it('finds hashtags with accented letters but not numbers or URL fragments', () => {
    expect(parseContent('#Budapest és #ősz, de nem #1')).toEqual([
      { type: 'hashtag', tag: 'Budapest' },
      { type: 'text', text: ' és ' },
      { type: 'hashtag', tag: 'ősz' },
      { type: 'text', text: ', de nem #1' },
    ]);
    expect(parseContent('https://pelda.hu/#resz')).toEqual([{ type: 'link', url: 'https://pelda.hu/#resz' }]);
  });

  it('leaves emoji next to punctuation and hashtags intact', () => {
    expect(parseContent('Kész!🎉🎉 #buli🎉, (😀)')).toEqual([
      { type: 'text', text: 'Kész!🎉🎉 ' },
      { type: 'hashtag', tag: 'buli' },
      { type: 'text', text: '🎉, (😀)' },
    ]);
  });
});

describe('parseContent: nostr identifiers', () => {
  it('decodes npub and nprofile mentions to the pubkey', () => {
    expect(parseContent(`Köszi nostr:${NPUB}!`)).toEqual([
      { type: 'text', text: 'Köszi ' },
      { type: 'mention', pubkey: PUBKEY, bech32: NPUB },
      { type: 'text', text: '!' },
    ]);
    const nprofile = nprofileEncode({ pubkey: PUBKEY, relays: ['wss://relay.pelda.hu'] });
    expect(parseContent(`nostr:${nprofile}`)).toEqual([{ type: 'mention', pubkey: PUBKEY, bech32: nprofile }]);
  });

  it('decodes note, nevent and naddr references', () => {
    const note = noteEncode(ID);
    const nevent = neventEncode({ id: ID, author: PUBKEY });
    const naddr = naddrEncode({ kind: 30023, pubkey: PUBKEY, identifier: 'strucc-cikk' });
    expect(parseContent(`nostr:${note}`)).toEqual([{ type: 'event', bech32: note, id: ID }]);
    expect(parseContent(`nostr:${nevent}`)).toEqual([{ type: 'event', bech32: nevent, id: ID, author: PUBKEY }]);
    expect(parseContent(`nostr:${naddr}`)).toEqual([
      { type: 'address', bech32: naddr, kind: 30023, pubkey: PUBKEY, identifier: 'strucc-cikk', coordinate: `30023:${PUBKEY}:strucc-cikk` },
    ]);
  });

  it('shows an identifier with a broken checksum, or of the wrong type, as typed', () => {
    const broken = `nostr:${NPUB.slice(0, -1)}q`;
    expect(parseContent(broken)).toEqual([{ type: 'text', text: broken }]);
    expect(parseContent('nostr:npub1qqqq')).toEqual([{ type: 'text', text: 'nostr:npub1qqqq' }]);
  });

  it('handles nested and doubled mentions without losing text', () => {
    expect(parseContent(`nostr:nostr:${NPUB}`)).toEqual([
      { type: 'text', text: 'nostr:' },
      { type: 'mention', pubkey: PUBKEY, bech32: NPUB },
    ]);
    // Inside a URL the mention is part of the link.
    expect(parseContent(`https://njump.me/nostr:${NPUB}`)).toEqual([{ type: 'link', url: `https://njump.me/nostr:${NPUB}` }]);
    expect(types(parseContent(`(nostr:${NPUB})nostr:${NPUB}`))).toEqual(['text', 'mention', 'text', 'mention']);
  });
});

describe('parseContent: payments and emoji', () => {
  it('finds lightning invoices, with or without the lightning: prefix', () => {
    expect(parseContent(`Fizess: ${INVOICE}`)).toEqual([
      { type: 'text', text: 'Fizess: ' },
      { type: 'invoice', invoice: INVOICE },
    ]);
    expect(parseContent(`lightning:${INVOICE.toUpperCase()}`)).toEqual([{ type: 'invoice', invoice: INVOICE }]);
    expect(parseContent('lnbc rövid')).toEqual([{ type: 'text', text: 'lnbc rövid' }]);
  });

  it('finds cashu tokens and decodes their amount and mint', () => {
    const token = cashuToken({
      token: [{ mint: 'https://mint.pelda.hu', proofs: [{ amount: 8 }, { amount: 2 }, { amount: 1 }] }],
      unit: 'sat',
      memo: 'Köszi!',
    });
    expect(parseContent(`Itt egy kis ecash: ${token}`)).toEqual([
      { type: 'text', text: 'Itt egy kis ecash: ' },
      { type: 'cashu', token },
    ]);
    expect(decodeCashu(token)).toEqual({ amount: 11, mint: 'https://mint.pelda.hu', unit: 'sat', memo: 'Köszi!' });
    expect(decodeCashu('cashuAnemjson')).toBeNull();
    expect(decodeCashu(cashuToken({ token: [] }))).toBeNull();
  });

  it('replaces :name: only for the emoji the event declares', () => {
    const emojis = emojiMap([
      ['emoji', 'strucc', 'https://kepek.hu/strucc.png'],
      ['emoji', 'rossz', 'javascript:alert(1)'],
    ]);
    expect(emojis).toEqual({ strucc: 'https://kepek.hu/strucc.png' });
    expect(parseContent('Szia :strucc:! :ismeretlen: :rossz: 12:30:45', emojis)).toEqual([
      { type: 'text', text: 'Szia ' },
      { type: 'emoji', name: 'strucc', url: 'https://kepek.hu/strucc.png' },
      { type: 'text', text: '! :ismeretlen: :rossz: 12:30:45' },
    ]);
    // The closing colon of an unknown name can open a known one.
    expect(parseContent(':x:strucc:', emojis)).toEqual([
      { type: 'text', text: ':x' },
      { type: 'emoji', name: 'strucc', url: 'https://kepek.hu/strucc.png' },
    ]);
  });
});

describe('parseContent: hostile and large input', () => {
  it('leaves script tags, javascript: and data: links as plain text', () => {
    const hostile = '<script>alert(1)</script> [x](javascript:alert(1)) javascript:alert(2) data:text/html;base64,PHNjcmlwdD4=';
    expect(parseContent(hostile)).toEqual([{ type: 'text', text: hostile }]);
  });

  it('parses a 10,000-character note and loses nothing', () => {
    const chunk = `Hosszú szöveg #strucc https://pelda.hu/a nostr:${NPUB} 🎉\n`;
    const content = chunk.repeat(Math.ceil(10_000 / chunk.length)).slice(0, 10_000);
    const parts = parseContent(content);
    const rebuilt = parts
      .map((p) =>
        p.type === 'text' ? p.text : p.type === 'hashtag' ? `#${p.tag}` : p.type === 'link' ? p.url : p.type === 'mention' ? `nostr:${p.bech32}` : '',
      )
      .join('');
    expect(rebuilt).toBe(content);
    // One part per whole token in the text; the cut-off npub at the very end stays text.
    const count = (type: string) => parts.filter((p) => p.type === type).length;
    expect(count('hashtag')).toBe(content.split('#strucc').length - 1);
    expect(count('link')).toBe(content.split('https://pelda.hu/a').length - 1);
    expect(count('mention')).toBe(content.split(`nostr:${NPUB}`).length - 1);
    expect(count('mention')).toBe(Math.floor(10_000 / chunk.length));
  });

  it('does not hang on a long run of unmatched colons or hashes', () => {
    const content = ':'.repeat(10_000) + '#'.repeat(10_000);
    expect(parseContent(content)).toEqual([{ type: 'text', text: content }]);
  });
});
