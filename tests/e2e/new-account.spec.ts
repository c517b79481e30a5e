/**
 * /new end to end: the four steps through the UI (with a reload on the way), an avatar uploaded
 * to the server's Blossom endpoint, suggested follows, the key saved; then the published kind 0,
 * kind 3 and kind 10002 are read back from the server's relay.
 */
import { deflateSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { decode } from 'nostr-tools/nip19';
import { getPublicKey } from 'nostr-tools/pure';
import { enableDevMode } from './support/nip07-stub.ts';
import { latestEvent, openApp, relayUrl, useLocalRelay, type Driven } from './support/session.ts';
import type { AccountSnapshot } from '../../core/types.ts';

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A 4×4 PNG of one random colour, so every run uploads a new blob. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4, 0);
  ihdr.writeUInt32BE(4, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const rgb = [0, 1, 2].map(() => Math.floor(Math.random() * 256));
  const row = Buffer.from([0, ...rgb, ...rgb, ...rgb, ...rgb]);
  const raw = Buffer.concat([row, row, row, row]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

test('the four steps create, sign in and publish a new account', async ({ context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page, '/new');
  await useLocalRelay(page);
  const since = Math.floor(Date.now() / 1000) - 5;

  // Step 1: username rule and the values document, both required.
  await expect(page.getByRole('heading', { name: 'Válassz felhasználónevet' })).toBeVisible();
  await expect(page.locator('[aria-current="step"]')).toContainText('Felhasználónév');
  const username = page.getByLabel('Felhasználónév', { exact: true });
  await username.fill('kis pista');
  await page.getByRole('button', { name: 'Tovább' }).click();
  await expect(page.getByText('Ékezetek, szóközök, speciális karakterek nem használhatók a felhasználónévben.')).toBeVisible();
  await expect(page.getByText('A folytatáshoz el kell fogadnod a Közösségi értékeinket.')).toBeVisible();
  await expect(username).toHaveValue('kis pista');

  const name = `pista_${Date.now().toString(36)}`;
  await username.fill(name);
  await page.getByRole('button', { name: 'Közösségi értékeink elolvasása' }).click();
  const values = page.getByRole('dialog', { name: 'Közösségi értékeink' });
  await expect(values).toContainText('Tisztelet');
  await values.getByRole('button', { name: 'Elolvastam' }).click();
  await page.getByRole('button', { name: 'Tovább' }).click();
  await expect(page.getByText('A folytatáshoz el kell fogadnod a Közösségi értékeinket.')).toBeVisible();
  await page.getByLabel('Elfogadom a Közösségi értékeinket').check();
  await page.getByRole('button', { name: 'Tovább' }).click();

  // Step 2: the key exists and is signed in, so the avatar upload can be signed.
  await expect(page.getByRole('heading', { name: 'Mutasd be magad' })).toBeVisible();
  await page.getByLabel('Megjelenített név').fill('Kis Pista');
  await page.getByLabel('Bemutatkozás').fill('Szia, új vagyok a Nostron!');
  await page.locator('.image-field-avatar input[type="file"]').setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: tinyPng() });
  const avatar = page.locator('.image-field-avatar .image-field-preview img');
  await expect(avatar).toHaveAttribute('src', /^https?:\/\//);
  const pictureUrl = (await avatar.getAttribute('src'))!;

  // A reload keeps what was typed and the step.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Mutasd be magad' })).toBeVisible();
  await expect(page.getByLabel('Megjelenített név')).toHaveValue('Kis Pista');
  await expect(avatar).toHaveAttribute('src', pictureUrl);
  await useLocalRelay(page);
  await page.getByRole('button', { name: 'Tovább' }).click();

  // Step 3: suggestions preselected; "follow all", then leave one out.
  await expect(page.getByRole('heading', { name: 'Kiket kövess?' })).toBeVisible();
  const boxes = page.locator('.wizard-person input[type="checkbox"]');
  await expect(boxes.first()).toBeVisible();
  const count = await boxes.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) await expect(boxes.nth(i)).toBeChecked();
  await page.getByRole('button', { name: 'Egyiket sem' }).click();
  await expect(boxes.first()).not.toBeChecked();
  await page.getByRole('button', { name: 'Mindet követem' }).click();
  await expect(boxes.first()).toBeChecked();
  await boxes.last().uncheck();
  const chosen: string[] = [];
  for (let i = 0; i < count - 1; i++) chosen.push((await boxes.nth(i).getAttribute('data-pubkey'))!);
  await page.getByRole('button', { name: 'Tovább' }).click();

  // Step 4: the key hidden until revealed; copy and download; the warning.
  await expect(page.getByRole('heading', { name: 'Mentsd el a privát kulcsodat' })).toBeVisible();
  await expect(page.getByText('sem a Strucc, sem más nem tudja visszaállítani', { exact: false })).toBeVisible();
  const key = page.getByTestId('new-nsec');
  await expect(key).not.toContainText('nsec1');
  await page.getByRole('button', { name: 'Megjelenítés' }).click();
  await expect(key).toContainText('nsec1');
  const nsec = (await key.textContent())!.trim();
  const decoded = decode(nsec);
  expect(decoded.type).toBe('nsec');
  const pubkey = getPublicKey(decoded.data as Uint8Array);

  await page.getByRole('button', { name: 'Másolás' }).click();
  await expect(page.getByText('A privát kulcs a vágólapra került')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(nsec);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Letöltés .txt fájlként' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.txt$/);
  const file = await download.path().then((p) => import('node:fs/promises').then((fs) => fs.readFile(p, 'utf8')));
  expect(file).toContain(nsec);

  await page.getByRole('button', { name: 'Kész, indulhatunk' }).click();
  await expect(page.getByText('Erősítsd meg, hogy elmentetted a privát kulcsodat.')).toBeVisible();
  await page.getByLabel('Elmentettem a privát kulcsomat biztonságos helyre').check();
  await page.getByRole('button', { name: 'Kész, indulhatunk' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.locator('.side-nav .account-chip')).toContainText('Kis Pista');
  // The account record knows the new follows at once (follow buttons elsewhere read it).
  const following = await page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const { api, tabId, proxy } = window.strucc as unknown as { api: Driven; tabId: string; proxy: <T>(f: T) => T };
        void api.watchAccount(
          tabId,
          proxy((s: AccountSnapshot) => {
            if (s.account?.following.length) resolve(s.account.following);
          }),
        );
      }),
  );
  expect([...following].sort()).toEqual([...chosen].sort());

  const profile = await latestEvent(pubkey, 0, since);
  expect(JSON.parse(profile.content)).toMatchObject({ name, display_name: 'Kis Pista', picture: pictureUrl, about: 'Szia, új vagyok a Nostron!' });
  const contacts = await latestEvent(pubkey, 3, since);
  expect(contacts.tags.filter((t) => t[0] === 'p').map((t) => t[1]).sort()).toEqual([...chosen].sort());
  const relays = await latestEvent(pubkey, 10002, since);
  expect(relays.tags.map((t) => t[1])).toContain(relayUrl());
});
