import { describe, expect, it } from 'vitest';
import type { NotificationItem } from '../../../../../core/types';
import { belongsToTab, groupNotifications, sentenceKey } from '../../../../../src/components/notifications/group';

let seq = 0;
function n(type: number, createdAt: number, extra: Partial<NotificationItem> = {}): NotificationItem {
  seq += 1;
  return { id: `n${seq}`, type, created_at: createdAt, pubkey: 'me', args: {}, ...extra };
}

describe('groupNotifications', () => {
  it('puts several likes of one post in one row, newest actor first, distinct actors', () => {
    const groups = groupNotifications([
      n(4, 300, { actor: 'anna', post: 'p1', reaction: '+' }),
      n(4, 200, { actor: 'bela', post: 'p1', reaction: '😂' }),
      n(4, 150, { actor: 'anna', post: 'p1', reaction: '+' }),
      n(4, 100, { actor: 'cili', post: 'p2' }),
    ]);
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({ type: 4, post: 'p1', createdAt: 300, actors: ['anna', 'bela'], reactions: ['😂'] });
    expect(groups[0].items).toHaveLength(3);
    expect(groups[1].actors).toEqual(['cili']);
  });

  it('sums the sats of zaps on one post', () => {
    const [g] = groupNotifications([n(3, 20, { actor: 'a', post: 'p', satszapped: 21 }), n(3, 10, { actor: 'b', post: 'p', satszapped: 1000 })]);
    expect(g.sats).toBe(1021);
    expect(g.actors).toEqual(['a', 'b']);
  });

  it('keeps every reply and mention a row of its own, showing the reply rather than the replied post', () => {
    const groups = groupNotifications([
      n(6, 50, { actor: 'a', post: 'mine', related: 'reply1' }),
      n(6, 40, { actor: 'b', post: 'mine', related: 'reply2' }),
      n(7, 30, { actor: 'c', post: 'mention' }),
    ]);
    expect(groups.map((g) => g.shownNote)).toEqual(['reply1', 'reply2', 'mention']);
  });

  it('groups new followers of the same day, and orders rows newest first', () => {
    const day = Date.UTC(2024, 4, 1, 12) / 1000;
    const groups = groupNotifications([
      n(1, day + 60, { actor: 'f1' }),
      n(4, day + 30, { actor: 'x', post: 'p' }),
      n(1, day, { actor: 'f2' }),
      n(1, day - 3 * 86400, { actor: 'f3' }),
    ]);
    expect(groups.map((g) => [g.type, g.actors])).toEqual([
      [1, ['f1', 'f2']],
      [4, ['x']],
      [1, ['f3']],
    ]);
  });

  it('names every spec type, falls back for unknown ones, and filters tabs by type', () => {
    for (const type of [1, 2, 3, 4, 5, 6, 7, 8, 101, 102, 103, 104, 201, 202, 203, 204]) {
      expect(sentenceKey(groupNotifications([n(type, 1, { actor: 'a', post: 'p' })])[0])).toBe(`type.t${type}`);
    }
    expect(sentenceKey(groupNotifications([n(999, 1)])[0])).toBe('type.unknown');
    expect(belongsToTab(n(601, 1), 'replies')).toBe(true);
    expect(belongsToTab(n(4, 1), 'replies')).toBe(false);
    expect(belongsToTab(n(8, 1), 'mentions')).toBe(true);
    expect(belongsToTab(n(5, 1), 'reposts')).toBe(true);
    expect(belongsToTab(n(999, 1), 'all')).toBe(true);
  });
});
