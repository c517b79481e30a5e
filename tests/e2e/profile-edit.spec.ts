/**
 * /settings/profile with a fresh key: the spec's exact validation messages (typed text kept), an
 * avatar upload with progress, a cancelled banner upload, the unsaved form surviving a reload,
 * save → success toast, the kind 0 on the server, and the new name on the profile page of
 * another tab. Guests get the login prompt.
 */
import { expect, test, type Page } from '@playwright/test';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { npubEncode } from 'nostr-tools/nip19';
import { baseUrl, latestEvent, openApp, signIn, useLocalRelay } from './support/session.ts';
import { toast, toasts } from './support/toast.ts';

/** A valid 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');


/** Holds each upload request until release() is called, so the progress state can be seen. */
/** Holds each upload socket's frames (the signed chunks) until released, one upload at a time. */
async function holdUploads(page: Page) {
  const gates: (() => void)[] = [];
  let arrived: () => void = () => undefined;
  let next = new Promise<void>((r) => (arrived = r));
  await page.routeWebSocket(/\/upload$/, (ws) => {
    const server = ws.connectToServer();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    let first = true;
    ws.onMessage(async (message) => {
      if (first) {
        first = false;
        gates.push(open);
        arrived();
      }
      await gate;
      server.send(message);
    });
  });
  return {
    /** Waits for a held upload, then lets it through. */
    async release() {
      await next;
      next = new Promise<void>((r) => (arrived = r));
      gates.shift()!();
    },
    async arrivedOne() {
      await next;
    },
  };
}

test('validation uses the spec messages and keeps what was typed', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey(), '/settings/profile');
  const displayName = page.getByLabel('Megjelenített név');
  const username = page.getByLabel('Felhasználónév');
  const save = page.getByRole('button', { name: 'Mentés', exact: true });
  await expect(username).toBeEnabled();

  // As you type: the character rule.
  await displayName.fill('Teszt Elek');
  await username.fill('Ékezetes név!');
  await expect(page.getByText('Ékezetek, szóközök, speciális karakterek nem használhatók a felhasználónévben.', { exact: true })).toBeVisible();

  // On save: the username is invalid, nothing is published, the text stays, focus goes to it.
  await save.click();
  await expect(page.getByText('A felhasználónév érvénytelen.', { exact: true })).toBeVisible();
  await expect(username).toHaveValue('Ékezetes név!');
  await expect(displayName).toHaveValue('Teszt Elek');
  await expect(username).toBeFocused();

  // Both names are required.
  await username.fill('');
  await displayName.fill('');
  await save.click();
  await expect(page.getByText('A megjelenített név megadása kötelező.', { exact: true })).toBeVisible();
  await expect(page.getByText('A felhasználónév megadása kötelező.', { exact: true })).toBeVisible();

  // A bad picture URL and Lightning address are refused too.
  await displayName.fill('Teszt Elek');
  await username.fill('teszt_elek');
  await page.getByLabel('Profilkép', { exact: true }).fill('nem egy cím');
  await page.getByLabel('Lightning-cím').fill('elek');
  await save.click();
  await expect(page.getByText('Adj meg egy érvényes, http:// vagy https:// kezdetű címet.')).toBeVisible();
  await expect(page.getByText('A Lightning-címet nev@szolgaltato.hu formában vagy lnurl1… kódként add meg.')).toBeVisible();
  await expect(toasts(page)).toHaveCount(0);

  // The unsaved form survives a reload.
  await page.reload();
  await page.waitForFunction(() => window.strucc !== undefined);
  await expect(page.getByText('Visszaállítottuk a legutóbb el nem mentett módosításaidat.')).toBeVisible();
  await expect(page.getByLabel('Felhasználónév')).toHaveValue('teszt_elek');
  await expect(page.getByLabel('Lightning-cím')).toHaveValue('elek');
});

test('fill in, upload an avatar, save: the kind 0 is on the server and the profile page shows it', async ({ context }) => {
  const secretKey = generateSecretKey();
  const pubkey = getPublicKey(secretKey);
  const since = Math.floor(Date.now() / 1000) - 5;
  const { page } = await signIn(context, secretKey, '/settings/profile');
  await expect(page.getByLabel('Felhasználónév')).toBeEnabled();

  const uploads = await holdUploads(page);

  // A banner upload can be cancelled while it runs.
  await page.getByTestId('banner-file').setInputFiles({ name: 'borito.png', mimeType: 'image/png', buffer: PNG });
  await uploads.arrivedOne();
  await expect(page.getByRole('progressbar', { name: /Feltöltés: \d+%/ })).toBeVisible();
  await page.getByRole('button', { name: 'Borítókép feltöltésének megszakítása' }).click();
  await expect(page.getByText('A feltöltés megszakadt.')).toBeVisible();
  await expect(page.getByLabel('Borítókép', { exact: true })).toHaveValue('');
  await uploads.release();

  // The avatar upload shows its progress, then fills in the URL and the preview.
  await page.getByTestId('avatar-file').setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: PNG });
  const progress = page.getByRole('progressbar', { name: /Feltöltés: \d+%/ });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('button', { name: 'Profilkép feltöltésének megszakítása' })).toBeVisible();
  await uploads.release();
  await expect(progress).toHaveCount(0);
  const picture = page.getByLabel('Profilkép', { exact: true });
  await expect(picture).toHaveValue(/^https?:\/\/\S+/);
  const pictureUrl = await picture.inputValue();
  await expect(page.getByRole('img', { name: 'Profilkép előnézete' })).toBeVisible();

  await page.getByLabel('Megjelenített név').fill('Szerkesztő Szilvia');
  await page.getByLabel('Felhasználónév').fill('szerkeszto_szilvia');
  await page.getByLabel('Bemutatkozás').fill('Első sor\nMásodik sor');
  await page.getByLabel('Weboldal').fill('strucc.example.hu');
  await page.getByLabel('Hely').fill('Pécs');
  await page.getByLabel('Lightning-cím').fill('szilvia@getalby.com');
  await page.getByLabel('NIP-05 azonosító').fill('szilvia@strucc.example.hu');
  await page.getByRole('button', { name: 'Mentés', exact: true }).click();
  await expect(toast(page, 'A profil frissítve')).toBeVisible();
  // The website was completed with https:// and shown as saved.
  await expect(page.getByLabel('Weboldal')).toHaveValue('https://strucc.example.hu');

  const event = await latestEvent(pubkey, 0, since);
  expect(JSON.parse(event.content)).toEqual({
    display_name: 'Szerkesztő Szilvia',
    name: 'szerkeszto_szilvia',
    about: 'Első sor\nMásodik sor',
    website: 'https://strucc.example.hu',
    location: 'Pécs',
    lud16: 'szilvia@getalby.com',
    nip05: 'szilvia@strucc.example.hu',
    picture: pictureUrl,
  });

  // Another tab's profile page shows the new name and place.
  const second = await context.newPage();
  await openApp(second, `/p/${npubEncode(pubkey)}`);
  await expect(second.locator('#profile-name')).toContainText('Szerkesztő Szilvia');
  await expect(second.locator('.profile-page, main').first()).toContainText('Pécs');

  // Editing again keeps fields this form does not know about.
  await page.reload();
  await page.waitForFunction(() => window.strucc !== undefined);
  await expect(page.getByLabel('Megjelenített név')).toHaveValue('Szerkesztő Szilvia');
  await expect(page.getByText('Visszaállítottuk a legutóbb el nem mentett módosításaidat.')).toHaveCount(0);
});

test('a profile with unknown fields keeps them; a failed publish keeps the form', async ({ context }) => {
  const secretKey = generateSecretKey();
  const pubkey = getPublicKey(secretKey);
  const { page } = await signIn(context, secretKey, '/home');
  // Another client's profile, with fields this form does not show.
  const first = await page.evaluate(async () => {
    const api = window.strucc!.api as unknown as { publish(e: unknown): Promise<{ success: boolean }> };
    return api.publish({
      kind: 0,
      created_at: Math.floor(Date.now() / 1000) - 60,
      tags: [],
      content: JSON.stringify({ name: 'regi_nev', displayName: 'Régi Név', lud06: 'lnurl1regi', pronouns: 'ő/neki' }),
    });
  });
  expect(first.success).toBe(true);
  await page.goto(`${baseUrl()}/settings/profile`);
  await page.waitForFunction(() => window.strucc !== undefined);
  await useLocalRelay(page);
  await expect(page.getByLabel('Megjelenített név')).toHaveValue('Régi Név');
  await expect(page.getByLabel('Felhasználónév')).toHaveValue('regi_nev');

  // The signer refuses: the failure toast, and what was typed stays.
  await page.getByLabel('Megjelenített név').fill('Új Név');
  await page.evaluate(() => {
    // Simulate a signer that refuses: the publish cannot be signed.
    (window as unknown as { nostr: { signEvent: () => Promise<never> } }).nostr.signEvent = () => Promise.reject(new Error('user rejected'));
  });
  await page.getByRole('button', { name: 'Mentés', exact: true }).click();
  await expect(toast(page, 'Nem sikerült frissíteni a profilt, kérlek próbáld újra')).toBeVisible();
  await expect(page.getByLabel('Megjelenített név')).toHaveValue('Új Név');

  // The signer works again: the save keeps lud06 and pronouns, and updates both display-name keys.
  const since = Math.floor(Date.now() / 1000) - 5;
  await page.reload();
  await page.waitForFunction(() => window.strucc !== undefined);
  await expect(page.getByLabel('Megjelenített név')).toHaveValue('Új Név');
  // A fresh worker after the reload: wait for the write relay before saving.
  await useLocalRelay(page);
  await page.getByRole('button', { name: 'Mentés', exact: true }).click();
  await expect(toast(page, 'A profil frissítve')).toBeVisible();
  const event = await latestEvent(pubkey, 0, since);
  expect(JSON.parse(event.content)).toEqual({ name: 'regi_nev', display_name: 'Új Név', displayName: 'Új Név', lud06: 'lnurl1regi', pronouns: 'ő/neki' });
});

test('a guest is asked to sign in', async ({ page }) => {
  await page.goto(`${baseUrl()}/settings/profile`);
  await expect(page.getByText('A profilod szerkesztéséhez jelentkezz be.')).toBeVisible();
  await page.getByRole('button', { name: 'Bejelentkezés' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
});
