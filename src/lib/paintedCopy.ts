/**
 * A painted copy of the home screen: the HTML the app showed at the top of /home, kept in
 * localStorage when the tab is hidden or left. On the next visit index.html's inline script puts it
 * into #root, inert, before any module has loaded, so the last feed is on screen in the first
 * frames; React's first render then replaces it (createRoot clears its container) and the live
 * screen takes over. The copy is HTML that React made from escaped text; players, media elements
 * and anything that could run or load a page are taken out before it is kept.
 */
import { isHomePath } from './routes';
import { FEED_COPY_VERSION } from '../../core/config';

export const PAINTED_COPY_KEY = 'strucc:paintedCopy';
/** Copies of another version (core/config.ts) are ignored; 2: inline styles travel as data-painted-style. */
const VERSION = FEED_COPY_VERSION;
/** Where a row's inline style waits until index.html applies it through CSSOM. */
const STYLE_ATTRIBUTE = 'data-painted-style';
/** A copy larger than this (a screen of very long notes) costs more to store than it saves. */
const MAX_HTML = 300_000;
/** Elements that play, load another page or run something: none belongs in a still picture. */
const STRIPPED = 'script, noscript, iframe, object, embed, video, audio, [popover], dialog, [role="dialog"]';

export interface PaintedCopy {
  v: number;
  /** The entry module's address: another build's class names and stylesheets would not match. */
  build: string;
  path: string;
  /** The window width it was laid out for; rows are placed by measured heights. */
  width: number;
  /** Stylesheets the screen used, so the copy is never painted without them. */
  styles: string[];
  html: string;
}

export interface ScreenState {
  path: string;
  scrollY: number;
  /** Note cards the app itself rendered (not a copy still waiting to be replaced). */
  liveNotes: number;
  /** A dialog or menu is open: it would be painted into the copy. */
  overlayOpen: boolean;
}

/** 'keep' the screen, 'drop' the stored copy (it would show an older screen than the one left), or leave it. */
export function copyDecision(state: ScreenState): 'keep' | 'drop' | 'leave' {
  if (!isHomePath(state.path)) return 'leave';
  if (state.scrollY > 1 || state.liveNotes === 0 || state.overlayOpen) return 'drop';
  return 'keep';
}

export function dropPaintedCopy(): void {
  try {
    localStorage.removeItem(PAINTED_COPY_KEY);
  } catch {
    // Blocked storage: there is no copy to drop either.
  }
}

function entryModule(): string | null {
  return document.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/** Same-origin stylesheet paths in the document (Vite's loader writes whole URLs, index.html paths). */
function stylesheets(): string[] {
  return [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][href]')]
    .map((l) => new URL(l.href))
    .filter((u) => u.origin === location.origin)
    .map((u) => u.pathname);
}

/** The stylesheets index.html links itself: the copy lists only those the screens' chunks added. */
let pageStyles = new Set<string>();

function keep(root: HTMLElement): void {
  const state: ScreenState = {
    path: location.pathname,
    scrollY: window.scrollY,
    liveNotes: root.querySelectorAll(':scope > :not([data-painted-copy]) [data-note-id]').length,
    overlayOpen: document.querySelector('[role="dialog"], [aria-modal="true"], [role="menu"]') !== null,
  };
  const decision = copyDecision(state);
  if (decision === 'leave') return;
  const build = entryModule();
  if (decision === 'drop' || !build?.startsWith('/assets/')) {
    dropPaintedCopy();
    return;
  }
  const picture = root.cloneNode(true) as HTMLElement;
  for (const el of picture.querySelectorAll(STRIPPED)) el.remove();
  for (const el of picture.querySelectorAll('[autofocus]')) el.removeAttribute('autofocus');
  // Rows the virtual list keeps below the window cost layout and paint on arrival and are never seen.
  const listTop = root.querySelector('[role="feed"]')?.getBoundingClientRect().top ?? 0;
  for (const row of picture.querySelectorAll<HTMLElement>('[role="feed"] > [data-index]')) {
    const offset = Number(/translateY\((-?[\d.]+)px\)/.exec(row.style.transform)?.[1] ?? 0);
    if (listTop + offset > window.innerHeight) row.remove();
  }
  // The page's CSP refuses style attributes in parsed HTML; index.html puts these back through CSSOM.
  for (const el of picture.querySelectorAll<HTMLElement>('[style]')) {
    el.setAttribute(STYLE_ATTRIBUTE, el.getAttribute('style') ?? '');
    el.removeAttribute('style');
  }
  const html = picture.innerHTML;
  if (html.length > MAX_HTML) {
    dropPaintedCopy();
    return;
  }
  const styles = stylesheets().filter((path) => !pageStyles.has(path));
  const copy: PaintedCopy = { v: VERSION, build, path: location.pathname, width: window.innerWidth, styles, html };
  try {
    localStorage.setItem(PAINTED_COPY_KEY, JSON.stringify(copy));
  } catch {
    // A full storage only costs the early picture.
    dropPaintedCopy();
  }
}

/**
 * After the feed's last change, so a burst of notes and their images' layout make one copy; and
 * again later, when the name checks, the sidebar and the account have caught up with the notes.
 */
const SETTLE_MS = [2000, 10_000];
let settleTimers: ReturnType<typeof setTimeout>[] = [];

function keepNow(): void {
  const root = document.getElementById('root');
  if (import.meta.env.PROD && root) keep(root);
}

/**
 * Called when the home feed shows what the network sent. A closed tab does not always get to run
 * its pagehide (a crash, a killed browser), so the copy is also kept once the screen settles.
 */
export function schedulePaintedCopy(): void {
  for (const timer of settleTimers) clearTimeout(timer);
  const keepWhenIdle = () => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(keepNow, { timeout: 1000 });
    else keepNow();
  };
  settleTimers = SETTLE_MS.map((ms) => setTimeout(keepWhenIdle, ms));
}

/** Keeps the copy whenever the tab is hidden or left: the last screen the person saw. */
export function startPaintedCopyKeeper(): void {
  pageStyles = new Set(stylesheets().filter((path) => !document.querySelector(`link[blocking="render"][href="${path}"]`)));
  window.addEventListener('pagehide', keepNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') keepNow();
  });
}
