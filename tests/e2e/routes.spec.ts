import { expect, test } from '@playwright/test';
import { englishIn } from './support/catalogue.ts';
import { ROUTES, visit, watchErrors } from './support/routes.ts';
import { base } from './support/base.ts';

// Every route of spec §2, visited by a guest with the demo network's real ids: each one
// settles on a Hungarian heading (never a blank page or an endless spinner) without errors.

const RAW_KEY = /^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9_]+)+$/;

for (const route of ROUTES) {
  test(`${route.name} renders a Hungarian page`, async ({ page }) => {
    const errors = watchErrors(page);
    const path = await visit(page, route);

    await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
    const heading = (await page.locator('h1').first().innerText()).trim();
    expect(heading, `${path}: the h1 has text`).not.toBe('');
    expect(heading, `${path}: the h1 is not a raw catalogue key`).not.toMatch(RAW_KEY);
    expect(englishIn(heading).map((p) => p.phrase), `${path}: the h1 "${heading}" is not English`).toEqual([]);

    // A page is more than its heading: the shell (or a public page) plus the screen's own content.
    const bodyText = await page.locator('body').innerText();
    expect(bodyText.replace(/\s+/g, ' ').length, `${path}: the page has content`).toBeGreaterThan(heading.length + 40);

    // Never a page that only describes a feature: a title plus one paragraph of intro and nothing
    // else is the placeholder shape (a bare PageIntro without children, as the removed InfoPage was).
    const placeholder = page.locator('.page:has(> .page-intro):not(:has(> :not(.page-header, .page-intro))) > .page-intro:not(:has(> :not(p)))');
    await expect(placeholder, `${path}: a working screen, not a description of one`).toHaveCount(0);

    expect(errors, `${path}: no uncaught errors or console errors`).toEqual([]);
  });
}

test('/download redirects to /downloads', async ({ page }) => {
  await page.goto(`${base()}/download`);
  await expect(page).toHaveURL(/\/downloads$/);
});
