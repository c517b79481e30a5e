/**
 * /settings/home_feeds: rename, disable, reorder by keyboard and by drag, remove and restore the
 * defaults; each change shows in the Home switcher of another tab and after a reload, and is stored
 * on the server (set_app_subsettings user-home-feeds, read back with a signed get_app_subsettings).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { HOME_FEEDS } from '../../server/cache/defaults.ts';
import { cacheRequest } from './support/cache-client.ts';
import { openApp, signIn } from './support/session.ts';
import { toast } from './support/toast.ts';

interface StoredFeed {
  name: string;
  enabled: boolean;
  spec: string;
}

/** The user's stored home feeds, asked the way the app asks: a kind-30078 signed with the user's key. */
async function storedHomeFeeds(secretKey: Uint8Array): Promise<StoredFeed[]> {
  const event = finalizeEvent(
    {
      kind: 30078,
      created_at: Math.floor(Date.now() / 1000),
      tags: [['d', 'Primal-Web App', 'get_app_subsettings_home']],
      content: JSON.stringify({ subkey: 'user-home-feeds' }),
    },
    secretKey,
  );
  const [reply] = await cacheRequest('get_app_subsettings', { event_from_user: event });
  return JSON.parse(String(reply?.content ?? '[]')) as StoredFeed[];
}

const rows = (page: Page) => page.getByRole('list', { name: 'Hírfolyamok, a megjelenés sorrendjében' }).getByRole('listitem');
const rowNames = (page: Page) => page.locator('.feedset-row-name').allInnerTexts();
const row = (page: Page, name: string) => rows(page).filter({ has: page.locator('.feedset-row-name', { hasText: new RegExp(`^${name}$`) }) });
/** The feed buttons of the Home switcher (the "+" and the settings link are not feeds). */
const switcherNames = (page: Page) => page.locator('.feed-switcher > button[aria-pressed]').allInnerTexts();

async function dragRow(page: Page, handle: Locator, target: Locator, below: boolean): Promise<void> {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  const y = to.y + (below ? to.height * 0.85 : to.height * 0.15);
  await page.mouse.move(from.x + from.width / 2, y, { steps: 8 });
  await page.mouse.up();
}

test('home feeds: rename, disable, reorder by keyboard and drag, remove, restore; in the switcher, after a reload and on the server', async ({ context }) => {
  test.setTimeout(120_000);
  const secretKey = generateSecretKey();
  expect(getPublicKey(secretKey)).toHaveLength(64);
  const defaults = HOME_FEEDS.map((f) => f.name);
  const [latest, trending, zapped, all] = defaults;

  const { page } = await signIn(context, secretKey, '/settings/home_feeds');
  await expect.poll(() => rowNames(page)).toEqual(defaults);

  // Rename: an empty name is refused in Hungarian and keeps the field open; Escape cancels; Enter saves.
  const renameTrending = page.getByRole('button', { name: `„${trending}” átnevezése` });
  await renameTrending.click();
  const nameInput = page.getByRole('textbox', { name: `„${trending}” új neve` });
  await nameInput.fill('   ');
  await nameInput.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'A hírfolyam neve nem lehet üres.' })).toBeVisible();
  await expect(nameInput).toHaveValue('   ');
  await nameInput.fill('Valami más');
  await nameInput.press('Escape');
  await expect(nameInput).toBeHidden();
  await expect(renameTrending).toBeFocused();
  await expect(row(page, trending)).toHaveCount(1);
  await renameTrending.click();
  await nameInput.fill('Forró témák');
  await nameInput.press('Enter');
  await expect(row(page, 'Forró témák')).toHaveCount(1);

  // Disable.
  const zappedSwitch = page.getByRole('switch', { name: `„${zapped}” megjelenítése` });
  await expect(zappedSwitch).toBeChecked();
  await zappedSwitch.click();
  await expect(zappedSwitch).not.toBeChecked();

  // Keyboard: Alt+ArrowUp twice on the last row's handle; focus follows the row, the move is announced.
  const allHandle = page.getByRole('button', { name: `„${all}” áthelyezése: húzd, vagy használd az Alt+Fel/Le nyilat` });
  await allHandle.focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => rowNames(page)).toEqual([latest, 'Forró témák', all, zapped]);
  await expect(page.locator('.feed-settings [aria-live="polite"]')).toHaveText(`„${all}” áthelyezve, most a(z) 3. a(z) 4 közül.`);
  await expect(allHandle).toBeFocused();
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => rowNames(page)).toEqual([latest, all, 'Forró témák', zapped]);
  // The move-down button does the same without the modifier.
  await page.getByRole('button', { name: `„${all}” mozgatása lejjebb` }).click();
  await expect.poll(() => rowNames(page)).toEqual([latest, 'Forró témák', all, zapped]);

  // Drag the first row by its handle below the third.
  const latestHandle = page.getByRole('button', { name: `„${latest}” áthelyezése: húzd, vagy használd az Alt+Fel/Le nyilat` });
  await dragRow(page, latestHandle, row(page, all), true);
  await expect.poll(() => rowNames(page)).toEqual(['Forró témák', all, latest, zapped]);

  // Remove, after the confirm dialog.
  await row(page, latest).getByRole('button', { name: `„${latest}” eltávolítása` }).click();
  const confirm = page.getByRole('dialog', { name: 'Eltávolítod a hírfolyamot?' });
  await expect(confirm).toContainText(latest);
  await confirm.locator('[data-confirm="yes"]').click();
  await expect(toast(page, 'Hírfolyam eltávolítva a kezdőlapról')).toBeVisible();
  await expect.poll(() => rowNames(page)).toEqual(['Forró témák', all, zapped]);

  // Stored on the server, in order, with the rename and the switch.
  await expect
    .poll(async () => (await storedHomeFeeds(secretKey)).map((f) => `${f.name}:${f.enabled}`), { timeout: 20_000 })
    .toEqual(['Forró témák:true', `${all}:true`, `${zapped}:false`]);

  // Another tab's Home shows only the enabled feeds, in the new order, with the new name.
  const second = await context.newPage();
  await openApp(second, '/home');
  await expect.poll(() => switcherNames(second)).toEqual(['Forró témák', all]);
  await expect(second.getByRole('link', { name: 'Hírfolyamok szerkesztése' })).toBeVisible();
  await second.reload();
  await expect.poll(() => switcherNames(second)).toEqual(['Forró témák', all]);

  // A fresh worker (every tab closed) reads the same list back.
  await page.close();
  await second.close();
  const third = await context.newPage();
  await openApp(third, '/home');
  await expect.poll(() => switcherNames(third), { timeout: 30_000 }).toEqual(['Forró témák', all]);

  // Restore the defaults, after the confirm dialog: every tab and the server have them back.
  const settings = await context.newPage();
  await openApp(settings, '/settings/home_feeds');
  await expect.poll(() => rowNames(settings)).toEqual(['Forró témák', all, zapped]);
  await settings.getByRole('button', { name: 'Alapértelmezések visszaállítása' }).click();
  await settings.getByRole('dialog', { name: 'Visszaállítod az alapértelmezéseket?' }).locator('[data-confirm="yes"]').click();
  await expect(toast(settings, 'Az alapértelmezett hírfolyamok visszaállítva')).toBeVisible();
  await expect.poll(() => rowNames(settings)).toEqual(defaults);
  await expect.poll(() => switcherNames(third)).toEqual(defaults);
  await expect.poll(async () => (await storedHomeFeeds(secretKey)).map((f) => f.name)).toEqual(defaults);
});
