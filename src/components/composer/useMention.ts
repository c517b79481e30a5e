/**
 * Mention autocomplete: '@' and a few letters right before the caret search people
 * (user_search, 10 shown); choosing one replaces '@letters' with the person's nostr:npub
 * reference (NIP-27), which the tag builder turns into a p tag.
 */
import { useCallback, useMemo, useState, type KeyboardEvent } from 'react';
import type { Profile } from '../../../core/types';
import { toNpub } from '../../../core/profile';
import { useUserSearch, type UserSearchState } from '../search/useUserSearch';

// '@' at the start or after a space or an opening bracket, then a name without spaces.
const TRIGGER = /(?:^|[\s([{"'])@([\p{L}\p{N}_.-]{1,40})$/u;

export interface MentionMatch {
  /** Where the '@' is in the text. */
  start: number;
  query: string;
}

export function mentionAt(text: string, caret: number): MentionMatch | null {
  const before = text.slice(0, caret);
  const match = TRIGGER.exec(before);
  if (!match) return null;
  return { start: caret - match[1].length - 1, query: match[1] };
}

/** The text with '@query' replaced by the reference, and where the caret goes after it. */
export function insertMention(text: string, match: MentionMatch, profile: Profile): { text: string; caret: number } {
  const reference = `nostr:${profile.npub || toNpub(profile.pubkey)}`;
  const end = match.start + 1 + match.query.length;
  const after = text.slice(end);
  const spacer = after.startsWith(' ') || after.startsWith('\n') ? '' : ' ';
  const next = `${text.slice(0, match.start)}${reference}${spacer}${after}`;
  return { text: next, caret: match.start + reference.length + 1 };
}

export interface MentionControls {
  match: MentionMatch | null;
  open: boolean;
  search: UserSearchState;
  active: number;
  setActive: (i: number) => void;
  /** Call with the textarea's caret after every change, click or key. */
  track: (caret: number) => void;
  /** Handles the list's keys; returns true when the key was used. */
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  choose: (profile: Profile) => void;
}

export function useMention(text: string, onChoose: (profile: Profile, match: MentionMatch) => void): MentionControls {
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  // Escape hides the list for this '@' until something else is typed.
  const [dismissed, setDismissed] = useState<string | null>(null);
  const match = useMemo(() => mentionAt(text, caret), [text, caret]);
  const signature = match ? `${match.start}:${match.query}` : null;
  const open = match !== null && dismissed !== signature;
  const search = useUserSearch(match?.query ?? '', open);
  const users = search.users;

  const track = useCallback((next: number) => {
    setCaret(next);
    setActive(0);
  }, []);

  const choose = useCallback(
    (profile: Profile) => {
      if (!match) return;
      onChoose(profile, match);
      setDismissed(null);
    },
    [match, onChoose],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    if (e.key === 'Escape') {
      setDismissed(signature);
      return true;
    }
    if (users.length === 0) return false;
    if (e.key === 'ArrowDown') {
      setActive((i) => (i + 1) % users.length);
      return true;
    }
    if (e.key === 'ArrowUp') {
      setActive((i) => (i - 1 + users.length) % users.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.ctrlKey && !e.metaKey) || e.key === 'Tab') {
      const chosen = users[Math.min(active, users.length - 1)];
      if (chosen) choose(chosen);
      return true;
    }
    return false;
  };

  return { match, open, search, active, setActive, track, onKeyDown, choose };
}
