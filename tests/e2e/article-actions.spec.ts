/**
 * An article acts like a note: like (with its address), bookmark (by address), reply (the
 * article as root) and the "…" menu, from the article page; each signed event read back from the
 * server's relay.
 */
import { expect, test } from '@playwright/test';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { decode } from 'nostr-tools/nip19';
import { demoIds } from './support/routes.ts';
import { latestEvent, signIn } from './support/session.ts';
import { toast } from './support/toast.ts';

const now = () => Math.floor(Date.now() / 1000);

test('an article is liked and bookmarked by its address, answered with the article as root, and its link copied', async ({ context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const ids = await demoIds();
  const address = decode(ids.naddr);
  if (address.type !== 'naddr') throw new Error('demo naddr');
  const coordinate = `30023:${address.data.pubkey}:${address.data.identifier}`;
  const key = generateSecretKey();
  const me = getPublicKey(key);
  const since = now() - 5;
  const { page } = await signIn(context, key, `/a/${ids.naddr}`);
  const bar = page.locator('.article-stats').first();
  await expect(bar.getByRole('button', { name: 'Kedvelés', exact: true })).toBeVisible({ timeout: 20_000 });
  const articleId = await page.locator('article.article').getAttribute('data-article-id');

  await bar.getByRole('button', { name: 'Kedvelés', exact: true }).click();
  await expect(bar.getByRole('button', { name: 'Kedvelés', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const like = await latestEvent(me, 7, since);
  expect(like.tags).toContainEqual(['a', coordinate]);
  expect(like.tags).toContainEqual(['p', address.data.pubkey]);
  expect(like.tags).toContainEqual(['k', '30023']);
  expect(like.tags).toContainEqual(['e', articleId!]);

  await bar.getByRole('button', { name: 'Könyvjelző' }).click();
  await expect(bar.getByRole('button', { name: 'Könyvjelző' })).toHaveAttribute('aria-pressed', 'true');
  const bookmarks = await latestEvent(me, 10003, since);
  expect(bookmarks.tags).toEqual([['a', coordinate]]);

  await bar.getByRole('button', { name: 'Válasz írása' }).click();
  const dialog = page.getByRole('dialog');
  const text = dialog.getByRole('textbox', { name: 'A bejegyzés szövege' });
  await text.fill('Nagyon jó cikk, köszönöm!');
  await text.press('Control+Enter');
  await expect(toast(page, 'Bejegyzés sikeresen közzétéve')).toBeVisible();
  const reply = await latestEvent(me, 1, since);
  expect(reply.tags.find((t) => t[0] === 'a')?.slice(0, 2)).toEqual(['a', coordinate]);
  expect(reply.tags.find((t) => t[0] === 'a')?.[3]).toBe('root');
  expect(reply.tags.filter((t) => t[0] === 'p').map((t) => t[1])).toContain(address.data.pubkey);

  await bar.getByRole('button', { name: 'További műveletek' }).click();
  await page.getByRole('menu', { name: 'Bejegyzés menü' }).getByRole('menuitem', { name: 'Link másolása' }).click();
  await expect(toast(page, 'Link másolva')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/\/a\/naddr1/);
});
