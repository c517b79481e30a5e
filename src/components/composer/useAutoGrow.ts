import { useLayoutEffect, type RefObject } from 'react';

/**
 * A composer's text box grows with its text (up to the CSS max-height), and after an insertion
 * (a mention, an emoji) the caret goes where the inserted text ended.
 */
export function useAutoGrow(area: RefObject<HTMLTextAreaElement | null>, pendingCaret: { current: number | null }, onCaret: (caret: number) => void): void {
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
    if (pendingCaret.current !== null) {
      const caret = pendingCaret.current;
      pendingCaret.current = null;
      el.focus();
      el.setSelectionRange(caret, caret);
      onCaret(caret);
    }
  });
}
