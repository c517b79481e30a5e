import { expect, test, type Page } from '@playwright/test';
import { finalizeEvent } from 'nostr-tools/pure';
import { naddrEncode, neventEncode, npubEncode } from 'nostr-tools/nip19';
import { baseUrl, openApp, publishAccepted, signIn, type Driven } from './support/session.ts';
import { demoSignIn, demoWalletActive, installWeblnStub, newPerson, serverShows, testWallet, type Person } from './support/zaps.ts';

// Zaps on articles and profiles, the custom zap's ways in and its details, WebLN as the payer,
// zap splits and a failing zap, signed in with the public demo key on the e2e server's demo
// lightning network (real LNURL-pay, NIP-47 payments and receipts).

const now = () => Math.floor(Date.now() / 1000);

async function noteBy(person: Person, text: string, tags: string[][] = []): Promise<{ id: string; path: string }> {
  const note = finalizeEvent({ kind: 1, created_at: now(), tags, content: text }, person.sk);
  await publishAccepted(note);
  return { id: note.id, path: `/e/${neventEncode({ id: note.id, author: note.pubkey })}` };
}

const noteZaps = (page: Page, id: string) => page.locator(`article[data-note-id="${id}"] .note-stat-zaps`).first();
const articleZaps = (page: Page) => page.locator('.article-stats .note-stat-zaps').first();
const profileSats = (page: Page) => page.locator('[data-stat="sats"] .profile-stat-value');
const zapButton = (scope: Page | ReturnType<Page['locator']>) => scope.getByRole('button', { name: 'Zap küldése', exact: true }).first();

test('zap an article and a profile: counts at once and in a second tab, and the author is notified', async ({ browser }) => {
  test.setTimeout(150_000);
  const author = await newPerson('cikk');
  const d = `zap-cikk-${Date.now()}`;
  const article = finalizeEvent(
    { kind: 30023, created_at: now(), tags: [['d', d], ['title', 'Zappolható cikk'], ['published_at', String(now())]], content: 'Ez egy cikk, amelyet zappolni lehet.' },
    author.sk,
  );
  await publishAccepted(article);
  const articlePath = `/a/${naddrEncode({ kind: 30023, pubkey: author.pubkey, identifier: d })}`;

  const { context, page } = await demoSignIn(browser, articlePath);
  await demoWalletActive(page);
  await expect(page.getByRole('heading', { name: 'Zappolható cikk' })).toBeVisible();
  await zapButton(page.locator('.article-stats').first()).click();
  await expect(articleZaps(page)).toHaveAttribute('data-count', '42');
  // The bolt flew off the button (animations are on by default).
  await expect(page.locator('.article-stats').first().getByTestId('zap-burst')).toHaveCount(1);

  const other = await context.newPage();
  await serverShows(other, articlePath, () => expect(articleZaps(other)).toHaveAttribute('data-count', '42', { timeout: 5_000 }));

  // The profile's zap (a zap request with only the p tag) adds to the profile's sats.
  const profilePath = `/p/${npubEncode(author.pubkey)}`;
  await serverShows(page, profilePath, () => expect(profileSats(page)).toHaveText('42', { timeout: 5_000 }));
  await zapButton(page.locator('.profile-actions')).click();
  await expect(profileSats(page)).toHaveText('84');
  await serverShows(other, profilePath, () => expect(profileSats(other)).toHaveText('84', { timeout: 5_000 }));

  // The author, signed in elsewhere, sees the article zap among their notifications.
  const authorContext = await browser.newContext();
  const { page: authorPage } = await signIn(authorContext, author.sk, '/notifications');
  await expect(authorPage.getByText(/42 satot zappolt a bejegyzésedre/).first()).toBeVisible({ timeout: 30_000 });
  await authorContext.close();
  await context.close();
});

test('custom zap: long press and the caret open it; comment counter, the value in forints, the paying wallet', async ({ browser }) => {
  test.setTimeout(120_000);
  const author = await newPerson('egyedi');
  const target = await noteBy(author, 'Egyedi zapot kérek.');
  const { context, page } = await demoSignIn(browser, target.path);
  await demoWalletActive(page);
  const card = page.locator(`article[data-note-id="${target.id}"]`).first();
  const dialog = page.getByRole('dialog', { name: 'Egyedi zap' });

  // A long press: the dialog opens while the button is still held, and no quick zap goes out.
  await zapButton(card).hover();
  await page.mouse.down();
  await expect(dialog).toBeVisible();
  await page.mouse.up();
  await expect(dialog.getByText(`Címzett: ${author.name}`)).toBeVisible();
  await expect(dialog.getByText('Fizet: Demó tárca')).toBeVisible();
  await expect(dialog.getByTestId('zap-fiat')).toHaveText(/^≈ [\d\s ,]+Ft \(demó árfolyam\)$/);
  // The demo service takes 280 characters of comment (the default message's emoji is one).
  await expect(dialog.getByTestId('zap-counter')).toHaveText('19/280 karakter');
  await dialog.getByLabel('Üzenet').fill('x'.repeat(300));
  await expect(dialog.getByLabel('Üzenet')).toHaveValue('x'.repeat(280));
  await expect(dialog.getByTestId('zap-counter')).toHaveText('280/280 karakter');
  await dialog.getByRole('button', { name: 'Mégse' }).click();
  await expect(noteZaps(page, target.id)).toHaveAttribute('data-count', '0');

  // The caret: a free amount with its own message.
  await card.getByRole('button', { name: 'Egyedi zap' }).click();
  await dialog.getByRole('textbox', { name: 'Összeg (sat)' }).fill('100');
  await expect(dialog.getByTestId('zap-fiat')).toContainText('Ft');
  await dialog.getByLabel('Üzenet').fill('Száz sat a caretről');
  await dialog.getByRole('button', { name: 'Zap küldése: 100 sat' }).click();
  await expect(noteZaps(page, target.id)).toHaveAttribute('data-count', '100');
  // The zap runs in the shared worker; this tab is only left once it has handed it over and heard back.
  await expect(zapButton(card)).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await serverShows(page, target.path, () => expect(noteZaps(page, target.id)).toHaveAttribute('data-count', '100', { timeout: 5_000 }));
  await context.close();
});

test('WebLN in the page as the payer: it pays a zap the worker prepared and an invoice card', async ({ browser }) => {
  test.setTimeout(150_000);
  const author = await newPerson('webln');
  const target = await noteBy(author, 'WebLN-nel zappolj!');
  const wallet = await testWallet();

  const { context: ctx, page } = await demoSignIn(browser, '/settings/nwc');
  await installWeblnStub(ctx, wallet);
  await page.reload();
  const row = page.getByTestId('nwc-webln');
  await expect(row).toContainText('Böngészőtárca (WebLN)');
  await row.getByRole('button', { name: 'Legyen ez az aktív' }).click();
  await expect(row.locator('.nwc-active-badge')).toBeVisible();

  await openApp(page, target.path);
  const card = page.locator(`article[data-note-id="${target.id}"]`).first();
  await card.getByRole('button', { name: 'Egyedi zap' }).click();
  const dialog = page.getByRole('dialog', { name: 'Egyedi zap' });
  await expect(dialog.getByText('Fizet: Böngészőtárca (WebLN)')).toBeVisible();
  await dialog.getByRole('button', { name: /^21$/ }).click();
  await dialog.getByRole('button', { name: 'Zap küldése: 21 sat' }).click();
  await expect(noteZaps(page, target.id)).toHaveAttribute('data-count', '21');
  // The count rises before the worker has the invoice; the tab's WebLN is asked once it has.
  const asked = () => page.evaluate(() => (window as unknown as { __weblnInvoices: string[] }).__weblnInvoices);
  await expect.poll(asked, { timeout: 30_000 }).toHaveLength(1);
  expect((await asked())[0]).toMatch(/^lnbc210n1/);
  // Paid for real: the receipt reached the server, which a fresh tab reads.
  const other = await ctx.newPage();
  await serverShows(other, target.path, () => expect(noteZaps(other, target.id)).toHaveAttribute('data-count', '21', { timeout: 5_000 }));

  // An lnbc invoice in a note, paid by WebLN after the confirm.
  const meta = (await (await fetch(`${baseUrl()}/.well-known/lnurlp/${author.name}`)).json()) as { callback: string };
  const { pr } = (await (await fetch(`${meta.callback}?amount=7000`)).json()) as { pr: string };
  const invoiceNote = await noteBy(author, `Fizesd ki WebLN-nel: ${pr}`);
  await page.goto(`${baseUrl()}${invoiceNote.path}`);
  const invoiceCard = page.locator(`article[data-note-id="${invoiceNote.id}"] .note-card-invoice`).first();
  await invoiceCard.getByRole('button', { name: 'Fizetés' }).click();
  const confirm = page.getByRole('dialog', { name: 'Kifizeted a számlát?' });
  await expect(confirm).toContainText('Böngészőtárca (WebLN)');
  await confirm.getByRole('button', { name: 'Fizetés' }).click();
  await expect(invoiceCard.getByRole('status')).toHaveText('Kifizetve ✓');
  expect(await page.evaluate(() => (window as unknown as { __weblnInvoices: string[] }).__weblnInvoices)).toEqual([pr]);
  wallet.close();
  await ctx.close();
});

test('zap splits: each recipient gets its weighted share; a recipient without an address is reported and rolled back', async ({ browser }) => {
  test.setTimeout(150_000);
  const author = await newPerson('oszt');
  const partner = await newPerson('tars');
  const nobody = await newPerson('cimnelkul', false);
  const split = await noteBy(author, 'Megosztott zap.', [
    ['zap', author.pubkey, '', '1'],
    ['zap', partner.pubkey, '', '2'],
  ]);
  const partial = await noteBy(author, 'Félig zappolható.', [
    ['zap', author.pubkey, '', '1'],
    ['zap', nobody.pubkey, '', '1'],
  ]);
  const { context, page } = await demoSignIn(browser, split.path);
  await demoWalletActive(page);
  await zapButton(page.locator(`article[data-note-id="${split.id}"]`).first()).click();
  await expect(noteZaps(page, split.id)).toHaveAttribute('data-count', '42');
  // Two receipts, 14 and 28 sats, counted on the note by the server.
  const fresh = await context.newPage();
  await serverShows(fresh, split.path, () => expect(noteZaps(fresh, split.id)).toHaveAttribute('data-count', '42', { timeout: 5_000 }));
  await serverShows(fresh, `/p/${npubEncode(partner.pubkey)}`, () => expect(profileSats(fresh)).toHaveText('28', { timeout: 5_000 }));

  await page.goto(`${baseUrl()}${partial.path}`);
  await zapButton(page.locator(`article[data-note-id="${partial.id}"]`).first()).click();
  await expect(page.getByText('A zap 2 címzettből csak 1 részére ment el')).toBeVisible({ timeout: 30_000 });
  await expect(noteZaps(page, partial.id)).toHaveAttribute('data-count', '21');
  await context.close();
});

test('a zap that fails rolls the count back with the zap fail toast', async ({ browser }) => {
  test.setTimeout(90_000);
  const sk = (await newPerson('rossz', false)).sk;
  // An address whose LNURL server does not exist: neither the browser nor the server's fallback reaches it.
  const profile = finalizeEvent({ kind: 0, created_at: now(), tags: [], content: JSON.stringify({ name: 'rossz', lud16: 'senki@nincs-ilyen.invalid' }) }, sk);
  await publishAccepted(profile);
  const target = await noteBy({ sk, pubkey: profile.pubkey, name: 'rossz' }, 'Ide nem megy zap.');
  const { context, page } = await demoSignIn(browser, target.path);
  await demoWalletActive(page);
  // With animations off (this device only) no bolt flies.
  await page.evaluate(() => (window.strucc!.api as unknown as Driven).settingsAction({ type: 'setAnimated', animated: false }));
  await expect(page.locator('html')).toHaveAttribute('data-animated', 'false');
  const card = page.locator(`article[data-note-id="${target.id}"]`).first();
  await zapButton(card).click();
  await expect(page.getByText('A zap nem sikerült, kérlek próbáld újra')).toBeVisible({ timeout: 45_000 });
  await expect(noteZaps(page, target.id)).toHaveAttribute('data-count', '0');
  // A bolt, once flown, stays faded on the button: none is there.
  await expect(card.getByTestId('zap-burst')).toHaveCount(0);
  await context.close();
});
