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

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const bg = getComputedStyle(document.documentElement).getPropertyValue('--bg').trim();
  if (meta && bg) meta.content = bg;
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
  document.documentElement.dataset.animated = animated ? 'true' : 'false';
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
