import { describe, expect, it } from 'vitest';
import { isImageUrl, parseContent } from '../../src/lib/content';

const PUBKEY = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';
const NPUB = 'npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6';

describe('parseContent', () => {
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

  it('keeps a balanced closing parenthesis in a link', () => {
    expect(parseContent('https://hu.wikipedia.org/wiki/Strucc_(madár)')).toEqual([
      { type: 'link', url: 'https://hu.wikipedia.org/wiki/Strucc_(madár)' },
    ]);
  });

  it('recognises images by extension and by the demo media host', () => {
    expect(parseContent('https://kepek.hu/a.JPG')).toEqual([{ type: 'image', url: 'https://kepek.hu/a.JPG' }]);
    expect(isImageUrl('https://media.strucc.test/abc')).toBe(true);
    expect(isImageUrl('https://pelda.hu/video.mp4')).toBe(false);
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

  it('decodes npub mentions to the pubkey', () => {
    expect(parseContent(`Köszi nostr:${NPUB}!`)).toEqual([
      { type: 'text', text: 'Köszi ' },
      { type: 'mention', pubkey: PUBKEY, bech32: NPUB },
      { type: 'text', text: '!' },
    ]);
  });

  it('shows an identifier with a broken checksum as typed', () => {
    const broken = `nostr:${NPUB.slice(0, -1)}q`;
    expect(parseContent(broken)).toEqual([{ type: 'text', text: broken }]);
  });
});
