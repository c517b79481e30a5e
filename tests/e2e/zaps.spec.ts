import { expect, test, type Page } from '@playwright/test';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { neventEncode } from 'nostr-tools/nip19';
import { bytesToHex } from '@noble/hashes/utils.js';
import { enableDevMode } from './support/nip07-stub.ts';
import { baseUrl, openApp, publishAccepted, relayUrl, type Driven } from './support/session.ts';
import { demoSignIn, demoWalletActive, serverShows } from './support/zaps.ts';

// Wallet connections and zaps, signed in with the public demo key: the e2e server runs the demo
// lightning network, so the demo wallet really holds sats and pays over NIP-47 on our relay.

const rows = (page: Page) => page.getByTestId('nwc-connection');
const row = (page: Page, name: string) => page.locator(`[data-testid="nwc-connection"][data-name="${name}"]`);

test('wallet connections: demo wallet with its balance, a bad URI refused, rename, activate and remove', async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page } = await demoSignIn(browser, '/settings/nwc');
  await expect(page.getByRole('button', { name: 'Demó tárca csatlakoztatása' })).toBeVisible();

  // Earlier runs on the same server may have left connections: start from an empty list.
  await page.evaluate(async () => {
    const api = window.strucc!.api as unknown as Driven;
    const snap = await new Promise<{ connections: { id: string }[] }>((resolve) => {
      void api.watchWallet(window.strucc!.tabId, window.strucc!.proxy((s: { state: string; connections: { id: string }[] }) => s.state === 'ready' && resolve(s)));
    });
    for (const c of snap.connections) await api.walletAction({ type: 'remove', id: c.id });
  });
  await expect(page.getByText('Még nincs tárcakapcsolatod.')).toBeVisible();

  await page.getByRole('button', { name: 'Demó tárca csatlakoztatása' }).click();
  await expect(row(page, 'Demó tárca')).toBeVisible();
  await expect(row(page, 'Demó tárca').locator('.nwc-active-badge')).toBeVisible();
  await row(page, 'Demó tárca').getByRole('button', { name: 'Egyenleg és tranzakciók' }).click();
  await expect(row(page, 'Demó tárca').getByTestId('nwc-balance')).toHaveText(/^Egyenleg: [\d\s  ]+ sat$/);

  // A bad connection string gets a Hungarian message and adds nothing.
  await page.getByLabel('Kapcsolati kód (nostr+walletconnect://…)').fill('nostr+walletconnect://nem-jo?secret=x');
  await page.getByRole('button', { name: 'Hozzáadás' }).click();
  await expect(page.getByRole('alert')).toHaveText(/nem érvényes tárcakapcsolati kód/);
  await expect(rows(page)).toHaveCount(1);

  // A second, well-formed connection (a wallet that is not there: only the list is tested).
  const other = `nostr+walletconnect://${getPublicKey(generateSecretKey())}?relay=${encodeURIComponent(relayUrl())}&secret=${bytesToHex(generateSecretKey())}`;
  await page.getByLabel('Kapcsolati kód (nostr+walletconnect://…)').fill(other);
  await page.getByLabel('Név', { exact: true }).fill('Második');
  await page.getByRole('button', { name: 'Hozzáadás' }).click();
  await expect(row(page, 'Második')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await row(page, 'Második').getByRole('button', { name: 'Legyen ez az aktív' }).click();
  await expect(row(page, 'Második').locator('.nwc-active-badge')).toBeVisible();
  await expect(row(page, 'Demó tárca').locator('.nwc-active-badge')).toHaveCount(0);

  // Every tab of the worker sees the same list and the same active wallet, also after a reload.
  const second = await context.newPage();
  await openApp(second, '/settings/nwc');
  await expect(row(second, 'Második').locator('.nwc-active-badge')).toBeVisible();

  await row(page, 'Második').getByRole('button', { name: 'Átnevezés' }).click();
  await row(page, 'Második').getByLabel('Név').fill('Tartalék');
  await page.getByRole('button', { name: 'Mentés' }).click();
  await expect(row(second, 'Tartalék')).toBeVisible();

  await row(page, 'Tartalék').getByRole('button', { name: 'Eltávolítás' }).click();
  const dialog = page.getByRole('dialog', { name: 'Eltávolítod a tárcakapcsolatot?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Eltávolítás' }).click();
  await expect(row(page, 'Tartalék')).toHaveCount(0);
  // The remaining demo wallet pays from now on.
  await expect(row(second, 'Demó tárca').locator('.nwc-active-badge')).toBeVisible();

  // With the first tab gone the reload starts a new shared worker, which reads the saved list back.
  await page.close();
  await second.reload();
  await expect(row(second, 'Demó tárca').locator('.nwc-active-badge')).toBeVisible();
  await expect(rows(second)).toHaveCount(1);
  await context.close();
});

/** A new person with a lightning address on the demo domain (served by our LNURL-pay) and one note. */
async function zappableNote(text: string, withAddress = true): Promise<{ id: string; path: string }> {
  const info = (await (await fetch(`${baseUrl()}/api/info`)).json()) as { nip05Domain: string };
  const sk = generateSecretKey();
  const now = Math.floor(Date.now() / 1000);
  const name = `zap${Math.random().toString(36).slice(2, 8)}`;
  const profile = withAddress ? { name, lud16: `${name}@${info.nip05Domain}` } : { name };
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now - 5, tags: [], content: JSON.stringify(profile) }, sk));
  const note = finalizeEvent({ kind: 1, created_at: now, tags: [], content: text }, sk);
  await publishAccepted(note);
  return { id: note.id, path: `/e/${neventEncode({ id: note.id, author: note.pubkey })}` };
}

const zapStat = (page: Page, id: string) => page.locator(`article[data-note-id="${id}"] .note-stat-zaps`).first();

test('quick zap and custom zap on a note: the count rises at once, stays after the receipt, and another tab sees it', async ({ browser }) => {
  test.setTimeout(120_000);
  const target = await zappableNote('Zapolj meg, kérlek!');
  const { context, page } = await demoSignIn(browser, target.path);
  await demoWalletActive(page);
  const card = page.locator(`article[data-note-id="${target.id}"]`).first();
  await expect(card).toBeVisible();

  // The default zap: 42 sats with 'Haladjunk együtt! 🫡'.
  await card.getByRole('button', { name: 'Zap küldése', exact: true }).click();
  await expect(zapStat(page, target.id)).toHaveAttribute('data-count', '42');
  await expect(card.locator('.note-bar-zaps')).toHaveClass(/is-active/);

  // Another tab reads the count from the server, which counted the receipt.
  const other = await context.newPage();
  await serverShows(other, target.path, () => expect(zapStat(other, target.id)).toHaveAttribute('data-count', '42', { timeout: 5_000 }));

  // Right-click opens the custom zap: a preset, and the wallet that pays is named.
  await card.getByRole('button', { name: 'Zap küldése', exact: true }).click({ button: 'right' });
  const dialog = page.getByRole('dialog', { name: 'Egyedi zap' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Fizet: Demó tárca')).toBeVisible();
  await dialog.getByRole('button', { name: /^420$/ }).click();
  await dialog.getByRole('button', { name: /^Zap küldése: 420 sat$/ }).click();
  await expect(zapStat(page, target.id)).toHaveAttribute('data-count', '462');
  await serverShows(other, target.path, () => expect(zapStat(other, target.id)).toHaveAttribute('data-count', '462', { timeout: 5_000 }));
  await context.close();
});

test('an author without a lightning address cannot be zapped: a Hungarian toast and no count', async ({ browser }) => {
  const target = await zappableNote('Nekem nincs Lightning-címem.', false);
  const { context, page } = await demoSignIn(browser, target.path);
  const card = page.locator(`article[data-note-id="${target.id}"]`).first();
  await card.getByRole('button', { name: 'Zap küldése', exact: true }).click();
  await expect(page.getByText('A szerzőnek nincs Lightning-címe, ezért nem zappolható')).toBeVisible();
  await expect(zapStat(page, target.id)).toHaveAttribute('data-count', '0');
  await context.close();
});

test('an invoice in a note: Pay asks first, the active wallet pays, the card says paid; a guest gets the QR code', async ({ browser }) => {
  test.setTimeout(90_000);
  const info = (await (await fetch(`${baseUrl()}/api/info`)).json()) as { nip05Domain: string };
  const sk = generateSecretKey();
  const name = `inv${Math.random().toString(36).slice(2, 8)}`;
  const now = Math.floor(Date.now() / 1000);
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now - 5, tags: [], content: JSON.stringify({ name, lud16: `${name}@${info.nip05Domain}` }) }, sk));
  const meta = (await (await fetch(`${baseUrl()}/.well-known/lnurlp/${name}`)).json()) as { callback: string };
  const { pr } = (await (await fetch(`${meta.callback}?amount=21000`)).json()) as { pr: string };
  const note = finalizeEvent({ kind: 1, created_at: now, tags: [], content: `Fizesd ki ezt: ${pr}` }, sk);
  await publishAccepted(note);
  const path = `/e/${neventEncode({ id: note.id, author: note.pubkey })}`;

  const guest = await browser.newContext();
  await enableDevMode(guest);
  const guestPage = await guest.newPage();
  await openApp(guestPage, path);
  const guestCard = guestPage.locator(`article[data-note-id="${note.id}"] .note-card-invoice`).first();
  await expect(guestCard.locator('.note-card-qr')).toBeVisible();
  await expect(guestCard.getByRole('button', { name: 'Fizetés' })).toHaveCount(0);
  await guest.close();

  const { context, page } = await demoSignIn(browser, path);
  await demoWalletActive(page);
  const card = page.locator(`article[data-note-id="${note.id}"] .note-card-invoice`).first();
  await card.getByRole('button', { name: 'Fizetés' }).click();
  const dialog = page.getByRole('dialog', { name: 'Kifizeted a számlát?' });
  await expect(dialog).toContainText('21 sat');
  await dialog.getByRole('button', { name: 'Fizetés' }).click();
  await expect(card.getByRole('status')).toHaveText('Kifizetve ✓');
  await context.close();
});
