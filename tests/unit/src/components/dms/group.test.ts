import { describe, expect, it } from 'vitest';
import { groupMessages, shownMessages } from '../../../../../src/components/dms/group.ts';
import type { DirectMessage, DmOutgoing } from '../../../../../core/types.ts';

const ME = 'a'.repeat(64);
const BOB = 'b'.repeat(64);
const CAROL = 'c'.repeat(64);
/** Local noon of a day in November 2026, in seconds. */
const day = (d: number, minute = 0) => Math.floor(new Date(2026, 10, d, 12, minute).getTime() / 1000);
const msg = (id: string, sender: string, at: number): DirectMessage => ({ id, sender, content: id, created_at: at });

describe('conversation layout', () => {
  it('groups by local day, then by runs of one sender, oldest first', () => {
    const list = shownMessages([msg('1', BOB, day(1)), msg('2', BOB, day(1, 1)), msg('3', ME, day(1, 2)), msg('4', BOB, day(1, 3)), msg('5', BOB, day(2))], [], BOB, ME);
    const days = groupMessages(list);
    expect(days.map((d) => d.day)).toEqual(['2026-11-01', '2026-11-02']);
    expect(days[0].runs.map((r) => [r.sender, r.messages.map((m) => m.key)])).toEqual([
      [BOB, ['1', '2']],
      [ME, ['3']],
      [BOB, ['4']],
    ]);
    expect(days[1].runs).toHaveLength(1);
  });

  it('shows this conversation’s outbox after the messages, once: a sent one already fetched is not repeated', () => {
    const outbox: DmOutgoing[] = [
      { id: 1, peer: BOB, text: 'sent', created_at: day(3), status: 'sent', eventId: 'e1' },
      { id: 2, peer: BOB, text: 'waiting', created_at: day(3, 1), status: 'pending' },
      { id: 3, peer: CAROL, text: 'elsewhere', created_at: day(3, 2), status: 'failed', reason: 'timeout' },
    ];
    const list = shownMessages([msg('e1', ME, day(3))], outbox, BOB, ME);
    expect(list.map((m) => [m.key, m.sender, m.outgoing?.status])).toEqual([
      ['e1', ME, undefined],
      ['out-2', ME, 'pending'],
    ]);
    expect(groupMessages(list)[0].runs).toHaveLength(1);
  });
});
