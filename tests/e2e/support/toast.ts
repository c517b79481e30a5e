import type { Locator, Page } from '@playwright/test';

/** The toast whose whole text is `text` (src/components/Toaster.tsx), so "Mentve" never matches "Nincs mentve". */
export function toast(page: Page, text: string): Locator {
  return page.locator('.toaster .toast-text').getByText(text, { exact: true });
}

/** Every toast on screen, or those of one kind (Toaster's data-toast-kind: 'error', 'success', 'info'). */
export function toasts(page: Page, kind?: string): Locator {
  return page.locator(kind ? `.toaster [data-toast-kind="${kind}"] .toast-text` : '.toaster .toast-text');
}
