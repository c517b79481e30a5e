import { expect, test, type Page } from '@playwright/test';
import { generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { DEMO_LOGIN } from '../../server/demo/accounts.ts';
import { displayName, emptyProfile, parseProfile } from '../../core/profile.ts';
import type { ActionResult, RelayInfo, StruccApi } from '../../core/types.ts';
import type { StruccDevtools } from '../../src/lib/devtools.ts';
import { enableDevMode, installNip07Stub } from './support/nip07-stub.ts';
import { queryRelay, signIn } from './support/session.ts';
import { npubEncode, nsecEncode } from 'nostr-tools/nip19';
import { base, wsUrl } from './support/base.ts';

const relayUrl = () => wsUrl('/relay');

async function cacheStatus() {
  const res = await fetch(`${base()}/api/status`);
  return (await res.json()) as { cacheConnections: number; cacheConnectionsTotal: number };
}

/** The name the chip must show for the demo login, by the spec's display-name rule. */
async function demoLoginName(): Promise<string> {
  const [meta] = await queryRelay({ kinds: [0], authors: [DEMO_LOGIN.pubkey], limit: 1 });
  return displayName(meta ? parseProfile(meta) : emptyProfile(DEMO_LOGIN.pubkey));
}

/** The wide layout's chip (the phone top bar's copy is hidden at this viewport). */
const chip = (page: Page) => page.locator('.side-nav .account-chip');

type Driven = Required<StruccApi>;

async function openTab(page: Page): Promise<void> {
  await page.goto(`${base()}/home`);
  await page.waitForFunction(() => window.strucc !== undefined);
}

test('login in one tab shows in the other, the extension stub signs a follow, logout shows everywhere, one socket', async ({ context }) => {
  // The previous test's browser context may still be closing its worker's socket.
  await expect.poll(async () => (await cacheStatus()).cacheConnections).toBe(0);
  const before = await cacheStatus();
  const stub = await installNip07Stub(context, DEMO_LOGIN.secretKey);
  await enableDevMode(context);
  const a = await context.newPage();
  const b = await context.newPage();
  await openTab(a);
  await openTab(b);
  const name = await demoLoginName();

  for (const page of [a, b]) await expect(chip(page).getByRole('button', { name: 'Bejelentkezés' })).toBeEnabled();
  await chip(a).getByRole('button', { name: 'Bejelentkezés' }).click();
  const modal = a.getByRole('dialog', { name: 'Bejelentkezés' });
  await modal.getByRole('button', { name: 'Bejelentkezés bővítménnyel' }).click();
  await expect(modal).toBeHidden();
  for (const page of [a, b]) {
    await expect(chip(page)).toContainText(name);
    await expect(chip(page).getByRole('button', { name: 'Kijelentkezés' })).toBeVisible();
  }

  // A follow makes the worker ask the tab's extension for a real signature on the new contact list.
  const target = getPublicKey(generateSecretKey());
  const result = await a.evaluate(
    async ({ relay, target }) => {
      const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
      const added = await api.addRelay(relay);
      if (!added.ok) return { ok: false, code: added.error } as ActionResult;
      await new Promise<void>((resolve) => {
        void api.watchRelays(
          tabId,
          proxy((list: RelayInfo[]) => {
            if (list.some((r) => r.url === added.url && r.state === 'connected')) resolve();
          }),
        );
      });
      return api.accountAction({ type: 'follow', pubkey: target });
    },
    { relay: relayUrl(), target },
  );
  expect(result).toMatchObject({ ok: true });
  const [contacts] = await queryRelay({ kinds: [3], authors: [DEMO_LOGIN.pubkey], limit: 1 });
  expect(contacts.tags).toContainEqual(['p', target]);
  expect(verifyEvent(contacts)).toBe(true);
  expect(stub.signed.map((e) => e.id)).toContain(contacts.id);

  await chip(b).getByRole('button', { name: 'Kijelentkezés' }).click();
  for (const page of [a, b]) {
    await expect(chip(page).getByRole('button', { name: 'Bejelentkezés' })).toBeVisible();
    await expect(chip(page)).not.toContainText(name);
  }

  const invalid = await b.evaluate(() => {
    const { api } = window.strucc as StruccDevtools & { api: Driven };
    return api.login({ method: 'nsec', nsec: 'nsec1ezlogmarnemkulcs' });
  });
  expect(invalid).toMatchObject({ ok: false, code: 'invalid-nsec', message: 'Adj meg egy érvényes privát kulcsot!' });
  await expect(chip(a).getByRole('button', { name: 'Bejelentkezés' })).toBeVisible();

  const after = await cacheStatus();
  expect(after.cacheConnections).toBe(1);
  expect(after.cacheConnectionsTotal - before.cacheConnectionsTotal).toBe(1);
});

test('without a signer extension the login modal offers the private key only, and without devMode nothing is exposed', async ({ page }) => {
  await page.goto(`${base()}/home`);
  const login = chip(page).getByRole('button', { name: 'Bejelentkezés' });
  await expect(login).toBeEnabled();
  await login.click();
  const modal = page.getByRole('dialog', { name: 'Bejelentkezés' });
  await expect(modal.getByLabel('Privát kulcs (nsec)', { exact: true })).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Bejelentkezés bővítménnyel' })).toHaveCount(0);
  await expect(modal.getByRole('link', { name: 'Nincs még fiókod? Hozz létre egyet' })).toHaveAttribute('href', '/new');
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expect(login).toBeVisible();
  expect(await page.evaluate(() => 'strucc' in window)).toBe(false);
});

test('the account page: npub with copy toast and QR code; the private key hidden until asked, never for an extension', async ({ context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await enableDevMode(context);
  const page = await context.newPage();
  await openTab(page);
  await page.goto(`${base()}/settings/account`);
  await expect(page.getByText('A fiókbeállításokhoz jelentkezz be.')).toBeVisible();

  const sk = generateSecretKey();
  const nsec = nsecEncode(sk);
  await page.waitForFunction(() => window.strucc !== undefined);
  const result = await page.evaluate((key) => (window.strucc!.api as unknown as Driven).login({ method: 'nsec', nsec: key }), nsec);
  expect(result).toMatchObject({ ok: true });
  const npub = npubEncode(getPublicKey(sk));
  await expect(page.getByTestId('account-npub')).toHaveText(npub);
  await expect(page.getByRole('img', { name: 'QR-kód a nyilvános kulcsodhoz' })).toBeVisible();
  await page.getByRole('button', { name: 'Nyilvános kulcs másolása' }).click();
  await expect(page.getByText('A nyilvános kulcs a vágólapra került')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(npub);

  const secret = page.getByTestId('account-nsec');
  await expect(page.getByText('A privát kulcsodat soha ne oszd meg senkivel!', { exact: false })).toBeVisible();
  await expect(secret).not.toContainText('nsec1');
  await page.getByRole('button', { name: 'Megjelenítés' }).click();
  await expect(secret).toHaveText(nsec);
  await page.getByRole('button', { name: 'Elrejtés' }).click();
  await expect(secret).not.toContainText('nsec1');
});

test('the account page: a PIN-protected private key is shown only to the right PIN; a new PIN needs 6 characters', async ({ context }) => {
  await enableDevMode(context);
  const page = await context.newPage();
  await openTab(page);
  const sk = generateSecretKey();
  const nsec = nsecEncode(sk);
  const result = await page.evaluate(
    (key) => (window.strucc!.api as unknown as Driven).login({ method: 'nsec', nsec: key, pin: '135790', pinConfirm: '135790' }),
    nsec,
  );
  expect(result).toMatchObject({ ok: true });
  // A fresh page load finds the stored key PIN-encrypted and asks for the PIN first.
  await page.goto(`${base()}/settings/account`);
  const prompt = page.getByRole('dialog', { name: 'PIN-kód megadása' });
  await prompt.getByLabel('PIN-kód', { exact: true }).fill('135790');
  await prompt.getByRole('button', { name: 'Feloldás' }).click();
  await expect(prompt).toBeHidden();
  const secret = page.getByTestId('account-nsec');
  await page.getByRole('button', { name: 'Megjelenítés' }).click();
  // The key is unlocked, yet showing it asks for the PIN again.
  const pin = page.getByLabel('Add meg a PIN-kódot a privát kulcs megjelenítéséhez');
  await expect(pin).toBeVisible();
  await expect(secret).not.toContainText('nsec1');
  await pin.fill('000000');
  await page.getByRole('button', { name: 'Megjelenítés' }).click();
  await expect(page.getByRole('alert')).toHaveText('Hibás PIN-kód. Próbáld újra!');
  await expect(secret).not.toContainText('nsec1');
  await pin.fill('135790');
  await page.getByRole('button', { name: 'Megjelenítés' }).click();
  await expect(secret).toHaveText(nsec);
  await page.getByRole('button', { name: 'Elrejtés' }).click();
  await expect(secret).not.toContainText('nsec1');

  // A new PIN: the current one must open the key, the new one must have 6 characters.
  const form = page.getByRole('form', { name: 'PIN-kód módosítása' });
  await form.getByLabel('Jelenlegi PIN-kód').fill('135790');
  await form.getByLabel('Új PIN-kód', { exact: true }).fill('12345');
  await form.getByLabel('Új PIN-kód újra').fill('12345');
  await form.getByRole('button', { name: 'PIN-kód módosítása' }).click();
  await expect(form.getByRole('alert')).toHaveText('A PIN-kódnak legalább 6 karakterből kell állnia.');
  await form.getByLabel('Új PIN-kód', { exact: true }).fill('24681012');
  await form.getByLabel('Új PIN-kód újra').fill('24681012');
  await form.getByRole('button', { name: 'PIN-kód módosítása' }).click();
  await expect(page.getByText('A PIN-kódot megváltoztattuk.')).toBeVisible();
  await page.getByRole('button', { name: 'Megjelenítés' }).click();
  await pin.fill('135790');
  await page.getByRole('button', { name: 'Megjelenítés' }).click();
  await expect(page.getByRole('alert')).toHaveText('Hibás PIN-kód. Próbáld újra!');
  await pin.fill('24681012');
  await page.getByRole('button', { name: 'Megjelenítés' }).click();
  await expect(secret).toHaveText(nsec);
});

test('the account page explains that an extension keeps the private key', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey(), '/settings/account');
  await expect(page.getByText('a privát kulcsod a bővítményben van', { exact: false })).toBeVisible();
  await expect(page.getByTestId('account-nsec')).toHaveCount(0);
});
