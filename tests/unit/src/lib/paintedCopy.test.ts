import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FEED_COPY_VERSION } from '../../../../core/config.ts';
import type { FeedDefinition, FeedNote } from '../../../../core/types';
import { copyDecision } from '../../../../src/lib/paintedCopy';

class MemoryStorage {
  private map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

const note = (key: string) => ({ key }) as unknown as FeedNote;
const feeds: FeedDefinition[] = [{ name: 'Legújabb', description: '', spec: 'latest', enabled: true }];

// The module keeps what it read; each test gets a fresh copy over a fresh storage.
async function load() {
  vi.resetModules();
  return import('../../../../src/lib/firstScreen');
}

describe('first screen kept for the next visit', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage());
  });

  it('paints the kept cards of the same feed only, at most the first screen', async () => {
    const first = await load();
    first.keepFirstScreenFeeds(feeds);
    first.keepFirstScreenNotes('latest', Array.from({ length: 20 }, (_, i) => note(`n${i}`)));
    const next = await load();
    expect(next.firstScreenFeeds()).toEqual(feeds);
    const snapshot = next.firstScreenSnapshot('latest');
    expect(snapshot?.fromCache).toBe(true);
    expect(snapshot?.notes.map((n) => n.key)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
    expect(next.firstScreenSnapshot('trending')).toBeNull();
  });

  it('another account or a logout forgets the kept screen', async () => {
    const m = await load();
    m.checkFirstScreenViewer('alice');
    m.keepFirstScreenFeeds(feeds);
    m.keepFirstScreenNotes('latest', [note('a')]);
    m.checkFirstScreenViewer('alice');
    expect(m.firstScreenSnapshot('latest')?.notes.map((n) => n.key)).toEqual(['a']);
    localStorage.setItem('strucc:paintedCopy', '{"v":1}');
    m.checkFirstScreenViewer('alice');
    expect(localStorage.getItem('strucc:paintedCopy')).toBe('{"v":1}');
    m.checkFirstScreenViewer('');
    expect(m.firstScreenSnapshot('latest')).toBeNull();
    expect(m.firstScreenFeeds()).toBeUndefined();
    // The painted copy of alice's home screen goes with it.
    expect(localStorage.getItem('strucc:paintedCopy')).toBeNull();
  });

  it('a corrupt or old entry is ignored', async () => {
    localStorage.setItem('strucc:firstScreen', '{not json');
    expect((await load()).firstScreenFeeds()).toBeUndefined();
    localStorage.setItem('strucc:firstScreen', JSON.stringify({ v: 0, viewer: '', feeds }));
    expect((await load()).firstScreenFeeds()).toBeUndefined();
    // One version for every saved copy of a feed (core/config.ts): the first screen reads it too.
    localStorage.setItem('strucc:firstScreen', JSON.stringify({ v: FEED_COPY_VERSION, viewer: '', feeds }));
    expect((await load()).firstScreenFeeds()).toEqual(feeds);
  });
});

describe('painted copy of the home screen', () => {
  const top = { path: '/home', scrollY: 0, liveNotes: 6, overlayOpen: false };

  it('is kept when the app itself shows the top of the home feed', () => {
    expect(copyDecision(top)).toBe('keep');
    expect(copyDecision({ ...top, path: '/' })).toBe('keep');
  });

  it('is dropped when the home screen left is not its first screen', () => {
    // Scrolled down: the next visit opens at the top, which the copy would no longer show.
    expect(copyDecision({ ...top, scrollY: 1200 })).toBe('drop');
    // Still the old copy or an empty feed: nothing the app drew.
    expect(copyDecision({ ...top, liveNotes: 0 })).toBe('drop');
    // A dialog or menu would be painted in.
    expect(copyDecision({ ...top, overlayOpen: true })).toBe('drop');
  });

  it('is left as it is when another page is hidden', () => {
    expect(copyDecision({ ...top, path: '/thread/abc' })).toBe('leave');
    expect(copyDecision({ ...top, path: '/homework' })).toBe('leave');
  });
});
