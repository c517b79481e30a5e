import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import type { StruccDevtools } from '../../src/lib/devtools.ts';
import { englishIn } from './support/catalogue.ts';
import { demoIds } from './support/routes.ts';
import { baseUrl, latestEvent, relayUrl, signIn, useLocalRelay, type Driven } from './support/session.ts';
import { toasts } from './support/toast.ts';

// /reads/edit: a fresh key writes an article with a live, sanitised preview, keeps the draft
// across a reload, publishes a kind 30023 and edits it again under the same d.

const tagOf = (tags: string[][], name: string) => tags.filter((t) => t[0] === name).map((t) => t[1]);
const nowSeconds = () => Math.floor(Date.now() / 1000);

const BODY = [
  '## Alcím a cikkben',
  '',
  'Ez **félkövér** szöveg egy [hivatkozással](https://example.com/).',
  '',
  '<script>window.__pwned = true</script>',
  '',
  '<img src="x" onerror="window.__pwned = true">',
  '',
  'lista elem',
].join('\n');

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const preview = (page: Page) => page.getByRole('article', { name: 'A cikk előnézete' });
const chips = (page: Page) => page.getByRole('list', { name: 'A cikk témái' }).getByRole('listitem');

test('write with a live preview, keep the draft over a reload, publish, then edit under the same d', async ({ context }) => {
  const key = generateSecretKey();
  const me = getPublicKey(key);
  const since = nowSeconds() - 5;
  const { page } = await signIn(context, key, '/reads');
  await page.getByRole('link', { name: 'Cikk írása' }).click();
  await expect(page).toHaveURL(/\/reads\/edit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Cikk írása' })).toBeVisible();

  // Nothing typed yet: both required fields are refused in Hungarian, the title gets the focus.
  await page.getByRole('button', { name: 'Közzététel' }).click();
  await expect(page.getByText('Adj meg egy címet a cikknek.')).toBeVisible();
  await expect(page.getByText('Írd meg a cikk szövegét.')).toBeVisible();
  await expect(field(page, 'Cím')).toBeFocused();

  await field(page, 'Cím').fill('Árvíztűrő tükörfúrógép próba');
  await field(page, 'Összefoglaló').fill('Egy rövid összefoglaló a próbacikkről.');
  const topics = field(page, 'Témák');
  await topics.fill('Nostr');
  await topics.press('Enter');
  await topics.pressSequentially('Magyar,');
  await topics.fill('#NOSTR');
  await topics.press('Enter');
  await expect(chips(page)).toHaveText(['#nostr×', '#magyar×']);
  await field(page, 'A cikk szövege').fill(BODY);
  // The toolbar works on the line of the caret (the last one): it becomes a list item.
  await page.getByRole('button', { name: 'Felsorolás' }).click();
  await expect(field(page, 'A cikk szövege')).toHaveValue(BODY.replace('lista elem', '- lista elem'));

  // The preview is the article page's renderer: Markdown rendered, raw HTML inert.
  await expect(preview(page).getByRole('heading', { level: 2, name: 'Alcím a cikkben' })).toBeVisible();
  await expect(preview(page).locator('strong')).toHaveText('félkövér');
  await expect(preview(page).locator('.article-body li')).toHaveText('lista elem');
  await expect(preview(page).getByRole('heading', { name: 'Árvíztűrő tükörfúrógép próba' })).toBeVisible();
  await expect(preview(page).locator('script, img[onerror]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
  await expect(page.getByText('Piszkozat mentve')).toBeVisible();

  // The draft survives a reload.
  await page.reload();
  await page.waitForFunction(() => window.strucc !== undefined);
  // The reload may have started a new worker, which knows the relay only from the test.
  await useLocalRelay(page);
  await expect(page.getByText('A legutóbbi piszkozatodat töltöttük be.')).toBeVisible();
  await expect(field(page, 'Cím')).toHaveValue('Árvíztűrő tükörfúrógép próba');
  await expect(field(page, 'Összefoglaló')).toHaveValue('Egy rövid összefoglaló a próbacikkről.');
  await expect(chips(page)).toHaveText(['#nostr×', '#magyar×']);
  await expect(field(page, 'A cikk szövege')).toHaveValue(BODY.replace('lista elem', '- lista elem'));

  await page.getByRole('button', { name: 'Közzététel' }).click();
  await expect(page.getByText('Cikk sikeresen közzétéve')).toBeVisible();
  await expect(page).toHaveURL(/\/a\/naddr1/);
  await expect(page.getByRole('heading', { level: 1, name: 'Árvíztűrő tükörfúrógép próba' })).toBeVisible();
  await expect(page.locator('.article-body').getByRole('heading', { name: 'Alcím a cikkben' })).toBeVisible();

  const first = await latestEvent(me, 30023, since);
  const d = tagOf(first.tags, 'd')[0];
  expect(d).toMatch(/^arvizturo-tukorfurogep-proba-[0-9a-z]{6}$/);
  expect(tagOf(first.tags, 'title')).toEqual(['Árvíztűrő tükörfúrógép próba']);
  expect(tagOf(first.tags, 'summary')).toEqual(['Egy rövid összefoglaló a próbacikkről.']);
  expect(tagOf(first.tags, 't')).toEqual(['nostr', 'magyar']);
  expect(tagOf(first.tags, 'published_at')).toEqual([String(first.created_at)]);
  expect(first.content).toBe(BODY.replace('lista elem', '- lista elem'));

  // A replaceable event needs a later created_at than the one it replaces.
  await expect.poll(nowSeconds).toBeGreaterThan(first.created_at);
  await page.getByRole('link', { name: 'Szerkesztés' }).click();
  await expect(page).toHaveURL(/\/reads\/edit\?naddr=naddr1/);
  await expect(page.getByRole('heading', { level: 1, name: 'Cikk szerkesztése' })).toBeVisible();
  await expect(field(page, 'Cím')).toHaveValue('Árvíztűrő tükörfúrógép próba');
  await expect(chips(page)).toHaveText(['#nostr×', '#magyar×']);
  await field(page, 'Cím').fill('Árvíztűrő tükörfúrógép, javítva');
  await field(page, 'A cikk szövege').fill('## Új alcím\n\nAz átírt szöveg.');
  await page.getByRole('button', { name: 'Magyar téma eltávolítása', exact: false }).click();
  await page.getByRole('button', { name: 'Módosítások közzététele' }).click();
  await expect(page.getByText('Cikk sikeresen frissítve')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Árvíztűrő tükörfúrógép, javítva' })).toBeVisible();
  await expect(page.locator('.article-body')).toContainText('Az átírt szöveg.');

  const second = await latestEvent(me, 30023, first.created_at + 1);
  expect(tagOf(second.tags, 'd')).toEqual([d]);
  expect(tagOf(second.tags, 'title')).toEqual(['Árvíztűrő tükörfúrógép, javítva']);
  expect(tagOf(second.tags, 't')).toEqual(['nostr']);
  expect(tagOf(second.tags, 'published_at')).toEqual([String(first.created_at)]);
  expect(second.content).toBe('## Új alcím\n\nAz átírt szöveg.');

  // Publishing emptied the new-article draft: the editor starts blank again.
  await page.goto(`${baseUrl()}/reads/edit`);
  await expect(field(page, 'Cím')).toHaveValue('');
  await expect(page.getByText('A legutóbbi piszkozatodat töltöttük be.')).toHaveCount(0);
});

test('a failed publish keeps everything that was typed', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey(), '/reads/edit');
  await field(page, 'Cím').fill('Nem jut ki');
  await field(page, 'A cikk szövege').fill('Szöveg, ami megmarad.');
  // Without its only write relay the worker cannot publish anywhere.
  await page.evaluate((relay) => (window.strucc as StruccDevtools & { api: Driven }).api.removeRelay(relay), relayUrl());
  await page.getByRole('button', { name: 'Közzététel' }).click();
  await expect(page.getByRole('button', { name: 'Közzététel' })).toBeEnabled();
  await expect(toasts(page, 'error')).toHaveText([/Nincs csatlakoztatott relé|A cikked megmaradt, próbáld újra/]);
  await expect(page).toHaveURL(/\/reads\/edit$/);
  await expect(field(page, 'Cím')).toHaveValue('Nem jut ki');
  await expect(field(page, 'A cikk szövege')).toHaveValue('Szöveg, ami megmarad.');
  await page.reload();
  await expect(field(page, 'Cím')).toHaveValue('Nem jut ki');
});

test('phones switch between writing and the preview with tabs', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey(), '/reads/edit');
  await page.setViewportSize({ width: 390, height: 844 });
  await field(page, 'Cím').fill('Telefonon');
  await field(page, 'A cikk szövege').fill('# Telefonos cím');
  await expect(preview(page)).toBeHidden();
  await page.getByRole('tab', { name: 'Előnézet' }).click();
  await expect(preview(page).getByRole('heading', { level: 1, name: 'Telefonos cím' })).toBeVisible();
  await expect(field(page, 'Cím')).toBeHidden();
  await page.getByRole('tab', { name: 'Szerkesztés' }).click();
  await expect(field(page, 'Cím')).toHaveValue('Telefonon');
});

test('only your own articles open for editing; guests are asked to sign in', async ({ context, browser }) => {
  const ids = await demoIds();
  const { page } = await signIn(context, generateSecretKey(), `/reads/edit?naddr=${ids.naddr}`);
  await expect(page.getByText('Csak a saját cikkeidet szerkesztheted')).toBeVisible();
  await expect(field(page, 'Cím')).toHaveCount(0);

  const guest = await browser.newPage();
  await guest.goto(`${baseUrl()}/reads/edit`);
  await expect(guest.getByText('Jelentkezz be a cikkíráshoz')).toBeVisible();
  await expect(guest.getByLabel('Cím', { exact: true })).toHaveCount(0);
  await guest.close();
});

for (const theme of ['sunrise', 'sunset'] as const) {
  test(`the editor has no serious accessibility violations (${theme})`, async ({ context }) => {
    await context.addInitScript((name) => localStorage.setItem('theme', name), theme);
    const { page } = await signIn(context, generateSecretKey(), '/reads/edit');
    // No title: publishing stops at the validation message, which the scan covers too.
    await field(page, 'Összefoglaló').fill('Akadálymentes cikk');
    await field(page, 'Témák').fill('próba');
    await field(page, 'Témák').press('Enter');
    await field(page, 'A cikk szövege').fill('# Cím\n\nSzöveg [hivatkozással](https://example.com/).\n\n> Idézet');
    await page.getByRole('button', { name: 'Közzététel' }).click();
    await expect(page.getByText('Adj meg egy címet a cikknek.')).toBeVisible();
    // Signed in, with content and messages on screen, still no English.
    expect(englishIn(await page.locator('body').innerText()).map((p) => p.phrase)).toEqual([]);
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const blocking = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}

// A real 1×1 PNG: the server checks what it stores.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('the cover and an image in the body upload through the server; other files are refused', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey(), '/reads/edit');
  await page.locator('.editor-cover input[type="file"]').setInputFiles({ name: 'borito.png', mimeType: 'image/png', buffer: PNG });
  await expect(field(page, 'Borítókép')).toHaveValue(/^https?:\/\/.+/);
  await expect(page.getByRole('img', { name: 'A borítókép előnézete' })).toBeVisible();

  await field(page, 'A cikk szövege').fill('Bevezető');
  await page.locator('.editor-toolbar input[type="file"]').setInputFiles({ name: 'abra.png', mimeType: 'image/png', buffer: PNG });
  await expect(field(page, 'A cikk szövege')).toHaveValue(/^Bevezető\n\n!\[abra\]\(https?:\/\/[^)]+\)\n\n$/);
  await expect(preview(page).locator('.article-body img')).toHaveCount(1);

  await page.locator('.editor-cover input[type="file"]').setInputFiles({ name: 'jegyzet.txt', mimeType: 'text/plain', buffer: Buffer.from('szöveg') });
  await expect(page.getByText('Nem támogatott fájltípus: ide csak képet tölthetsz fel.')).toBeVisible();
  await expect(field(page, 'A cikk szövege')).toHaveValue(/^Bevezető/);
});
