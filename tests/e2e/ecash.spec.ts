import { expect, test, type Page } from '@playwright/test';
import { getDecodedToken } from '@cashu/cashu-ts';
import { finalizeEvent, generateSecretKey } from 'nostr-tools/pure';
import { neventEncode, nsecEncode } from 'nostr-tools/nip19';
import { demoUser } from '../../server/demo/accounts.ts';
import { demoWalletActive, nsecSignIn } from './support/demo-wallet.ts';
import { baseUrl, openApp, publishAccepted, queryRelay } from './support/session.ts';

// The ecash wallet with the public demo key against the e2e server's demo mint: the demo network
// posts #ecash notes with real tokens of it (user 4's is unspent, user 5's already redeemed).

async function ecashNote(user: number): Promise<{ id: string; path: string }> {
  const [note] = await queryRelay({ kinds: [1], authors: [demoUser(user).pubkey], '#t': ['ecash'], limit: 1 });
  expect(note?.content).toMatch(/cashuA/);
  return { id: note.id, path: `/e/${neventEncode({ id: note.id, author: note.pubkey })}` };
}

const total = (page: Page) => page.getByTestId('ecash-total');

/**
 * Puts `sats` of ecash of the demo mint into a fresh context's wallet on /settings/ecash, paid by
 * the demo NIP-47 wallet through the page (no navigation in between: the wallet list of a new
 * context is read from the server again after a reload).
 */
async function topUp(page: Page, sats: number): Promise<void> {
  await demoWalletActive(page);
  await page.getByRole('button', { name: 'A demó pénzverde hozzáadása' }).click();
  await expect(page.getByTestId('ecash-mint')).toHaveCount(1);
  const section = page.locator('section[aria-labelledby="ecash-lightning"]');
  await section.getByLabel('Összeg (sat)').fill(String(sats));
  await section.getByRole('button', { name: 'Fizetés az aktív tárcával' }).click();
  await expect(page.getByText(`${sats} sat ecash került a tárcádba.`)).toBeVisible({ timeout: 30_000 });
}

test('a token in a note is redeemed after the confirm; an already redeemed one says so', async ({ browser }) => {
  test.setTimeout(120_000);
  const fresh = await ecashNote(4);
  const { context, page } = await nsecSignIn(browser, fresh.path);
  const card = page.locator(`article[data-note-id="${fresh.id}"] .note-card-cashu`).first();
  await expect(card).toContainText('64 sat');
  await expect(card).toContainText('Ajándék');
  await card.getByRole('button', { name: 'Beváltás' }).click();
  const dialog = page.getByRole('dialog', { name: 'Beváltod az ecash-tokent?' });
  await expect(dialog).toContainText('64 sat');
  await dialog.getByRole('button', { name: 'Beváltás' }).click();
  await expect(card.getByRole('status')).toHaveText('Beváltva: 64 sat került a tárcádba.');

  const spent = await ecashNote(5);
  await page.goto(`${baseUrl()}${spent.path}`);
  const spentCard = page.locator(`article[data-note-id="${spent.id}"] .note-card-cashu`).first();
  await spentCard.getByRole('button', { name: 'Beváltás' }).click();
  await page.getByRole('dialog', { name: 'Beváltod az ecash-tokent?' }).getByRole('button', { name: 'Beváltás' }).click();
  await expect(spentCard.getByRole('status')).toHaveText('Ezt a tokent már beváltották.');

  await page.goto(`${baseUrl()}/settings/ecash`);
  await expect(total(page)).toContainText(/Összesen: \d+ sat/);
  await expect(page.getByTestId('ecash-history').getByText('Beváltva: 64 sat')).toBeVisible();
  await context.close();
});

test('a token sent from one account is redeemed in another', async ({ browser }) => {
  test.setTimeout(150_000);
  const { context, page } = await nsecSignIn(browser, '/settings/ecash');
  await topUp(page, 100);
  const send = page.locator('section[aria-labelledby="ecash-send"]');
  await send.getByLabel('Összeg (sat)').fill('30');
  await send.getByLabel('Megjegyzés (nem kötelező)').fill('Neked küldöm');
  // Denominations that are not powers of two are refused before anything leaves the wallet.
  await send.getByLabel('Címletek (nem kötelező)').fill('6x2');
  await send.getByRole('button', { name: 'Token készítése' }).click();
  await expect(page.getByText('A címletek csak kettő hatványai lehetnek (1, 2, 4, 8, 16…).')).toBeVisible();
  await expect(total(page)).toContainText('Összesen: 100 sat');
  await send.getByLabel('Címletek (nem kötelező)').fill('8x2');
  await send.getByRole('button', { name: 'Token készítése' }).click();
  const token = (await page.getByTestId('ecash-sent-token').locator('code').textContent()) ?? '';
  expect(token).toMatch(/^cashuA/);
  // Two 8s first, then the remaining 14 by its bits.
  const amounts = getDecodedToken(token).proofs.map((p) => p.amount).sort((x, y) => x - y);
  expect(amounts).toEqual([2, 4, 8, 8, 8]);
  await expect(page.getByTestId('ecash-sent-token').getByRole('img', { name: 'Az ecash-token QR-kódja' })).toBeVisible();

  const other = await nsecSignIn(browser, '/settings/ecash', nsecEncode(generateSecretKey()));
  await expect(total(other.page)).toContainText('Összesen: 0 sat');
  await other.page.getByLabel('Ecash-token (cashuA… vagy cashuB…)').fill(token);
  await other.page.locator('section[aria-labelledby="ecash-receive"]').getByRole('button', { name: 'Beváltás' }).click();
  await expect(total(other.page)).toContainText('Összesen: 30 sat');

  // The sender sees the token redeemed once it asks the mint.
  await page.getByRole('button', { name: 'Állapot ellenőrzése a pénzverdénél' }).click();
  await expect(page.getByText('Ellenőrizve: 1 tokent beváltottak.')).toBeVisible();
  await other.context.close();
  await context.close();
});

test('an invoice in a note is paid with ecash: fee quote in the confirm, change back', async ({ browser }) => {
  test.setTimeout(150_000);
  const info = (await (await fetch(`${baseUrl()}/api/info`)).json()) as { nip05Domain: string };
  const sk = generateSecretKey();
  const name = `ec${Math.random().toString(36).slice(2, 8)}`;
  const now = Math.floor(Date.now() / 1000);
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now - 5, tags: [], content: JSON.stringify({ name, lud16: `${name}@${info.nip05Domain}` }) }, sk));
  const meta = (await (await fetch(`${baseUrl()}/.well-known/lnurlp/${name}`)).json()) as { callback: string };
  const { pr } = (await (await fetch(`${meta.callback}?amount=21000`)).json()) as { pr: string };
  const note = finalizeEvent({ kind: 1, created_at: now, tags: [], content: `Fizesd ki ecash-sel: ${pr}` }, sk);
  await publishAccepted(note);

  const { context, page } = await nsecSignIn(browser, '/settings/ecash');
  await topUp(page, 50);
  await openApp(page, `/e/${neventEncode({ id: note.id, author: note.pubkey })}`);
  // Both payers offered: the lightning wallet and the ecash wallet.
  await demoWalletActive(page);
  const card = page.locator(`article[data-note-id="${note.id}"] .note-card-invoice`).first();
  await card.getByLabel('Fizetés innen').selectOption('ecash');
  await card.getByRole('button', { name: 'Fizetés' }).click();
  const dialog = page.getByRole('dialog', { name: 'Kifizeted a számlát ecash-sel?' });
  await expect(dialog).toContainText('21 sat a számla, legfeljebb 2 sat díjtartalékkal');
  await dialog.getByRole('button', { name: 'Fizetés' }).click();
  await expect(card.getByRole('status')).toHaveText('Kifizetve ✓');
  await expect(page.getByText('Kifizetve ecash-sel; visszajárt 2 sat.')).toBeVisible();
  await context.close();
});

test('the seed phrase restores the ecash in a fresh profile', async ({ browser }) => {
  test.setTimeout(150_000);
  const { context, page } = await nsecSignIn(browser, '/settings/ecash');
  await topUp(page, 40);
  await page.getByRole('button', { name: 'Visszaállító kifejezés megjelenítése' }).click();
  const mnemonic = ((await page.getByTestId('ecash-seed').textContent()) ?? '').trim();
  expect(mnemonic.split(' ')).toHaveLength(12);
  const mint = (await page.getByTestId('ecash-mint').getAttribute('data-url')) ?? '';
  await context.close();

  // Another person's fresh profile: nothing in its IndexedDB, only the phrase.
  const other = await nsecSignIn(browser, '/settings/ecash', nsecEncode(generateSecretKey()));
  await expect(total(other.page)).toContainText('Összesen: 0 sat');
  const seed = other.page.locator('section[aria-labelledby="ecash-seed"]');
  await seed.getByRole('button', { name: 'Visszaállítás' }).click();
  await expect(other.page.getByText('A visszaállításhoz add meg a visszaállító kifejezést.')).toBeVisible();
  await seed.getByLabel('Visszaállító kifejezés', { exact: true }).fill(mnemonic);
  await seed.getByLabel('Pénzverde címe a visszaállításhoz').fill(mint);
  await seed.getByRole('button', { name: 'Visszaállítás' }).click();
  await expect(other.page.getByText('Visszaállítva: 40 sat.')).toBeVisible({ timeout: 60_000 });
  await expect(total(other.page)).toContainText('Összesen: 40 sat');
  await other.context.close();
});
