import { describe, expect, it } from 'vitest';
import { createReactions, isLike, parseActions, parseZaps } from '../../../worker/reactions';
import type { CacheObject, CacheReply } from '../../../core/types';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const NOTE = 'c'.repeat(64);

function ev(id: string, pubkey: string, kind: number, content: string, tags: string[][] = []): CacheObject {
  return { id: id.padEnd(64, '0'), pubkey, kind, created_at: 1_700_000_000, content, tags, sig: '' } as unknown as CacheObject;
}

const profileA = ev('p1', A, 0, JSON.stringify({ name: 'anna', display_name: 'Anna' }));

describe('reactions modal parsing', () => {
  it('treats + and empty as likes, emoji as reactions', () => {
    expect(isLike('+')).toBe(true);
    expect(isLike('')).toBe(true);
    expect(isLike('🔥')).toBe(false);
  });

  it('reads kind-7 lists with profiles and custom emoji, and filters likes', () => {
    const objects = [
      ev('r1', A, 7, '+'),
      ev('r2', B, 7, ':strucc:', [['emoji', 'strucc', 'https://kepek.hu/s.png']]),
      ev('r3', B, 7, ':rossz:', [['emoji', 'rossz', 'javascript:alert(1)']]),
      profileA,
    ];
    const all = parseActions(objects, 7, false);
    expect(all.map((e) => e.content)).toEqual(['+', ':strucc:', ':rossz:']);
    expect(all[0].profile.displayName).toBe('Anna');
    expect(all[1].emojiUrl).toBe('https://kepek.hu/s.png');
    expect(all[2].emojiUrl).toBeUndefined();
    expect(parseActions(objects, 7, true).map((e) => e.pubkey)).toEqual([A]);
  });

  it('orders zaps by the RANGE and merges receipt and info', () => {
    const info = (id: string, sender: string, amount: number): CacheObject => ({
      kind: 10000129,
      content: JSON.stringify({ event_id: NOTE, sender, amount_sats: amount, zap_receipt_id: id, created_at: 5 }),
    });
    const objects: CacheObject[] = [
      info('z1', A, 21),
      info('z2', B, 1000),
      profileA,
      { kind: 10000113, content: JSON.stringify({ elements: ['z2', 'z1'], order_by: 'amount_sats' }) },
    ];
    const zaps = parseZaps(objects);
    expect(zaps.map((z) => [z.id, z.amount])).toEqual([
      ['z2', 1000],
      ['z1', 21],
    ]);
    expect(zaps[1].profile.displayName).toBe('Anna');
  });

  it('pages 20 at a time and counts likes and quotes', async () => {
    const calls: [string, Record<string, unknown> | undefined][] = [];
    const request = async (command: string, payload?: Record<string, unknown>): Promise<CacheReply> => {
      calls.push([command, payload]);
      if (command === 'note_mentions_count') return { events: [{ kind: 10000143, content: JSON.stringify({ event_id: NOTE, count: 2 }) }] };
      return { events: [ev('r1', A, 7, '+'), ev('r2', B, 7, '🔥')] };
    };
    const api = createReactions(request);
    const page = await api.loadReactions(NOTE, 'likes', 40);
    expect(calls[0]).toEqual(['event_actions', { event_id: NOTE, kind: 7, limit: 20, offset: 40 }]);
    expect(page.items).toHaveLength(1);
    expect(page.nextOffset).toBe(42);
    expect(page.hasMore).toBe(false);
    expect(await api.reactionCounts(NOTE)).toEqual({ reactions: 2, likes: 1, quotes: 2, complete: true });
  });
});
