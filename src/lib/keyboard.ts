/**
 * The app's keyboard shortcuts: j/k move between the notes of any feed, Enter opens the focused
 * note's thread, / jumps to the search box and ? opens the list of shortcuts. Typing in a field
 * never triggers them, and neither does a key pressed with Ctrl, Alt or Meta.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

const NOTE_SELECTOR = 'article[data-note-id]';

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  // Checkboxes and buttons take no text: shortcuts still work on them.
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}

function visible(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}

/** Notes of the page in document order; an open dialog's notes win over the page behind it. */
function notesOnPage(): HTMLElement[] {
  const dialog = document.querySelector('dialog[open]');
  const scope: ParentNode = dialog ?? document.getElementById('main') ?? document;
  return Array.from(scope.querySelectorAll<HTMLElement>(NOTE_SELECTOR)).filter(visible);
}

/** The note the reader is on: the focused one, else the first whose top is on screen. */
function currentIndex(notes: HTMLElement[]): number {
  const focused = document.activeElement?.closest(NOTE_SELECTOR);
  if (focused) {
    const i = notes.indexOf(focused as HTMLElement);
    if (i >= 0) return i;
  }
  return -1;
}

function firstOnScreen(notes: HTMLElement[]): number {
  const i = notes.findIndex((n) => n.getBoundingClientRect().bottom > 80);
  return i >= 0 ? i : 0;
}

function focusNote(note: HTMLElement): void {
  if (!note.hasAttribute('tabindex')) note.tabIndex = -1;
  note.focus({ preventScroll: true });
  note.scrollIntoView({ block: 'center', behavior: 'instant' as ScrollBehavior });
}

/** Moves focus by `step` notes; returns the note focused, if any. */
export function moveNoteFocus(step: 1 | -1): HTMLElement | undefined {
  const notes = notesOnPage();
  if (notes.length === 0) return undefined;
  const at = currentIndex(notes);
  const next = at < 0 ? firstOnScreen(notes) : Math.min(notes.length - 1, Math.max(0, at + step));
  const note = notes[next];
  if (note) focusNote(note);
  return note;
}

/** The thread address of a focused note: the card's own time link (an nevent) when it has one. */
function threadHrefOf(note: HTMLElement): string {
  const link = note.querySelector<HTMLAnchorElement>('a.note-time[href]');
  const href = link?.getAttribute('href');
  return href && href.startsWith('/') ? href : `/e/${note.dataset.noteId ?? ''}`;
}

function searchInput(): HTMLInputElement | undefined {
  return Array.from(document.querySelectorAll<HTMLInputElement>('form[role="search"] input, input[type="search"]')).find(visible);
}

export function useKeyboardShortcuts(openHelp: () => void): void {
  const [, navigate] = useLocation();
  const latest = useRef({ navigate, openHelp });
  latest.current = { navigate, openHelp };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (isTypingTarget(event.target)) return;
      // A modal other than the shortcuts list owns the keyboard while it is open.
      const dialog = document.querySelector('dialog[open], [role="dialog"][aria-modal="true"]');
      switch (event.key) {
        case 'j':
        case 'k':
          if (moveNoteFocus(event.key === 'j' ? 1 : -1)) event.preventDefault();
          return;
        case 'Enter': {
          const target = event.target instanceof HTMLElement ? event.target : null;
          if (!target?.matches(NOTE_SELECTOR)) return;
          event.preventDefault();
          latest.current.navigate(threadHrefOf(target));
          return;
        }
        case '/': {
          if (dialog) return;
          event.preventDefault();
          const input = searchInput();
          if (input) input.focus();
          else latest.current.navigate('/search');
          return;
        }
        case '?':
          if (dialog) return;
          event.preventDefault();
          latest.current.openHelp();
          return;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
