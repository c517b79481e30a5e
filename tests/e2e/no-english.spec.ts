import { expect, test } from '@playwright/test';
import { englishIn, englishOnlyPhrases } from './support/catalogue.ts';
import { ROUTES, visit } from './support/routes.ts';

// In Hungarian mode no English UI string may be visible anywhere. The English catalogue
// (locales/en/*.json) is the list of what English looks like: every phrase the Hungarian
// catalogue translates differently. Phrases Hungarian shares, brand names and the demo
// users' own texts are left out (support/catalogue.ts), so a hit is a real leak.

test('the English catalogue gives the walk something to look for', () => {
  const phrases = englishOnlyPhrases().map((p) => p.phrase);
  expect(phrases.length).toBeGreaterThan(50);
  for (const shell of ['Skip to content', 'Settings', 'Notifications']) expect(phrases).toContain(shell);
});

/** What a reader sees: rendered text plus the hints inside empty fields. */
async function visibleText(page: import('@playwright/test').Page): Promise<string> {
  return page.evaluate(() => {
    const hints = [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')]
      .filter((el) => el.offsetParent !== null)
      .map((el) => el.placeholder);
    // Raw data (the devtools page's JSON of the machines, marked translate="no") is not UI text.
    const raw = [...document.querySelectorAll<HTMLElement>('[translate="no"]')];
    for (const el of raw) el.style.setProperty('display', 'none');
    const text = document.body.innerText;
    for (const el of raw) el.style.removeProperty('display');
    return [text, ...hints].join('\n');
  });
}

test('the walk would notice an English string on a real page', async ({ page }) => {
  await visit(page, ROUTES.find((r) => r.name === 'settings')!);
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.textContent = 'Back to settings';
    document.querySelector('main')?.append(p);
  });
  expect(englishIn(await visibleText(page)).map((p) => p.phrase)).toContain('Back to settings');
});

for (const route of ROUTES) {
  test(`no English on ${route.name}`, async ({ page }) => {
    // Content that arrives after the heading (sidebars, lists, counts) must be Hungarian too: visit
    // waits until nothing on the page, the sidebar blocks included, is still aria-busy.
    const path = await visit(page, route);
    const found = englishIn(await visibleText(page));
    const listing = found.map((p) => `  "${p.phrase}" (en ${p.key})`).join('\n');
    expect(found, `English UI text on ${path}:\n${listing}`).toEqual([]);
  });
}
