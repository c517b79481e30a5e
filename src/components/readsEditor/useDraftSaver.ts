import { useCallback, useEffect, useRef, useState } from 'react';
import { accountAction } from '../../lib/account';
import { isBlankDraft, sameFields, serializeDraft, type ArticleDraft, type ArticleFields } from '../../lib/article';

/** Long enough not to write on every keystroke, short enough that a reload loses nothing typed. */
export const DRAFT_DEBOUNCE_MS = 600;

export type SaveState = 'idle' | 'saving' | 'saved';

/**
 * Keeps the editor's fields in the account's drafts (slot `key`) as the person types. A draft
 * equal to the published version (or an empty new one) is removed instead of kept.
 */
export function useDraftSaver(key: string, draft: ArticleDraft, base: ArticleFields | null, restored: boolean) {
  const [state, setState] = useState<SaveState>(restored ? 'saved' : 'idle');
  const pending = useRef<ArticleDraft | null>(null);
  const stopped = useRef(false);
  const first = useRef(true);
  const baseRef = useRef(base);
  baseRef.current = base;

  const flush = useCallback(async (): Promise<void> => {
    const d = pending.current;
    if (!d || stopped.current) return;
    pending.current = null;
    const unchanged = baseRef.current ? sameFields(d, baseRef.current) : isBlankDraft(d);
    try {
      if (unchanged) await accountAction({ type: 'clearDraft', parent: key });
      else await accountAction({ type: 'setDraft', parent: key, text: serializeDraft({ ...d, savedAt: Date.now() }) });
      // A newer edit may have started saving meanwhile; its own flush reports.
      if (!pending.current) setState(unchanged ? 'idle' : 'saved');
    } catch {
      // The worker is gone (the tab is closing): the next edit tries again.
      pending.current ??= d;
    }
  }, [key]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (stopped.current) return;
    pending.current = draft;
    setState('saving');
    const timer = setTimeout(() => void flush(), DRAFT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, flush]);

  // Leaving the page (or the tab) writes what is still waiting for the debounce.
  useEffect(() => {
    const onHide = () => void flush();
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      void flush();
    };
  }, [flush]);

  /** After publishing: nothing more is written, and the slot is emptied. */
  const finish = useCallback(async () => {
    stopped.current = true;
    pending.current = null;
    await accountAction({ type: 'clearDraft', parent: key }).catch(() => undefined);
  }, [key]);

  return { state, flush, finish };
}
