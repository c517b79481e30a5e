import { expect, test } from '@playwright/test';
import { nsecEncode, npubEncode } from 'nostr-tools/nip19';
import { generateSecretKey } from 'nostr-tools/pure';
import { DEMO_LOGIN_PUBKEY, demoUser } from '../../server/demo/accounts.ts';
import { demoWalletActive, nsecSignIn } from './support/demo-wallet.ts';
import { latestEvent, openApp, useLocalRelay, type Driven } from './support/session.ts';
import { base } from './support/base.ts';

// Premium and legends against the seeded demo network: the demo login is no member and buys a
// plan with its demo wallet (a real NIP-47 payment of the quote's invoice); demo users 2–5 are
// legends (user 2: GOLD with glow and badge) and 6–11 premium members with stored files.

const signIn = nsecSignIn;

test('buys premium through the steps with the demo wallet; the tier shows at once in a second tab', async ({ browser }) => {
  test.setTimeout(150_000);
  const { context, page } = await signIn(browser, '/settings/nwc');
  await demoWalletActive(page);
  // A non-member sees the reminder.
  await expect(page.getByTestId('premium-reminder')).toBeVisible();

  const second = await context.newPage();
  await openApp(second, '/premium');
  await expect(second.getByRole('heading', { name: 'Válassz nevet' })).toBeVisible();

  await page.goto(`${base()}/premium`);
  await expect(page.getByRole('heading', { name: 'Válassz nevet' })).toBeVisible();
  const field = page.getByLabel('Prémium név');
  const status = page.getByTestId('premium-name-status');
  await field.fill('ab');
  await expect(status).toHaveText('A névnek legalább 3 karakter hosszúnak kell lennie.');
  await field.fill('kis kutya');
  await expect(status).toHaveText('Ékezetek, szóközök, speciális karakterek nem használhatók a felhasználónévben.');
  await field.fill('árvíztűrő');
  await expect(status).toHaveText('Ékezetek, szóközök, speciális karakterek nem használhatók a felhasználónévben.');
  await field.fill('admin');
  await expect(status).toHaveText('Ez a név már foglalt, válassz másikat.');
  await expect(page.getByRole('button', { name: 'Tovább' })).toBeDisabled();
  const name = `vevo${Date.now() % 1_000_000}`;
  await field.fill(name);
  await expect(status).toHaveText(`A(z) ${name} név szabad.`);
  await page.getByRole('button', { name: 'Tovább' }).click();

  await expect(page.getByRole('heading', { name: 'Válassz előfizetést' })).toBeVisible();
  await page.getByTestId('premium-plan-3').click();
  const summary = page.getByTestId('premium-summary');
  await expect(summary).toContainText(name);
  await expect(summary).toContainText('3 hónap');
  await expect(summary).toContainText('Összesen 21 USD');
  await expect(summary).toContainText(/\d sat · kb\. [\d\s  ]+ Ft/);
  await page.getByRole('button', { name: 'Tovább a fizetéshez' }).click();

  await expect(page.getByRole('img', { name: 'Lightning számla QR-kódja' })).toBeVisible();
  await expect(page.getByTestId('premium-invoice')).toHaveText(/^lnbc/);
  await page.getByRole('button', { name: 'Fizetés a tárcámmal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Kifizeted a számlát?' });
  await dialog.getByRole('button', { name: 'Fizetés a tárcámmal' }).click();
  await expect(page.getByTestId('premium-success')).toContainText('Köszönjük, prémium tag lettél!');
  await expect(page.getByTestId('premium-success')).toContainText(`${name}@`);

  // The other tab was on the first step; the worker's new tier turns it into the member's page.
  await expect(second.getByTestId('premium-tier')).toHaveText('Prémium tag');
  await expect(second.getByTestId('premium-address')).toContainText(`${name}@`);
  await expect(page.getByTestId('premium-reminder')).toHaveCount(0);

  // Manage: the order is in the history, and a rename takes effect.
  await page.getByRole('link', { name: 'Tagságom kezelése' }).click();
  await expect(page.getByTestId('premium-history').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('premium-history')).toContainText('Prémium tagság – 3 hónap');
  const renamed = `${name}x`;
  await page.getByLabel('Új név').fill(renamed);
  await expect(page.getByText(`A(z) ${renamed} név szabad.`)).toBeVisible();
  await page.getByRole('button', { name: 'Név mentése' }).click();
  await expect(page.getByText('A név megváltozott.')).toBeVisible();
  await expect(page.getByTestId('premium-address')).toContainText(`${renamed}@`);
  await context.close();
});

test('leaderboards: premium members and legends with donations, order choice and the legend counts', async ({ browser }) => {
  const { context, page } = await signIn(browser, '/premiums');
  await expect(page.getByRole('heading', { name: 'Prémium tagok', level: 1 })).toBeVisible();
  // The rows come after the heading: count them once the fourth is drawn.
  await expect(page.getByTestId('leaderboard-row').nth(3)).toBeVisible();
  await page.goto(`${base()}/legends`);
  await expect(page.getByRole('heading', { name: 'Legendák', level: 1 })).toBeVisible();
  await expect(page.getByTestId('legend-counts')).toContainText('Követettjeid között');
  const rows = page.getByTestId('leaderboard-row');
  await expect(rows).toHaveCount(4);
  // Ordered by donation: user 2 gave most.
  await expect(rows.first()).toHaveAttribute('data-pubkey', demoUser(2).pubkey);
  await expect(rows.first()).toContainText('1 200 000 sat'.replace(/ /g, '\u00a0'));
  await page.getByLabel('Rendezés').selectOption('last_donation');
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toHaveAttribute('data-pubkey', demoUser(5).pubkey);
  await context.close();
});

test('a legend’s glow and badge show on their note cards and profile, for another account', async ({ browser }) => {
  const { context, page } = await signIn(browser, `/p/${npubEncode(demoUser(2).pubkey)}`);
  const header = page.locator('.profile-header');
  await expect(header.getByTestId('legend-badge')).toHaveAttribute('data-style', 'GOLD');
  const card = page.locator('article.note').filter({ has: page.locator(`.note-author a[href="/p/${npubEncode(demoUser(2).pubkey)}"]`) }).first();
  await expect(card.getByTestId('legend-badge')).toHaveText('Legenda');
  await expect(card.locator('.avatar.legend-glow.legend-GOLD')).toBeVisible();
  await context.close();
});

test('a premium member deletes a stored file and restores an earlier follow list', async ({ browser }) => {
  const member = demoUser(6);
  const { context, page } = await signIn(browser, '/premium/media', nsecEncode(member.secretKey));
  const items = page.getByTestId('premium-media-item');
  await expect(items.first()).toBeVisible();
  const before = await items.count();
  expect(before).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('premium-media-usage')).toContainText('a 100 GB-ból');
  await items.first().getByRole('button', { name: 'Törlés' }).click();
  const dialog = page.getByRole('dialog', { name: 'Törlöd a fájlt?' });
  await dialog.getByRole('button', { name: 'Törlés' }).click();
  await expect(page.getByText('A fájl törölve.')).toBeVisible();
  await expect(items).toHaveCount(before - 1);

  const since = Math.floor(Date.now() / 1000) - 5;
  await openApp(page, '/premium/recovery');
  await useLocalRelay(page);
  const versions = page.getByTestId('premium-recovery-item');
  await expect(versions.first()).toBeVisible();
  const follows = Number(await versions.first().getAttribute('data-follows'));
  await versions.first().getByRole('button', { name: 'Visszaállítás' }).click();
  await page.getByRole('dialog', { name: 'Visszaállítod ezt a követőlistát?' }).getByRole('button', { name: 'Visszaállítás' }).click();
  await expect(page.getByText('A követőlista visszaállítva.')).toBeVisible();
  const published = await latestEvent(member.pubkey, 3, since);
  expect(published.tags.filter((t) => t[0] === 'p')).toHaveLength(follows);
  await context.close();
});

test('a legend changes their look on /premium/legend and others see it; support quotes a legend donation from 100,000 Ft', async ({ browser }) => {
  test.setTimeout(120_000);
  const legend = demoUser(4);
  const { context, page } = await signIn(browser, '/premium/legend', nsecEncode(legend.secretKey));
  await expect(page.getByRole('heading', { name: 'Legenda megjelenésed' })).toBeVisible();
  await page.getByRole('radio', { name: 'Kékeszöld' }).check();
  await page.getByLabel('Egyedi jelvény a nevem mellett').check();
  await page.getByRole('button', { name: 'Mentés' }).click();
  await expect(page.getByText('A legenda megjelenésed elmentve.')).toBeVisible();

  const viewer = await signIn(browser, `/p/${npubEncode(legend.pubkey)}`);
  // The legend's own notes (the profile feed also holds their reposts of others).
  const card = viewer.page.locator('article.note').filter({ has: viewer.page.locator(`.note-author a[href="/p/${npubEncode(legend.pubkey)}"]`) }).first();
  await expect(card.locator('.avatar.legend-glow.legend-TEAL')).toBeVisible();
  await expect(card.getByTestId('legend-badge')).toHaveAttribute('data-style', 'TEAL');
  await viewer.context.close();

  await page.goto(`${base()}/premium/support`);
  const amount = page.getByLabel('Támogatás összege (Ft)');
  await amount.fill('50000');
  await expect(page.getByText('Legenda tagsághoz legalább 100 000 Ft szükséges.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Támogatás és legendává válás' })).toBeDisabled();
  await amount.fill('100000');
  await expect(page.getByText('Ezzel az összeggel legenda leszel.')).toBeVisible();
  await page.getByRole('button', { name: 'Támogatás és legendává válás' }).click();
  await expect(page.getByRole('img', { name: 'Lightning számla QR-kódja' })).toBeVisible();
  await expect(page.getByTestId('premium-invoice')).toHaveText(/^lnbc/);
  await context.close();
});

test('the premium reminder: shown to a non-member, dismissed in one tab it stays away in every tab and after a reload', async ({ browser }) => {
  const { context, page } = await signIn(browser, '/home', nsecEncode(generateSecretKey()));
  const reminder = page.getByTestId('premium-reminder');
  await expect(reminder).toContainText('Legyél prémium tag!');
  const second = await context.newPage();
  await openApp(second, '/explore');
  await expect(second.getByTestId('premium-reminder')).toBeVisible();
  await reminder.getByRole('button', { name: 'Most nem' }).click();
  await expect(reminder).toHaveCount(0);
  await expect(second.getByTestId('premium-reminder')).toHaveCount(0);
  await page.reload();
  await page.waitForFunction(() => window.strucc !== undefined);
  // Once the worker has the stored account again, it still says no reminder (the time was kept).
  const shown = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const api = window.strucc!.api as unknown as Driven;
        void api.watchAccount(
          window.strucc!.tabId,
          window.strucc!.proxy((s: { account?: { premiumReminder: number }; showPremiumReminder: boolean }) => {
            if (s.account && s.account.premiumReminder > 0) resolve(s.showPremiumReminder);
          }),
        );
      }),
  );
  expect(shown).toBe(false);
  await expect(page.getByTestId('premium-reminder')).toHaveCount(0);
  await context.close();
});

test('subscribes to an author’s tier: the modal lists the tiers, the price is zapped with the demo wallet and the subscription shows on the profile', async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page: settings } = await signIn(browser, '/settings/nwc');
  await demoWalletActive(settings);
  const author = demoUser(2);
  const since = Math.floor(Date.now() / 1000) - 5;
  // A second tab of the same worker, which keeps the wallet connection just made.
  const page = await context.newPage();
  await openApp(page, `/p/${npubEncode(author.pubkey)}`);
  await useLocalRelay(page);
  await page.locator('.profile-header').getByRole('button', { name: 'Feliratkozás' }).click();
  const dialog = page.getByRole('dialog', { name: /^Feliratkozás: / });
  await expect(dialog.getByTestId('profile-tier')).toHaveCount(2);
  await expect(dialog.getByTestId('profile-tier').filter({ hasText: 'Támogató' })).toContainText(/2[\s\u00a0]?100 sat \/ hónap/);
  await dialog.getByTestId('profile-tier').filter({ hasText: 'Barát' }).getByRole('radio').check();
  await dialog.getByRole('button', { name: 'Feliratkozás és fizetés' }).click();
  await expect(page.getByTestId('profile-subscribed')).toHaveText('Feliratkozva: Barát');
  const published = await latestEvent(DEMO_LOGIN_PUBKEY, 7001, since);
  expect(published.tags).toContainEqual(['p', author.pubkey]);
  expect(published.tags).toContainEqual(['a', `37001:${author.pubkey}:baratom`]);
  // Another tab reads the subscription back from the relay.
  const again = await context.newPage();
  await openApp(again, `/p/${npubEncode(author.pubkey)}`);
  await expect(again.getByTestId('profile-subscribed')).toHaveText('Feliratkozva: Barát');
  await context.close();
});
