import { describe, expect, it } from 'vitest';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { decode } from 'nostr-tools/nip19';
import {
  threadRootOf,
  bookmarkTag,
  broadcastPayload,
  coordinateOf,
  deletionEvent,
  hasBookmark,
  noteId,
  noteLink,
  rawData,
  repostEvent,
  reportEvent,
  REPORT_REASONS,
  shownStats,
} from '../../../../src/lib/noteActions';
import type { NostrEvent, NoteStats } from '../../../../core/types';
import { npubOf } from '../../../../src/lib/links';

const sk = generateSecretKey();
const author = getPublicKey(sk);
// A JSON round trip drops nostr-tools' verification mark, as Comlink does.
const plain = (e: object) => JSON.parse(JSON.stringify(e)) as NostrEvent;
const note = plain(finalizeEvent({ kind: 1, tags: [['t', 'strucc']], content: 'Szia, Nostr!', created_at: 1_700_000_000 }, sk));
const article = plain(
  finalizeEvent({ kind: 30023, tags: [['d', 'elso-cikk'], ['title', 'Első cikk']], content: '# Cím', created_at: 1_700_000_100 }, sk),
);

const stats: NoteStats = { likes: 4, replies: 1, mentions: 0, reposts: 2, zaps: 0, satszapped: 0, score: 0, score24h: 0 };

describe('threadRootOf (NIP-10)', () => {
  const id = 'f'.repeat(64), root = 'a'.repeat(64), parent = 'b'.repeat(64);
  it('takes the marked root, else the first positional e tag, else the note itself', () => {
    expect(threadRootOf({ id, tags: [['e', parent, '', 'reply'], ['e', root, '', 'root']] })).toBe(root);
    expect(threadRootOf({ id, tags: [['e', root], ['e', parent]] })).toBe(root);
    expect(threadRootOf({ id, tags: [['e', parent, '', 'mention'], ['p', root]] })).toBe(id);
    expect(threadRootOf({ id, tags: [] })).toBe(id);
  });
});

describe('repostEvent', () => {
  it('is a kind 6 with the reposted event as JSON and its e and p tags', () => {
    const repost = repostEvent({ ...note, extra: 1 } as NostrEvent, 'wss://relay.example');
    expect(repost.kind).toBe(6);
    expect(repost.tags).toEqual([
      ['e', note.id, 'wss://relay.example'],
      ['p', author],
    ]);
    // Only the signed fields travel, so the content verifies as the original.
    expect(JSON.parse(repost.content)).toEqual({ ...note });
    expect(repost.created_at).toBeGreaterThan(1_700_000_000);
  });

  it('keeps an empty relay slot without a hint and names an article by its address and kind', () => {
    const repost = repostEvent(article);
    expect(repost.tags).toEqual([
      ['e', article.id, ''],
      ['p', author],
      ['a', `30023:${author}:elso-cikk`],
      ['k', '30023'],
    ]);
  });
});

describe('reportEvent', () => {
  it('is a kind 1984 naming the author and the note with the reason', () => {
    for (const reason of REPORT_REASONS) {
      const report = reportEvent(note, reason);
      expect(report.kind).toBe(1984);
      expect(report.tags).toEqual([
        ['p', author, reason],
        ['e', note.id, reason],
      ]);
      expect(report.content).toBe('');
    }
  });

  it('offers the five NIP-56 reasons of the dialog', () => {
    expect(REPORT_REASONS).toEqual(['spam', 'illegal', 'nudity', 'impersonation', 'other']);
  });
});

describe('deletionEvent', () => {
  it('is a kind 5 with the e tag and the deleted kind', () => {
    const deletion = deletionEvent(note);
    expect(deletion.kind).toBe(5);
    expect(deletion.tags).toEqual([
      ['e', note.id],
      ['k', '1'],
    ]);
  });

  it('also names an article by its address', () => {
    expect(deletionEvent(article).tags).toEqual([
      ['e', article.id],
      ['a', `30023:${author}:elso-cikk`],
      ['k', '30023'],
    ]);
  });
});

describe('broadcastPayload', () => {
  it('sends the signed event unchanged, without extra fields', () => {
    expect(broadcastPayload({ ...note, seenOn: ['x'] } as NostrEvent)).toEqual({ ...note });
  });

  it('refuses an event without a signature', () => {
    expect(() => broadcastPayload({ ...note, sig: '' })).toThrow('event_not_signed');
  });
});

describe('copy texts', () => {
  it('links a note to /e/ with its nevent on the given origin', () => {
    const link = noteLink(note, 'https://strucc.example/', 'wss://relay.example');
    expect(link.startsWith('https://strucc.example/e/nevent1')).toBe(true);
    const decoded = decode(link.split('/e/')[1]);
    expect(decoded).toMatchObject({ type: 'nevent', data: { id: note.id, author, relays: ['wss://relay.example'] } });
  });

  it('links an article to /a/ with its naddr', () => {
    const link = noteLink(article, 'https://strucc.example');
    expect(decode(link.split('/a/')[1])).toMatchObject({ type: 'naddr', data: { kind: 30023, pubkey: author, identifier: 'elso-cikk' } });
  });

  it('gives the note1 id, the author npub and the raw JSON', () => {
    expect(decode(noteId(note))).toEqual({ type: 'note', data: note.id });
    expect(decode(npubOf(note.pubkey))).toEqual({ type: 'npub', data: author });
    expect(JSON.parse(rawData({ ...note, extra: true } as NostrEvent))).toEqual({ ...note });
  });
});

describe('bookmarks', () => {
  it('uses an e tag for notes and an a tag for articles', () => {
    expect(bookmarkTag(note)).toEqual(['e', note.id]);
    expect(bookmarkTag(article)).toEqual(['a', `30023:${author}:elso-cikk`]);
    expect(coordinateOf(note)).toBeUndefined();
  });

  it('finds a bookmark by tag name and value only', () => {
    expect(hasBookmark([['e', note.id, 'wss://x']], ['e', note.id])).toBe(true);
    expect(hasBookmark([['a', note.id]], ['e', note.id])).toBe(false);
    expect(hasBookmark(undefined, ['e', note.id])).toBe(false);
  });
});

describe('shownStats', () => {
  const none = { liked: false, reposted: false, replied: false, zapped: false };

  it('adds the viewer’s own like and repost the server did not count yet', () => {
    const shown = shownStats(stats, undefined, { ...none, liked: true, reposted: true });
    expect(shown.likes).toBe(5);
    expect(shown.reposts).toBe(3);
  });

  it('does not count twice what the server already knows', () => {
    const server = { liked: true, reposted: true, replied: false, zapped: false };
    const shown = shownStats(stats, server, { ...none, liked: true, reposted: true });
    expect(shown).toEqual(stats);
  });

  it('shows the plain counts when the viewer did nothing', () => {
    expect(shownStats(stats, undefined, none)).toEqual(stats);
  });
});
