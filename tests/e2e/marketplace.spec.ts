/**
 * The feed marketplace: opened from Home's switcher, previews a feed with the notes the server has
 * for it, adds it (toast, switcher, settings page) and removes it again; explore's catalogue cards
 * add to home too.
 */
import { expect, test, type Page } from '@playwright/test';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { ADVANCED_FEEDS } from '../../server/cache/defaults.ts';
import { cacheRequest } from './support/cache-client.ts';
import { openApp, signIn } from './support/session.ts';
import { toast } from './support/toast.ts';

const switcherNames = (page: Page) => page.locator('.feed-switcher > button[aria-pressed]').allInnerTexts();

/** Ids of the first notes the server gives for a spec, as the preview must show them. */
async function firstNoteIds(spec: string, viewer: string): Promise<string[]> {
  const objects = await cacheRequest('mega_feed_directive', { spec, limit: 20, user_pubkey: viewer });
  return objects.filter((o) => o.kind === 1 && typeof o.id === 'string').map((o) => o.id as string);
}

test('marketplace: preview shows the feed’s notes, add and remove with toasts, in the switcher and the settings', async ({ context }) => {
  test.setTimeout(120_000);
  const secretKey = generateSecretKey();
  const pubkey = getPublicKey(secretKey);
  const images = ADVANCED_FEEDS.find((f) => f.name === 'Képek')!;
  const ids = await firstNoteIds(images.specification, pubkey);
  expect(ids.length).toBeGreaterThan(0);

  const { page } = await signIn(context, secretKey, '/home');
  await expect(page.getByRole('link', { name: 'Hírfolyamok szerkesztése' })).toBeVisible();
  await page.getByRole('group', { name: 'Hírfolyam kiválasztása' }).getByRole('button', { name: 'Hírfolyam hozzáadása' }).click();
  const market = page.getByRole('dialog', { name: 'Hírfolyamok a kezdőlapodra' });
  await expect(market).toBeVisible();
  await expect(market.getByRole('tab', { name: 'Strucc hírfolyamok' })).toHaveAttribute('aria-selected', 'true');

  // The defaults the user already has are marked; the search narrows the list.
  await expect(market.getByRole('button', { name: '„Legújabb” eltávolítása' })).toBeVisible();
  const search = market.getByRole('searchbox', { name: 'Keresés a hírfolyamok között' });
  await search.fill('kepek');
  await expect(market.locator('.market-name')).toHaveText(['Képek']);
  await search.fill('nincs ilyen hírfolyam');
  await expect(market.getByText('Nincs a keresésnek megfelelő hírfolyam.')).toBeVisible();
  await search.fill('Képek');

  // Preview: the notes the server has for the feed.
  await market.getByRole('button', { name: 'Előnézet' }).click();
  const preview = market.getByRole('region', { name: '„Képek” előnézete' });
  await expect(preview.locator('article[data-note-id]').first()).toBeVisible();
  await expect(preview.locator(`article[data-note-id="${ids[0]}"]`)).toBeVisible();
  await market.getByRole('button', { name: 'Előnézet elrejtése' }).click();
  await expect(preview).toBeHidden();

  // Add: toast, the button turns into removal, the switcher and the settings page have it.
  await market.getByRole('button', { name: '„Képek” hozzáadása' }).click();
  await expect(toast(page, 'Hírfolyam hozzáadva a kezdőlaphoz')).toBeVisible();
  await expect(market.getByRole('button', { name: '„Képek” eltávolítása' })).toBeVisible();

  // The DVM tab: the demo network's announced DVM feeds (notes ones here), previewed with what the server runs for them.
  await search.fill('');
  await market.getByRole('tab', { name: 'DVM hírfolyamok' }).click();
  const dvms = (await cacheRequest('get_featured_dvm_feeds', { kind: 'notes', user_pubkey: pubkey })).filter((o) => o.kind === 31990);
  expect(dvms.length).toBeGreaterThanOrEqual(2);
  await expect(market.locator('.market-item')).toHaveCount(dvms.length);
  const cafe = JSON.parse(JSON.parse(dvms.find((o) => String(o.content).includes('Kávéházi'))!.content as string).primal_spec as string) as object;
  const cafeIds = await firstNoteIds(JSON.stringify(cafe), pubkey);
  expect(cafeIds.length).toBeGreaterThan(0);
  const cafeItem = market.locator('.market-item', { hasText: 'Kávéházi hírfolyam' });
  await cafeItem.getByRole('button', { name: 'Előnézet' }).click();
  const cafePreview = market.getByRole('region', { name: '„Kávéházi hírfolyam” előnézete' });
  await expect(cafePreview.locator(`article[data-note-id="${cafeIds[0]}"]`)).toBeVisible();
  await expect(cafePreview.locator('article[data-note-id]').first()).toContainText(/kávé/i);
  await cafeItem.getByRole('button', { name: '„Kávéházi hírfolyam” hozzáadása' }).click();
  await expect(toast(page, 'Hírfolyam hozzáadva a kezdőlaphoz')).toBeVisible();

  await market.getByRole('button', { name: 'Kész' }).click();
  await expect(market).toBeHidden();
  await expect.poll(() => switcherNames(page)).toContain('Képek');
  await expect.poll(() => switcherNames(page)).toContain('Kávéházi hírfolyam');

  const settings = await context.newPage();
  await openApp(settings, '/settings/home_feeds');
  await expect(settings.locator('.feedset-row-name', { hasText: /^Képek$/ })).toBeVisible();

  // Remove from the marketplace: toast, gone from the switcher and the settings page.
  await page.getByRole('button', { name: 'Hírfolyam hozzáadása' }).click();
  await market.getByRole('searchbox', { name: 'Keresés a hírfolyamok között' }).fill('Képek');
  await market.getByRole('button', { name: '„Képek” eltávolítása' }).click();
  await expect(toast(page, 'Hírfolyam eltávolítva a kezdőlapról')).toBeVisible();
  await expect(market.getByRole('button', { name: '„Képek” hozzáadása' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(market).toBeHidden();
  await expect.poll(() => switcherNames(page)).not.toContain('Képek');
  await expect(settings.locator('.feedset-row-name', { hasText: /^Képek$/ })).toHaveCount(0);

  // Explore's catalogue cards add to home as well.
  await openApp(settings, '/explore');
  const card = settings.locator('.catalogue-item', { has: settings.locator('.catalogue-name', { hasText: /^Videók$/ }) });
  await card.getByRole('button', { name: 'Hozzáadás a kezdőlaphoz' }).click();
  await expect(toast(settings, 'Hírfolyam hozzáadva a kezdőlaphoz')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Eltávolítás a kezdőlapról' })).toHaveAccessibleDescription('Videók');
  await expect.poll(() => switcherNames(page)).toContain('Videók');

  // The reads marketplace offers article feeds for the reads list, and home as the other list.
  await openApp(settings, '/reads');
  await settings.getByRole('group', { name: 'Hírfolyam kiválasztása' }).getByRole('button', { name: 'Hírfolyam hozzáadása' }).click();
  const readsMarket = settings.getByRole('dialog', { name: 'Hírfolyamok az olvasnivalóidhoz' });
  await readsMarket.getByRole('searchbox', { name: 'Keresés a hírfolyamok között' }).fill('Hosszú cikkek');
  await readsMarket.getByRole('button', { name: '„Hosszú cikkek” hozzáadása' }).click();
  await expect(toast(settings, 'Hírfolyam hozzáadva az olvasnivalókhoz')).toBeVisible();
  await readsMarket.getByRole('button', { name: 'Kész' }).click();
  await expect.poll(() => switcherNames(settings)).toContain('Hosszú cikkek');
  await settings.getByRole('button', { name: 'Hírfolyam hozzáadása' }).click();
  await readsMarket.getByRole('searchbox', { name: 'Keresés a hírfolyamok között' }).fill('Hosszú cikkek');
  await readsMarket.getByRole('button', { name: '„Hosszú cikkek” eltávolítása' }).click();
  await expect(toast(settings, 'Hírfolyam eltávolítva az olvasnivalók közül')).toBeVisible();
  await readsMarket.getByRole('button', { name: 'Kész' }).click();
  await expect.poll(() => switcherNames(settings)).not.toContain('Hosszú cikkek');
});
