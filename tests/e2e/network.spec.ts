/** Network settings and devtools: relays with their state, the kind-10002 list, the proxy, the log. */
import { expect, test, type Page } from '@playwright/test';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { baseUrl, latestEvent, relayUrl, signIn } from './support/session.ts';

const relayRow = (page: Page, url: string) => page.locator(`.net-relay[data-url="${url}"]`);

test('relays: invalid URL, remove with confirm, add back, write off saved as kind 10002', async ({ context }) => {
  const sk = generateSecretKey();
  const me = getPublicKey(sk);
  const { page } = await signIn(context, sk, '/settings/network');
  const url = relayUrl();

  await expect(relayRow(page, url)).toContainText('Csatlakozva');
  await expect(relayRow(page, url).locator('.net-dot')).toHaveAttribute('data-state', 'connected');

  const field = page.getByLabel('Relé címe');
  await field.fill('http://x');
  await page.getByRole('button', { name: 'Relé hozzáadása' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Érvénytelen URL' })).toHaveText('Érvénytelen URL');
  await expect(field).toHaveValue('http://x');

  await relayRow(page, url).getByRole('button', { name: /^Eltávolítás/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Relé eltávolítása' });
  await expect(dialog).toContainText('A relé eltávolításával megszakad a kapcsolat');
  await dialog.locator('[data-confirm="yes"]').click();
  await expect(relayRow(page, url)).toHaveCount(0);
  await expect(page.getByText('Nem kapcsolódsz egyetlen reléhez sem.')).toBeVisible();

  await field.fill(url);
  await page.getByRole('button', { name: 'Relé hozzáadása' }).click();
  await expect(relayRow(page, url)).toContainText('Csatlakozva');
  await expect(field).toHaveValue('');
  const since = Math.floor(Date.now() / 1000) - 5;
  // The removal's empty list may land first; the list with the relay is the newer one.
  await expect
    .poll(async () => (await latestEvent(me, 10002, since)).tags.some((t) => t[0] === 'r' && t[1] === url), { timeout: 20_000 })
    .toBe(true);

  const write = relayRow(page, url).getByRole('switch', { name: 'Írás' });
  await write.click();
  await expect(write).toHaveAttribute('aria-checked', 'false');
  await expect
    .poll(async () => (await latestEvent(me, 10002, since)).tags.some((t) => t[0] === 'r' && t[1] === url && t[2] === 'read'), { timeout: 20_000 })
    .toBe(true);
  // The read-only relay cannot lose its last flag.
  await expect(relayRow(page, url).getByRole('switch', { name: 'Olvasás' })).toBeDisabled();
});

test('proxy option survives a reload; devtools shows the machines and the log', async ({ context }) => {
  const sk = generateSecretKey();
  const { page } = await signIn(context, sk, '/settings/network');
  await expect(page.getByText('ws://', { exact: false }).first()).toBeVisible();
  await expect(page.getByTestId('cache-state')).toHaveText('Csatlakozva');

  const cacheField = page.getByLabel('Gyorsítótár-szerver címe', { exact: true });
  await cacheField.fill('http://cache');
  await page.getByRole('button', { name: 'Csatlakozás', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Érvénytelen URL' })).toBeVisible();
  await expect(cacheField).toHaveValue('http://cache');

  const proxy = page.getByRole('switch', { name: 'Kapcsolódás a relékhez a gyorsítótár-szerveren keresztül' });
  await expect(proxy).toHaveAttribute('aria-checked', 'false');
  await proxy.click();
  await expect(proxy).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('A relékhez a gyorsítótár-szerveren keresztül kapcsolódunk')).toBeVisible();
  await expect(relayRow(page, relayUrl())).toContainText('Szünetel');

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Kapcsolódás a relékhez a gyorsítótár-szerveren keresztül' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('A relékhez a gyorsítótár-szerveren keresztül kapcsolódunk')).toBeVisible();

  await page.goto(`${baseUrl()}/settings/devtools`);
  await expect(page.getByRole('switch', { name: 'Fejlesztői mód' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('dev-json-account')).toContainText('"state": "signedIn"');
  await expect(page.getByTestId('dev-json-socket')).toContainText('"connected": true');
  await expect(page.getByTestId('dev-json-activity')).toContainText('"proxy": true');
  await expect(page.getByTestId('dev-log').locator('li').first()).toBeVisible();
  await expect(page.getByTestId('dev-log')).toContainText('socket');
  // The lines read in Hungarian; only addresses and relays' own messages stay as they are.
  await expect(page.getByTestId('dev-log')).toContainText('Gyorsítótár-kapcsolat: kapcsolódva');
  await expect(page.getByTestId('dev-log')).toContainText(/Relé hozzáadva: ws:\/\/127\.0\.0\.1:\d+\/relay/);
  await expect(page.getByTestId('dev-log')).not.toContainText(/\b(added|connecting →|connected →)\b/);

  await page.getByRole('switch', { name: 'Fejlesztői mód' }).click();
  await expect(page.getByText('A változás az oldal újratöltése után lép életbe.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Újratöltés' })).toBeVisible();
});

test('NIP-17 inbox relays: published on login, edited and published again as kind 10050', async ({ context }) => {
  const sk = generateSecretKey();
  const me = getPublicKey(sk);
  const { page } = await signIn(context, sk, '/settings/network');
  const own = relayUrl();
  // A new account gets our relay as its inbox (nothing was published before).
  expect((await latestEvent(me, 10050)).tags).toEqual([['relay', own]]);
  // The page was open before that list went out: opened again, it shows it.
  await page.reload();
  const section = page.getByRole('region', { name: 'Üzenet-postafiók relék (NIP-17)' });
  await expect(section.locator(`.mod-row[data-url="${own}"]`)).toBeVisible();
  const publish = section.getByRole('button', { name: 'Postafiók-relék közzététele' });
  await expect(publish).toBeDisabled();

  const field = section.getByLabel('Új postafiók-relé');
  await field.fill('nem relé');
  await section.getByRole('button', { name: 'Hozzáadás' }).click();
  await expect(section.getByRole('alert')).toHaveText('Érvénytelen relécím: wss:// kezdetű cím kell.');
  await field.fill('wss://postafiok.example.com');
  await section.getByRole('button', { name: 'Hozzáadás' }).click();
  await expect(section.locator('.mod-row[data-url="wss://postafiok.example.com/"], .mod-row[data-url="wss://postafiok.example.com"]')).toHaveCount(1);
  await section.getByRole('button', { name: `Eltávolítás: ${own}` }).click();
  await expect(section.locator(`.mod-row[data-url="${own}"]`)).toHaveCount(0);
  await publish.click();
  await expect(page.getByText('Postafiók-relék közzétéve')).toBeVisible();
  await expect
    .poll(async () => (await latestEvent(me, 10050)).tags.map((t) => t[1].replace(/\/$/, '')), { timeout: 20_000 })
    .toEqual(['wss://postafiok.example.com']);
  // After a reload the published list is what the section shows.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Üzenet-postafiók relék (NIP-17)' }).locator('.mod-row')).toHaveCount(1);
});
