/**
 * The login modal, the PIN prompt and forgot PIN, through the UI against the real server.
 * Fresh keys only; nothing is published here.
 */
import { expect, test, type Page } from '@playwright/test';
import * as nip04 from 'nostr-tools/nip04';
import { nsecEncode } from 'nostr-tools/nip19';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { bytesToHex } from '../../core/keys.ts';
import { sealWithPin } from '../../worker/pin.ts';
import { displayName, emptyProfile } from '../../core/profile.ts';
import { enableDevMode, installNip07Stub } from './support/nip07-stub.ts';
import { type Driven, latestEvent, openApp, queryRelay, useLocalRelay } from './support/session.ts';
import { base } from './support/base.ts';
import { toast } from './support/toast.ts';

/** The wide layout's chip (the phone top bar's copy is hidden at this viewport). */
const chip = (page: Page) => page.locator('.side-nav .account-chip');
const nameOf = (pubkey: string) => displayName(emptyProfile(pubkey));

async function openLoginModal(page: Page) {
  await chip(page).getByRole('button', { name: 'Bejelentkezés' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bejelentkezés' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('extension login through the modal shows the user in two tabs', async ({ context }) => {
  const sk = generateSecretKey();
  const stub = await installNip07Stub(context, sk);
  await enableDevMode(context);
  const a = await context.newPage();
  const b = await context.newPage();
  await openApp(a);
  await openApp(b);
  const name = nameOf(getPublicKey(sk));

  const dialog = await openLoginModal(a);
  await dialog.getByRole('button', { name: 'Bejelentkezés bővítménnyel' }).click();
  await expect(dialog).toBeHidden();
  for (const page of [a, b]) {
    await expect(chip(page)).toContainText(name);
    await expect(chip(page).getByRole('button', { name: 'Kijelentkezés' })).toBeVisible();
  }
  // Signing in publishes only the NIP-17 inbox list a new account lacks (issue 15: kind 10050 naming our
  // relay). Every other signature is a cache server read request (spec §4 settings load, and since issue
  // 12 the private counts) or the NIP-42 AUTH that reading one's gift wraps needs, each through the tab's extension.
  await expect.poll(() => stub.signed.length).toBeGreaterThan(0);
  await expect.poll(async () => (await queryRelay({ authors: [getPublicKey(sk)] })).map((e) => e.kind)).toEqual([10050]);
  // Sign-in has run its course once the settings load and both private counts have been signed.
  const ops = () => stub.signed.filter((e) => e.kind === 30078).map((e) => e.tags[0]?.[2]);
  await expect.poll(ops).toEqual(expect.arrayContaining(['get_app_settings', 'notification_counts', 'directmsg_count']));
  for (const e of stub.signed) {
    if (e.kind === 10050 || e.kind === 22242) continue;
    expect(e.kind).toBe(30078);
    expect(e.tags[0]?.[2]).toMatch(/^(get_\w+|notification_counts|directmsg_count)$/);
  }
  expect(stub.signed.filter((e) => e.kind === 10050)).toHaveLength(1);
  expect((await queryRelay({ authors: [getPublicKey(sk)] })).map((e) => e.kind)).toEqual([10050]);
});

test('nsec login with a PIN: validation, PIN prompt after reload, wrong PIN, right PIN, forgot PIN', async ({ context }) => {
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page);
  const sk = generateSecretKey();
  const nsec = nsecEncode(sk);
  const name = nameOf(getPublicKey(sk));

  const dialog = await openLoginModal(page);
  // No extension in this browser: only the private key is offered.
  await expect(dialog.getByRole('button', { name: 'Bejelentkezés bővítménnyel' })).toHaveCount(0);
  const nsecField = dialog.getByLabel('Privát kulcs (nsec)', { exact: true });
  await expect(nsecField).toHaveAttribute('type', 'password');
  await dialog.getByRole('button', { name: 'Privát kulcs megjelenítése' }).click();
  await expect(nsecField).toHaveAttribute('type', 'text');

  await nsecField.fill('nsec1ezlogmarnemkulcs');
  await dialog.getByRole('button', { name: 'Bejelentkezés', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Adj meg egy érvényes privát kulcsot!');
  await expect(nsecField).toHaveValue('nsec1ezlogmarnemkulcs');
  await expect(nsecField).toHaveAttribute('aria-invalid', 'true');

  await nsecField.fill(nsec);
  await dialog.getByLabel('PIN-kód beállítása').check();
  const pin = dialog.getByLabel('PIN-kód', { exact: true });
  const pinAgain = dialog.getByLabel('PIN-kód újra', { exact: true });
  await pin.fill('12');
  await pinAgain.fill('12');
  await dialog.getByRole('button', { name: 'Bejelentkezés', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('A PIN-kódnak legalább 6 karakterből kell állnia.');
  await expect(pin).toHaveValue('12');
  // 4 and 5 characters were enough before; new PINs need 6.
  await pin.fill('12345');
  await pinAgain.fill('12345');
  await dialog.getByRole('button', { name: 'Bejelentkezés', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('A PIN-kódnak legalább 6 karakterből kell állnia.');

  await pin.fill('123456');
  await pinAgain.fill('123465');
  await dialog.getByRole('button', { name: 'Bejelentkezés', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('A PIN-ek nem egyeznek');
  await expect(pinAgain).toHaveValue('123465');
  await expect(nsecField).toHaveValue(nsec);

  await pinAgain.fill('123456');
  await dialog.getByRole('button', { name: 'Bejelentkezés', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(chip(page)).toContainText(name);

  // The stored key is PIN-encrypted: a reload asks for the PIN.
  await page.reload();
  const prompt = page.getByRole('dialog', { name: 'PIN-kód megadása' });
  await expect(prompt).toBeVisible();
  await prompt.getByLabel('PIN-kód', { exact: true }).fill('999999');
  await prompt.getByRole('button', { name: 'Feloldás' }).click();
  await expect(prompt.getByRole('alert')).toHaveText('Hibás PIN-kód. Próbáld újra!');
  await prompt.getByLabel('PIN-kód', { exact: true }).fill('123456');
  await prompt.getByRole('button', { name: 'Feloldás' }).click();
  await expect(prompt).toBeHidden();
  await expect(chip(page)).toContainText(name);
  await expect(chip(page).getByRole('button', { name: 'Kijelentkezés' })).toBeVisible();

  // Forgot PIN: a clear warning, then the stored key is gone and the guest state shows.
  await page.reload();
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Elfelejtettem a PIN-kódot' }).click();
  const forgot = page.getByRole('dialog', { name: 'Elfelejtetted a PIN-kódot?' });
  await expect(forgot).toContainText('töröljük');
  await expect(forgot).toContainText('Az elveszett privát kulcsot sem a Strucc, sem más nem tudja visszaállítani.');
  await forgot.getByRole('button', { name: 'Kulcs törlése és kijelentkezés' }).click();
  await expect(forgot).toBeHidden();
  await expect(chip(page).getByRole('button', { name: 'Bejelentkezés' })).toBeVisible();
  await expect(chip(page)).not.toContainText(name);
  await page.reload();
  await expect(chip(page).getByRole('button', { name: 'Bejelentkezés' })).toBeEnabled();
  await expect(page.getByRole('dialog', { name: 'PIN-kód megadása' })).toHaveCount(0);
});

test('a key stored under an old 4-character PIN still unlocks; a notice that does not block asks for a new PIN', async ({ context }) => {
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page);
  const sk = generateSecretKey();
  const login = await page.evaluate(
    (nsec) => (window.strucc!.api as unknown as { login: (r: unknown) => Promise<{ ok: boolean }> }).login({ method: 'nsec', nsec, pin: '864209', pinConfirm: '864209' }),
    nsecEncode(sk),
  );
  expect(login.ok).toBe(true);
  // What this browser would hold had the PIN been set before the 6-character rule.
  const legacy = { method: 'nsec', pubkey: getPublicKey(sk), secret: await sealWithPin(bytesToHex(sk), '1234') };
  await page.evaluate(
    (record) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('strucc-account', 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('login', 'readwrite');
          tx.objectStore('login').put(record, 'current');
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
    legacy,
  );
  await page.reload();
  const prompt = page.getByRole('dialog', { name: 'PIN-kód megadása' });
  await prompt.getByLabel('PIN-kód', { exact: true }).fill('1234');
  await prompt.getByRole('button', { name: 'Feloldás' }).click();
  await expect(prompt).toBeHidden();
  await expect(chip(page)).toHaveAttribute('data-account-state', 'signedIn');

  const notice = page.getByRole('status').filter({ hasText: 'A PIN-kódod rövidebb 6 karakternél' });
  await expect(notice).toBeVisible();
  // Nothing is in the way: the app is usable with the notice open.
  await expect(page.getByRole('button', { name: 'Új bejegyzés' }).first()).toBeEnabled();
  await notice.getByRole('link', { name: 'PIN-kód módosítása' }).click();
  await expect(page).toHaveURL(/\/settings\/account#pin$/);
  const form = page.getByRole('form', { name: 'PIN-kód módosítása' });
  await form.getByLabel('Jelenlegi PIN-kód').fill('1234');
  await form.getByLabel('Új PIN-kód', { exact: true }).fill('975310');
  await form.getByLabel('Új PIN-kód újra').fill('975310');
  await form.getByRole('button', { name: 'PIN-kód módosítása' }).click();
  await expect(page.getByText('A PIN-kódot megváltoztattuk.')).toBeVisible();
  await expect(page.getByText('A PIN-kódod rövidebb 6 karakternél', { exact: false })).toHaveCount(0);

  await page.reload();
  await prompt.getByLabel('PIN-kód', { exact: true }).fill('1234');
  await prompt.getByRole('button', { name: 'Feloldás' }).click();
  await expect(prompt.getByRole('alert')).toHaveText('Hibás PIN-kód. Próbáld újra!');
  await prompt.getByLabel('PIN-kód', { exact: true }).fill('975310');
  await prompt.getByRole('button', { name: 'Feloldás' }).click();
  await expect(prompt).toBeHidden();
  await expect(page.getByText('A PIN-kódod rövidebb 6 karakternél', { exact: false })).toHaveCount(0);
});

test('cancelling the PIN prompt leaves the account read-only', async ({ context }) => {
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page);
  const sk = generateSecretKey();
  const result = await page.evaluate(
    (nsec) => (window.strucc!.api as unknown as { login: (r: unknown) => Promise<{ ok: boolean }> }).login({ method: 'nsec', nsec, pin: '432198', pinConfirm: '432198' }),
    nsecEncode(sk),
  );
  expect(result.ok).toBe(true);
  await page.reload();
  const prompt = page.getByRole('dialog', { name: 'PIN-kód megadása' });
  await prompt.getByRole('button', { name: 'Most nem' }).click();
  await expect(prompt).toBeHidden();
  await expect(chip(page)).toHaveAttribute('data-account-state', 'locked');
  await expect(chip(page)).toContainText(nameOf(getPublicKey(sk)));
});

test('a first-time guest gets the getting-started modal once; the chip opens it again', async ({ context }) => {
  // Automated browsers skip the welcome; this test plays a person's browser.
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }));
  const page = await context.newPage();
  await page.goto(`${base()}/home`);
  const welcome = page.getByRole('dialog', { name: 'Üdv a Struccon!' });
  await expect(welcome).toBeVisible();
  await expect(welcome.getByRole('button', { name: 'Fiók létrehozása' })).toBeVisible();
  await welcome.getByRole('button', { name: 'Körülnézek előbb' }).click();
  await expect(welcome).toBeHidden();
  await page.reload();
  await expect(chip(page).getByRole('button', { name: 'Bejelentkezés' })).toBeEnabled();
  await expect(welcome).toHaveCount(0);

  await chip(page).getByRole('button', { name: 'Mi az a Nostr? Első lépések' }).click();
  await expect(welcome).toBeVisible();
  await welcome.getByRole('button', { name: 'Bejelentkezés' }).click();
  await expect(page.getByRole('dialog', { name: 'Bejelentkezés' })).toBeVisible();
  await page.getByRole('link', { name: 'Nincs még fiókod? Hozz létre egyet' }).click();
  await expect(page).toHaveURL(/\/new$/);
  await expect(page.getByRole('heading', { name: 'Fiók létrehozása' })).toBeVisible();
});

test('a locked key: acting brings the PIN prompt back; once opened, the private key signs a note that reaches the server', async ({ context }) => {
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page);
  const sk = generateSecretKey();
  const pubkey = getPublicKey(sk);
  const result = await page.evaluate(
    (nsec) => (window.strucc!.api as unknown as { login: (r: unknown) => Promise<{ ok: boolean }> }).login({ method: 'nsec', nsec, pin: '246810', pinConfirm: '246810' }),
    nsecEncode(sk),
  );
  expect(result.ok).toBe(true);
  await page.reload();
  const prompt = page.getByRole('dialog', { name: 'PIN-kód megadása' });
  await prompt.getByRole('button', { name: 'Most nem' }).click();
  await expect(chip(page)).toHaveAttribute('data-account-state', 'locked');

  // Spec §4: with no open key but a PIN-protected one, an action opens the PIN prompt, not the login modal.
  await page.getByRole('button', { name: 'Új bejegyzés' }).first().click();
  await expect(prompt).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Bejelentkezés' })).toHaveCount(0);
  await prompt.getByLabel('PIN-kód', { exact: true }).fill('246810');
  await prompt.getByRole('button', { name: 'Feloldás' }).click();
  await expect(prompt).toBeHidden();
  await expect(chip(page)).toHaveAttribute('data-account-state', 'signedIn');

  await useLocalRelay(page);
  const since = Math.floor(Date.now() / 1000) - 5;
  await page.getByRole('button', { name: 'Új bejegyzés' }).first().click();
  const composer = page.getByRole('dialog');
  const text = composer.getByRole('textbox', { name: 'A bejegyzés szövege' });
  await text.fill('PIN-nel védett kulccsal aláírva #strucc');
  await text.press('Control+Enter');
  await expect(toast(page, 'Bejegyzés sikeresen közzétéve')).toBeVisible();
  const note = await latestEvent(pubkey, 1, since);
  expect(note.content).toBe('PIN-nel védett kulccsal aláírva #strucc');
  expect(note.tags).toContainEqual(['t', 'strucc']);

  // NIP-04 with the opened key (its ciphers load on first use in the worker): a private mute is encrypted to oneself.
  const hidden = getPublicKey(generateSecretKey());
  const muted = await page.evaluate(
    (pubkey) => (window.strucc!.api as unknown as Driven).accountAction({ type: 'mute', pubkey, private: true }),
    hidden,
  );
  expect(muted).toMatchObject({ ok: true });
  const list = await latestEvent(pubkey, 10000, since);
  expect(list.tags).not.toContainEqual(['p', hidden]);
  expect(JSON.parse(await nip04.decrypt(sk, pubkey, list.content))).toContainEqual(['p', hidden]);
});
