/**
 * The notes the person published from this browser in this worker's life: added the moment they are
 * signed, confirmed when a relay accepts them, dropped when publishing fails. Every open feed,
 * profile page and thread of every tab reads this one list (worker/feedView.ts decides where a note
 * belongs), so a note written in one tab shows at once in the others.
 */
import { parseBundle } from '../core/bundle.ts';
import { emptyProfile } from '../core/profile.ts';
import type { FeedNote, NostrEvent, Profile } from '../core/types.ts';
import type { OwnNote } from './feedView.ts';

/** Enough for a busy session; older ones are in the server's pages by then. */
const KEPT = 30;

/** Where the person's profile for the cards comes from, quickest first (the kept copy, then the server). */
export type ProfileSource = (pubkey: string) => Promise<Profile | undefined>;

export class OwnNotes {
  private list: readonly OwnNote[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly authors = new Map<string, Profile>();
  private readonly asked = new Set<string>();

  constructor(private readonly sources: ProfileSource[] = []) {}

  /** Newest first; a new array on every change, so views can compare by identity. */
  get all(): readonly OwnNote[] {
    return this.list;
  }

  watch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The person's profile for the cards; until it is known the card shows the key. */
  setAuthor(profile: Profile): void {
    this.authors.set(profile.pubkey, profile);
    if (!this.list.some((o) => o.note.author.pubkey === profile.pubkey && o.note.author !== profile)) return;
    this.set(this.list.map((o) => (o.note.author.pubkey === profile.pubkey ? { ...o, note: { ...o.note, author: profile } } : o)));
  }

  /** Asks the sources once per person; a failing source only leaves the key on the card. */
  private fillAuthor(pubkey: string): void {
    if (this.authors.has(pubkey) || this.asked.has(pubkey)) return;
    this.asked.add(pubkey);
    void (async () => {
      for (const source of this.sources) {
        const profile = await source(pubkey).catch(() => undefined);
        if (profile) this.setAuthor(profile);
      }
    })();
  }

  /** A kind-1 note was signed and is on its way to the relays. */
  add(event: NostrEvent): void {
    if (event.kind !== 1 || this.list.some((o) => o.note.event.id === event.id)) return;
    const card = parseBundle([event]).notes[0] as FeedNote | undefined;
    if (!card) return;
    const note: FeedNote = { ...card, author: this.authors.get(event.pubkey) ?? emptyProfile(event.pubkey) };
    this.set([{ note, state: 'pending' as const }, ...this.list].slice(0, KEPT));
    this.fillAuthor(event.pubkey);
  }

  confirm(id: string): void {
    if (!this.list.some((o) => o.note.event.id === id && o.state === 'pending')) return;
    this.set(this.list.map((o) => (o.note.event.id === id ? { ...o, state: 'confirmed' as const } : o)));
  }

  /** Publishing failed: the note goes from every feed (the publishing tab says why and keeps the text). */
  fail(id: string): void {
    if (!this.list.some((o) => o.note.event.id === id)) return;
    this.set(this.list.filter((o) => o.note.event.id !== id));
  }

  /** Another account signed in: the previous person's notes are not this one's. */
  clear(): void {
    if (this.list.length > 0) this.set([]);
  }

  private set(next: readonly OwnNote[]): void {
    this.list = next;
    for (const listener of this.listeners) listener();
  }
}
