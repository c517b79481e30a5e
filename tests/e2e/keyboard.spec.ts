import { expect, test, type Page } from '@playwright/test';
import { npubEncode } from 'nostr-tools/nip19';
import { demoUser } from '../../server/demo/accounts.ts';
import { base } from './support/base.ts';


const focusedNoteId = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('article[data-note-id]')?.getAttribute('data-note-id') ?? null);

test('j/k move between notes with a visible focus ring, Enter opens the thread', async ({ page }) => {
  await page.goto(`${base()}/home`);
  const notes = page.locator('main article[data-note-id]');
  await expect(notes.nth(2)).toBeVisible();
  const ids = await notes.evaluateAll((els) => els.map((e) => e.getAttribute('data-note-id')));

  await page.keyboard.press('j');
  expect(await focusedNoteId(page)).toBe(ids[0]);
  await page.keyboard.press('j');
  expect(await focusedNoteId(page)).toBe(ids[1]);
  await page.keyboard.press('j');
  expect(await focusedNoteId(page)).toBe(ids[2]);
  await page.keyboard.press('k');
  expect(await focusedNoteId(page)).toBe(ids[1]);

  const ring = await page.evaluate(() => {
    const s = getComputedStyle(document.activeElement!);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
  });
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThan(0);

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/e\/nevent1|\/e\/[0-9a-f]{64}/);
  await expect(page.locator(`article[data-note-id="${ids[1]}"]`).first()).toBeVisible();
});

test('/ focuses the search box; typing there does not trigger shortcuts', async ({ page }) => {
  await page.goto(`${base()}/home`);
  await expect(page.locator('main article[data-note-id]').first()).toBeVisible();
  await page.keyboard.press('/');
  const search = page.locator('.right-sidebar form[role="search"] input');
  await expect(search).toBeFocused();
  await page.keyboard.type('jk?');
  await expect(search).toHaveValue('jk?');
  await expect(search).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('? opens the Hungarian list of shortcuts as a dialog; Esc closes it and focus returns', async ({ page }) => {
  await page.goto(`${base()}/home`);
  await expect(page.locator('main article[data-note-id]').first()).toBeVisible();
  await page.keyboard.press('j');
  const before = await focusedNoteId(page);
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Billentyűparancsok' });
  await expect(dialog).toBeVisible();
  for (const text of ['Következő bejegyzés', 'Előző bejegyzés', 'A kijelölt bejegyzés szálának megnyitása', 'Ugrás a keresőmezőre']) {
    await expect(dialog).toContainText(text);
  }
  await expect(dialog.getByRole('button', { name: 'Bezárás' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await focusedNoteId(page)).toBe(before);
  // The close button works as well.
  await page.keyboard.press('?');
  await page.getByRole('dialog', { name: 'Billentyűparancsok' }).getByRole('button', { name: 'Bezárás' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Esc and ? at once: the list opens again even while the last close is still being rendered.
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Billentyűparancsok' })).toBeVisible();
    await page.keyboard.press('Escape');
  }
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Billentyűparancsok' })).toBeVisible();
});

test('j/k also walk the notes of a notification-free page: a profile feed', async ({ page }) => {
  await page.goto(`${base()}/home`);
  const first = page.locator('main article[data-note-id]').first();
  await expect(first).toBeVisible();
  // The author link of the first note leads to a profile with its own feed.
  await first.locator('.note-author a').click();
  await expect(page).toHaveURL(/\/p\//);
  const notes = page.locator('main article[data-note-id]');
  await expect(notes.first()).toBeVisible();
  await page.keyboard.press('j');
  expect(await focusedNoteId(page)).toBe(await notes.first().getAttribute('data-note-id'));
});

test('tab strips follow the tabs pattern: arrows wrap, Home and End jump, the tab reached is selected and focused', async ({ page }) => {
  await page.goto(`${base()}/p/${npubEncode(demoUser(1).pubkey)}`);
  const strip = page.getByRole('tablist', { name: 'Profil lapjai' });
  const tabs = strip.getByRole('tab');
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  const names = await tabs.allTextContents();
  const expectAt = async (name: string) => {
    const tab = strip.getByRole('tab', { name, exact: true });
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(tab).toBeFocused();
  };
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  await expectAt(names[1]);
  await page.keyboard.press('End');
  await expectAt(names.at(-1)!);
  await page.keyboard.press('ArrowRight');
  await expectAt(names[0]);
  await page.keyboard.press('ArrowLeft');
  await expectAt(names.at(-1)!);
  await page.keyboard.press('Home');
  await expectAt(names[0]);
  // Other keys are left alone.
  await page.keyboard.press('ArrowDown');
  await expectAt(names[0]);
});
