import { expect, test } from '@playwright/test';
import { base } from './support/base.ts';


async function cacheStatus() {
  const res = await fetch(`${base()}/api/status`);
  return (await res.json()) as { cacheConnections: number; cacheConnectionsTotal: number };
}

test('/ redirects to /home, which shows the demo network to a guest in Hungarian', async ({ page }) => {
  await page.goto(`${base()}/`);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
  const firstNote = page.locator('[data-note-id]').first();
  await expect(firstNote).toBeVisible();
  await expect(page.getByRole('navigation').first()).toContainText('Kezdőlap');
});

test('three tabs see notes and share exactly one cache connection', async ({ context }) => {
  // The previous test's browser context may still be closing its worker's socket.
  await expect.poll(async () => (await cacheStatus()).cacheConnections).toBe(0);
  const before = await cacheStatus();
  const pages = [];
  for (let i = 0; i < 3; i++) {
    const page = await context.newPage();
    await page.goto(`${base()}/home`);
    pages.push(page);
  }
  for (const page of pages) await expect(page.locator('[data-note-id]').first()).toBeVisible();
  const after = await cacheStatus();
  expect(after.cacheConnections).toBe(1);
  expect(after.cacheConnectionsTotal - before.cacheConnectionsTotal).toBe(1);
});

test("a note's time shows its full Hungarian date as a tooltip once pointed at", async ({ page }) => {
  await page.goto(`${base()}/home`);
  const link = page.locator('[data-note-id] a.note-time').first();
  await expect(link).toBeVisible();
  const time = link.locator('time');
  await link.hover();
  const expected = await time.evaluate((el) =>
    new Intl.DateTimeFormat('hu', { dateStyle: 'long', timeStyle: 'short' }).format(new Date((el as HTMLTimeElement).dateTime)),
  );
  await expect(time).toHaveAttribute('title', expected);
  expect(expected).toMatch(/^\d{4}\. \p{L}+ \d{1,2}\. \d{1,2}:\d{2}$/u);
});
