/**
 * The text being written, kept as a draft in the account record (noteDraft, keyed by the parent
 * note id, 'root' for a new note) so it survives closing the form and reloading the page. Saved a
 * moment after typing stops; an empty text (or the untouched starting text) clears the draft.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Profile } from '../../../core/types';
import { accountAction, useAccount } from '../../lib/account';

/** Typing pauses this long before the draft is written, so each keystroke is not a worker call. */
export const DRAFT_SAVE_MS = 500;

export interface DraftControls {
  text: string;
  /** A string, or a function of the latest text (uploads finishing together must not overwrite each other). */
  setText: (next: string | ((previous: string) => string)) => void;
  /** People chosen from the mention list, by pubkey, so the preview can show their names. */
  refs: Record<string, Profile>;
  addRef: (profile: Profile) => void;
  /** Whether the text differs from what the form started with (and is not blank). */
  dirty: boolean;
  /** Writes the draft now (closing with "Mentés", a failed publish). */
  save: () => Promise<void>;
  /** Forgets the draft and empties the form (published, or "Elvetés"). */
  discard: () => Promise<void>;
}

const keyOf = (parent: string | undefined) => parent ?? 'root';

export function useDraft(parent: string | undefined, initialText = ''): DraftControls {
  const account = useAccount()?.account;
  const stored = account?.noteDraft?.[keyOf(parent)];
  const storedRefs = account?.noteDraftUserRefs?.[keyOf(parent)];
  const [text, setTextState] = useState(() => stored ?? initialText);
  const [refs, setRefs] = useState<Record<string, Profile>>(() => storedRefs ?? {});
  const touched = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef({ text, refs });
  latest.current = { text, refs };

  // The account may arrive after the form opened (right after a reload): restore once, unless typing began.
  const restored = useRef(account !== undefined);
  useEffect(() => {
    if (restored.current || account === undefined) return;
    restored.current = true;
    if (touched.current) return;
    if (stored !== undefined) setTextState(stored);
    if (storedRefs) setRefs(storedRefs);
  }, [account, stored, storedRefs]);

  const persist = useCallback(async () => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const { text: now, refs: people } = latest.current;
    if (now.trim() === '' || now === initialText) await accountAction({ type: 'clearDraft', parent });
    else await accountAction({ type: 'setDraft', parent, text: now, userRefs: people });
  }, [parent, initialText]);

  const setText = useCallback(
    (next: string | ((previous: string) => string)) => {
      touched.current = true;
      const value = typeof next === 'function' ? next(latest.current.text) : next;
      latest.current = { ...latest.current, text: value };
      setTextState(value);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => void persist().catch(() => undefined), DRAFT_SAVE_MS);
    },
    [persist],
  );

  const addRef = useCallback((profile: Profile) => setRefs((r) => ({ ...r, [profile.pubkey]: profile })), []);

  const discard = useCallback(async () => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    touched.current = false;
    setTextState('');
    setRefs({});
    await accountAction({ type: 'clearDraft', parent });
  }, [parent]);

  // A pending save is not lost when the form goes away (navigating off a thread page).
  useEffect(
    () => () => {
      if (timer.current !== undefined) void persist().catch(() => undefined);
    },
    [persist],
  );

  return {
    text,
    setText,
    refs,
    addRef,
    dirty: text.trim() !== '' && text !== initialText,
    save: persist,
    discard,
  };
}
