import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { decode } from 'nostr-tools/nip19';
import type { ActionResult } from '../../core/types.ts';
import { englishIn } from './support/catalogue.ts';
import { demoIds } from './support/routes.ts';
import { baseUrl, latestEvent, openApp, queryRelay, signIn, type Driven } from './support/session.ts';

// /bookmarks: the kind-10003 list of a fresh key, notes and articles in their tabs, loaded
// through the cache server; removal from the page shows in every tab and on the server.

const tagOf = (tags: string[][], name: string) => tags.find((t) => t[0] === name)?.[1] ?? '';

function bookmark(page: Page, tag: string[]): Promise<ActionResult> {
  return page.evaluate((tag) => (window.strucc!.api as unknown as Driven).accountAction({ type: 'bookmark', tag }), tag);
}

const notesList = (page: Page) => page.getByRole('list', { name: 'Könyvjelzővel mentett bejegyzések' });
const articlesList = (page: Page) => page.getByRole('list', { name: 'Könyvjelzővel mentett cikkek' });

test('a bookmarked note and article show in their tabs; removing one shows in every tab and on the server', async ({ context }) => {
  const ids = await demoIds();
  const address = decode(ids.naddr);
  if (address.type !== 'naddr') throw new Error('demo naddr');
  const coordinate = `30023:${address.data.pubkey}:${address.data.identifier}`;
  const [article] = await queryRelay({ kinds: [30023], authors: [address.data.pubkey], '#d': [address.data.identifier] });
  const title = tagOf(article.tags, 'title');
  expect(title).not.toBe('');

  const key = generateSecretKey();
  const me = getPublicKey(key);
  const since = Math.floor(Date.now() / 1000) - 5;
  const { page } = await signIn(context, key, '/bookmarks');
  await expect(page.getByText('Még nincs könyvjelződ a bejegyzések között')).toBeVisible();

  expect(await bookmark(page, ['e', ids.noteId])).toMatchObject({ ok: true });
  expect(await bookmark(page, ['a', coordinate])).toMatchObject({ ok: true });
  const other = (await queryRelay({ kinds: [1], limit: 20 })).find((e) => e.id !== ids.noteId)!.id;
  expect(await bookmark(page, ['e', other])).toMatchObject({ ok: true });
  await expect
    .poll(async () => {
      const list = await latestEvent(me, 10003, since);
      return list.tags.map((t) => t.join(':'));
    })
    .toEqual([`e:${ids.noteId}`, `a:${coordinate}`, `e:${other}`]);

  // Notes tab: the demo note with its real text, through NoteCard.
  const notesTab = page.getByRole('tab', { name: /Bejegyzések/ });
  await expect(notesTab).toHaveAttribute('aria-selected', 'true');
  await expect(notesTab).toContainText('2');
  const note = notesList(page).locator(`[data-note-id="${ids.noteId}"]`);
  await expect(note).toBeVisible();
  await expect(note).toContainText(ids.searchWord);
  // Newest bookmark first.
  await expect(notesList(page).locator(':scope > li')).toHaveCount(2);
  await expect(notesList(page).locator(':scope > li').first()).toHaveAttribute('data-bookmark', other);

  // Articles tab: the demo article's card with its title.
  await page.getByRole('tab', { name: /Cikkek/ }).click();
  await expect(articlesList(page).getByRole('heading', { name: title })).toBeVisible();
  await expect(articlesList(page)).toContainText('perc olvasás');
  await expect(notesList(page)).toHaveCount(0);

  // A second tab of the same browser sees the same list.
  const second = await context.newPage();
  await openApp(second, '/bookmarks');
  await second.getByRole('tab', { name: /Cikkek/ }).click();
  await expect(articlesList(second).getByRole('heading', { name: title })).toBeVisible();

  await articlesList(page).locator('.bookmark-remove').click();
  await expect(page.getByText('Eltávolítva a könyvjelzők közül')).toBeVisible();
  for (const p of [page, second]) {
    await expect(p.getByText('Még nincs könyvjelződ a cikkek között')).toBeVisible();
    await expect(p.getByRole('heading', { name: title })).toHaveCount(0);
  }
  await expect
    .poll(async () => {
      const list = await latestEvent(me, 10003, since);
      return list.tags.map((t) => t.join(':'));
    })
    .toEqual([`e:${ids.noteId}`, `e:${other}`]);

  // The note stays in its tab, in both browser tabs.
  for (const p of [page, second]) {
    await p.getByRole('tab', { name: /Bejegyzések/ }).click();
    await expect(notesList(p).locator(`[data-note-id="${ids.noteId}"]`)).toBeVisible();
  }
});

test('a key without bookmarks sees the empty state in both tabs', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey(), '/bookmarks');
  await expect(page.getByRole('heading', { level: 1, name: 'Könyvjelzők' })).toBeVisible();
  await expect(page.getByText('Még nincs könyvjelződ', { exact: true })).toBeVisible();
  await expect(page.getByText('Még nincs könyvjelződ a bejegyzések között')).toBeVisible();
  await page.getByRole('tab', { name: 'Cikkek' }).click();
  await expect(page.getByText('Még nincs könyvjelződ a cikkek között')).toBeVisible();
});

test('a guest is asked to sign in', async ({ page }) => {
  await page.goto(`${baseUrl()}/bookmarks`);
  await expect(page.getByRole('heading', { level: 1, name: 'Könyvjelzők' })).toBeVisible();
  await expect(page.getByText('Jelentkezz be a könyvjelzőidhez')).toBeVisible();
  await expect(page.getByRole('tab')).toHaveCount(0);
  await page.getByRole('main').getByRole('button', { name: 'Bejelentkezés' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('the bookmarks page has no serious accessibility violations', async ({ context }) => {
  const ids = await demoIds();
  const { page } = await signIn(context, generateSecretKey(), '/bookmarks');
  expect(await bookmark(page, ['e', ids.noteId])).toMatchObject({ ok: true });
  await expect(notesList(page).locator(`[data-note-id="${ids.noteId}"]`)).toBeVisible();
  // Signed in, with content and messages on screen, still no English.
  expect(englishIn(await page.locator('body').innerText()).map((p) => p.phrase)).toEqual([]);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const blocking = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
