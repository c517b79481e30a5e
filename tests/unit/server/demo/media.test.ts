import { describe, expect, it } from 'vitest';
import { renderDemoMedia } from '../../../../server/demo/media.ts';

const PATHS = ['/avatar/19b1a39b.svg', '/avatar/0a.svg', '/banner/1.svg', '/banner/24.svg', '/img/1.svg', '/img/3.svg', '/img/240.svg', '/cover/7.svg'];

/** A small well-formedness check: every tag closes, in order, and attributes are quoted. */
function wellFormed(xml: string): boolean {
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g)) {
    const [, closing, name, , selfClosing] = m;
    if (selfClosing) continue;
    if (closing) {
      if (stack.pop() !== name) return false;
    } else stack.push(name);
  }
  const stripped = xml.replace(/<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g, '');
  return stack.length === 0 && !/[<>]/.test(stripped);
}

describe('renderDemoMedia', () => {
  it('renders well-formed, self-contained SVG for every kind of demo media', () => {
    for (const path of PATHS) {
      const media = renderDemoMedia(path, 'o');
      expect(media, path).not.toBeNull();
      expect(media!.contentType).toBe('image/svg+xml');
      const body = media!.body;
      expect(body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(body.endsWith('</svg>')).toBe(true);
      expect(wellFormed(body), path).toBe(true);
      expect(body).not.toMatch(/<script|<foreignObject|javascript:|on[a-z]+=|href=|<image|@import/i);
      expect(body.replace('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:/);
    }
  });

  it('is deterministic and varies with the path', () => {
    expect(renderDemoMedia('/img/42.svg', 'm')!.body).toBe(renderDemoMedia('/img/42.svg', 'm')!.body);
    expect(renderDemoMedia('/img/42.svg', 'm')!.body).not.toBe(renderDemoMedia('/img/43.svg', 'm')!.body);
    expect(renderDemoMedia('/avatar/aaaaaaaa.svg', 'o')!.body).not.toBe(renderDemoMedia('/avatar/bbbbbbbb.svg', 'o')!.body);
  });

  it('scales the width and height attributes for s, m, l and o', () => {
    const size = (path: string, s: 's' | 'm' | 'l' | 'o') => {
      const m = /width="(\d+)" height="(\d+)" viewBox="0 0 (\d+) (\d+)"/.exec(renderDemoMedia(path, s)!.body)!;
      return m.slice(1).map(Number);
    };
    expect(size('/img/1.svg', 'o')).toEqual([1200, 800, 1200, 800]);
    expect(size('/img/1.svg', 's')).toEqual([200, 133, 1200, 800]);
    expect(size('/img/1.svg', 'm')).toEqual([400, 267, 1200, 800]);
    expect(size('/img/1.svg', 'l')).toEqual([800, 533, 1200, 800]);
    expect(size('/img/3.svg', 'o')).toEqual([800, 1200, 800, 1200]);
    expect(size('/img/3.svg', 's')).toEqual([200, 300, 800, 1200]);
    expect(size('/avatar/19b1a39b.svg', 's')).toEqual([200, 200, 400, 400]);
    expect(size('/banner/2.svg', 'o')).toEqual([1500, 500, 1500, 500]);
  });

  it('returns null for unknown paths', () => {
    for (const path of ['/', '/avatar/xyz.svg', '/img/0.svg', '/img/abc.svg', '/img/1.png', '/video/1.svg', '/img/1.svg?x', '/img/../1.svg', '/banner/99999999.svg']) {
      expect(renderDemoMedia(path, 'o'), path).toBeNull();
    }
  });
});
