/**
 * Login through a remote signer (NIP-46) in the browser: our test bunker (tests/support/bunker.ts)
 * holds the user's key and answers over the server's own /relay. The shared worker holds the one
 * session, so the second tab shows the same user, a follow signed by the bunker reaches the relay,
 * and after every tab closed the stored session signs again without a new connect.
 */
import { expect, test, type Page } from '@playwright/test';
import { npubEncode } from 'nostr-tools/nip19';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { displayName, emptyProfile } from '../../core/profile.ts';
import { startBunker, type TestBunker } from '../support/bunker.ts';
import { enableDevMode } from './support/nip07-stub.ts';
import { baseUrl, type Driven, latestEvent, openApp, publishAccepted, relayUrl, useLocalRelay } from './support/session.ts';

const now = () => Math.floor(Date.now() / 1000);
const chip = (page: Page) => page.locator('.side-nav .account-chip');

let bunker: TestBunker | undefined;
test.afterEach(() => {
  bunker?.close();
  bunker = undefined;
});

test('bunker:// login in one tab, the second tab shows the user, a follow is signed remotely, the session survives closing every tab', async ({ context }) => {
  const userSecret = generateSecretKey();
  const me = getPublicKey(userSecret);
  // Two contacts already, so a follow is not held by the "fewer than 2 contacts" repair dialog.
  const existing = [getPublicKey(generateSecretKey()), getPublicKey(generateSecretKey())];
  await publishAccepted(finalizeEvent({ kind: 3, created_at: now() - 60, tags: existing.map((p) => ['p', p]), content: '' }, userSecret));
  const personKey = generateSecretKey();
  const person = getPublicKey(personKey);
  const personName = `Távoli ${person.slice(0, 6)}`;
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now() - 60, tags: [], content: JSON.stringify({ name: personName }) }, personKey));
  await publishAccepted(finalizeEvent({ kind: 1, created_at: now() - 30, tags: [], content: 'Helló!' }, personKey));
  bunker = await startBunker([relayUrl()], userSecret);

  await enableDevMode(context);
  const a = await context.newPage();
  const b = await context.newPage();
  await openApp(a);
  await openApp(b);

  await chip(a).getByRole('button', { name: 'Bejelentkezés' }).click();
  const dialog = a.getByRole('dialog', { name: 'Bejelentkezés' });
  await expect(dialog.getByRole('heading', { name: 'Távoli aláíró (NIP-46)' })).toBeVisible();
  const field = dialog.getByLabel('Távoli aláíró címe (bunker://)');
  await field.fill('bunker://rossz');
  await dialog.getByRole('button', { name: 'Bejelentkezés távoli aláíróval' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Ez nem érvényes bunker:// cím');
  await field.fill(bunker.uri);
  await dialog.getByRole('button', { name: 'Bejelentkezés távoli aláíróval' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });

  const name = displayName(emptyProfile(me));
  for (const page of [a, b]) {
    await expect(chip(page)).toContainText(name);
    await expect(chip(page).getByRole('button', { name: 'Kijelentkezés' })).toBeVisible();
  }
  const connect = bunker.requests.find((r) => r.method === 'connect');
  expect(connect?.params[2].split(',')).toEqual(expect.arrayContaining(['sign_event:3', 'nip44_encrypt', 'nip04_decrypt']));

  // The follow button of the second tab: its signature comes from the bunker through the worker.
  await useLocalRelay(b);
  await b.goto(`${baseUrl()}/p/${npubEncode(person)}`);
  const follow = b.locator('.profile-header .follow-button');
  await expect(async () => {
    await expect(follow).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 40_000 });
  await follow.click();
  const followed = await latestEvent(me, 3, now() - 30, { '#p': [person] });
  expect(followed.tags).toEqual(expect.arrayContaining([...existing.map((p) => ['p', p]), ['p', person]]));
  expect(bunker.requests.some((r) => r.method === 'sign_event' && JSON.parse(r.params[0]).kind === 3)).toBe(true);

  // The account page says which signer is in use.
  await a.goto(`${baseUrl()}/settings/account`);
  const signer = a.getByTestId('account-remote-signer');
  await expect(signer).toContainText('Távoli aláíró (NIP-46)');
  await expect(signer).toContainText(relayUrl());

  // Every tab closes, so the worker ends; a new tab's worker reopens the stored session.
  const connects = bunker.requests.filter((r) => r.method === 'connect').length;
  await a.close();
  await b.close();
  const c = await context.newPage();
  await openApp(c);
  await expect(chip(c)).toContainText(name, { timeout: 20_000 });
  await useLocalRelay(c);
  const other = getPublicKey(generateSecretKey());
  const result = await c.evaluate((pubkey) => (window.strucc!.api as unknown as Driven).accountAction({ type: 'follow', pubkey }), other);
  expect(result).toEqual({ ok: true });
  const again = await latestEvent(me, 3, now() - 30, { '#p': [other] });
  expect(again.tags).toContainEqual(['p', person]);
  expect(bunker.requests.filter((r) => r.method === 'connect').length).toBe(connects);
});

test('the nostrconnect:// QR code: a signer app accepts it and the login completes', async ({ context }) => {
  const userSecret = generateSecretKey();
  bunker = await startBunker([relayUrl()], userSecret);
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page);
  // The offer listens on the pool's write relays: here the server's own.
  await useLocalRelay(page);
  await chip(page).getByRole('button', { name: 'Bejelentkezés' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bejelentkezés' });
  await dialog.getByRole('button', { name: 'QR-kód aláíró alkalmazáshoz' }).click();
  const qr = dialog.getByTestId('nostrconnect-qr');
  await expect(qr).toBeVisible();
  await expect(qr.getByRole('status')).toContainText('Várakozás az aláíró alkalmazásra');
  const uri = (await qr.getAttribute('data-uri')) ?? '';
  expect(new URL(uri).searchParams.getAll('relay')).toContain(relayUrl());
  await bunker.acceptNostrConnect(uri);
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(chip(page)).toContainText(displayName(emptyProfile(getPublicKey(userSecret))));
});
