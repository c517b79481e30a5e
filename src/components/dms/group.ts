/** A conversation as the screen lays it out: days, and in each day runs of messages by one sender. */
import type { DirectMessage, DmOutgoing } from '../../../core/types';

export interface ShownMessage {
  /** The message id, or `out-<n>` for one still in the outbox. */
  key: string;
  sender: string;
  content: string;
  created_at: number;
  /** A NIP-17 private message. */
  private?: boolean;
  outgoing?: DmOutgoing;
}

export interface SenderRun {
  sender: string;
  messages: ShownMessage[];
}

export interface DayGroup {
  /** Local date, YYYY-MM-DD. */
  day: string;
  runs: SenderRun[];
}

function dayOf(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The fetched messages (oldest first) then the outbox entries for this peer, as written. */
export function shownMessages(messages: DirectMessage[], outbox: DmOutgoing[], peer: string, me: string): ShownMessage[] {
  const shown: ShownMessage[] = messages.map((m) => ({ key: m.id, sender: m.sender, content: m.content, created_at: m.created_at, private: m.private }));
  const have = new Set(messages.map((m) => m.id));
  for (const o of outbox) {
    // A sent message already fetched is shown once, from the conversation.
    if (o.peer !== peer || (o.eventId !== undefined && have.has(o.eventId))) continue;
    shown.push({ key: `out-${o.id}`, sender: me, content: o.text, created_at: o.created_at, outgoing: o });
  }
  return shown;
}

/** Grouped by local day, then by consecutive sender; newest at the bottom. */
export function groupMessages(list: ShownMessage[]): DayGroup[] {
  const days: DayGroup[] = [];
  for (const m of list) {
    const day = dayOf(m.created_at);
    let group = days.at(-1);
    if (!group || group.day !== day) {
      group = { day, runs: [] };
      days.push(group);
    }
    const run = group.runs.at(-1);
    if (run && run.sender === m.sender) run.messages.push(m);
    else group.runs.push({ sender: m.sender, messages: [m] });
  }
  return days;
}
