export const THEMES = ['sunrise', 'sunset', 'midnight', 'ice'] as const;
export type Theme = (typeof THEMES)[number];

const STORAGE_KEY = 'theme';
export const DEFAULT_THEME: Theme = 'sunrise';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isTheme(value) ? value : DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

/**
 * Writes the theme on <html> only when it differs: index.html has already set the stored one, and any
 * write of the attribute restyles the whole page (the painted copy on a revisit). themeColor: false
 * leaves the browser bar's colour to applyThemeColor, for the first screen (see there).
 */
export function applyTheme(theme: Theme, { themeColor = true } = {}): void {
  const root = document.documentElement;
  if (root.dataset.theme !== theme) root.dataset.theme = theme;
  if (themeColor) applyThemeColor();
}

/**
 * The browser bar takes the theme's background. Reading it computes the style of the whole page, so
 * at start main.tsx calls this after the first paint instead of forcing that work while the page's
 * modules run (a revisit of /home restyled its painted copy for it before the first frame).
 */
export function applyThemeColor(): void {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const bg = getComputedStyle(document.documentElement).getPropertyValue('--bg').trim();
  if (meta && bg && meta.content !== bg) meta.content = bg;
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Not persisting is acceptable: the choice still applies to this page.
  }
  applyTheme(theme);
  window.dispatchEvent(new CustomEvent<Theme>('strucc:theme', { detail: theme }));
}

const ANIMATED_KEY = 'animated';

/** Animations are on unless this device or the account turned them off. */
export function storedAnimated(): boolean {
  try {
    return localStorage.getItem(ANIMATED_KEY) !== 'false';
  } catch {
    return true;
  }
}

/** <html data-animated="false"> switches transitions and animations off (base.css). */
export function applyAnimated(animated: boolean): void {
  const value = animated ? 'true' : 'false';
  // base.css matches [data-animated='false'] *: any write of it restyles every element, so an unchanged one is left alone.
  if (document.documentElement.dataset.animated !== value) document.documentElement.dataset.animated = value;
}

export function setAnimated(animated: boolean): void {
  try {
    localStorage.setItem(ANIMATED_KEY, String(animated));
  } catch {
    // Not persisting is acceptable: the choice still applies to this page.
  }
  applyAnimated(animated);
  window.dispatchEvent(new CustomEvent<boolean>('strucc:animated', { detail: animated }));
}
