/** mediaCacheUrl writes its query by hand (server/media/info.ts); it must equal URLSearchParams' for any URL. */
import { describe, expect, it } from 'vitest';
import { mediaCacheUrl } from '../../../../server/media/info.ts';

const viaSearchParams = (url: string, size: string, animated: boolean) =>
  `/media-cache?${new URLSearchParams({ s: size, a: animated ? '1' : '0', u: url }).toString()}`;

describe('mediaCacheUrl', () => {
  const urls = [
    'https://kep.example/a.jpg',
    'https://kep.example/út/árvíztűrő tükörfúrógép.png?x=1&y=(2)',
    "https://e.example/!'()*~-._ +%20#frag",
    'https://e.example/😀/\u00e9\u0301',
    'https://e.example/\ud800lone',
    '',
  ];
  for (const url of urls) {
    it(`encodes ${JSON.stringify(url)} as URLSearchParams does`, () => {
      for (const size of ['o', 's', 'm', 'l'] as const) {
        for (const animated of [true, false]) expect(mediaCacheUrl(url, size, animated)).toBe(viaSearchParams(url, size, animated));
      }
    });
  }
  it('matches on every printable ASCII character', () => {
    const all = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    expect(mediaCacheUrl(all, 'o', false)).toBe(viaSearchParams(all, 'o', false));
  });
});
