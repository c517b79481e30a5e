import type { Locator, Page } from '@playwright/test';

/** The toast whose whole text is `text` (src/components/Toaster.tsx), so "Mentve" never matches "Nincs mentve". */
export function toast(page: Page, text: string): Locator {
  return page.locator('.toaster .toast-text').getByText(text, { exact: true });
}
