import { expect, test, type Page } from '@playwright/test';
import { naddrEncode, neventEncode, noteEncode } from 'nostr-tools/nip19';
import { demoUser } from '../../server/demo/accounts.ts';
import { cacheRequest } from './support/cache-client.ts';
import { base } from './support/base.ts';

const RANGE = 10000113;

interface CacheObj {
  kind: number;
  id?: string;
  pubkey?: string;
  created_at?: number;
  content?: string;
  tags?: string[][];
}

const cache = (command: string, payload: Record<string, unknown>) => cacheRequest<CacheObj>(command, payload);

interface ThreadShape {
  id: string;
  parents: string[];
  replies: string[];
}

/** thread_view's two RANGEs: the direct replies, then the parent chain ending with the note itself. */
async function threadOf(id: string): Promise<ThreadShape> {
  const objects = await cache('thread_view', { event_id: id, limit: 100 });
  const ranges = objects.filter((o) => o.kind === RANGE).map((o) => (JSON.parse(o.content ?? '{}') as { elements?: string[] }).elements ?? []);
  const chain = ranges.find((r) => r.includes(id)) ?? [id];
  const replyIds = ranges.find((r) => r !== chain) ?? [];
  const created = new Map(objects.filter((o) => o.kind === 1 && o.id).map((o) => [o.id as string, o.created_at ?? 0]));
  const replies = replyIds.filter((r) => created.has(r)).sort((a, b) => (created.get(b) ?? 0) - (created.get(a) ?? 0));
  return { id, parents: chain.slice(0, chain.indexOf(id)), replies };
}

/** A demo reply that has a parent and replies of its own, found through the cache socket. */
async function replyWithParentAndReplies(): Promise<ThreadShape> {
  let fallback: ThreadShape | undefined;
  for (let i = 1; i <= 40; i++) {
    const pubkey = demoUser(i).pubkey;
    const spec = JSON.stringify({ id: 'feed', kind: 'notes', notes: 'replies', pubkey });
    const feed = await cache('mega_feed_directive', { spec, limit: 20 });
    for (const reply of feed.filter((o) => o.kind === 1 && o.pubkey === pubkey && o.id)) {
      const shape = await threadOf(reply.id as string);
      if (shape.parents.length === 0) continue;
      if (shape.replies.length >= 2) return shape;
      if (shape.replies.length >= 1) fallback ??= shape;
    }
  }
  if (fallback) return fallback;
  throw new Error('no demo reply with a parent and replies');
}

async function noteIds(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('data-note-id') ?? ''));
}

let shape: ThreadShape;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  shape = await replyWithParentAndReplies();
});

test('a thread shows its parent chain, the focused note and the replies, newest first', async ({ page }) => {
  await page.goto(`${base()}/e/${shape.id}`);
  const focus = page.locator('.thread-focus');
  await expect(focus).toHaveAttribute('data-focused-note', shape.id);
  await expect(focus.locator('[data-note-id]')).toHaveAttribute('data-note-id', shape.id);
  // The full date under the focused note.
  await expect(page.locator('.thread-focus-date time')).toHaveText(/\d{4}\. \p{L}+ \d{1,2}\. \d{1,2}:\d{2}/u);

  await expect.poll(() => noteIds(page, '.thread-parent [data-note-id]')).toEqual(shape.parents);
  await expect.poll(() => noteIds(page, '.thread-replies [data-note-id]')).toEqual(shape.replies);
  await expect(page.locator('#thread-replies-title')).toHaveText(`${shape.replies.length} válasz`);

  // Each card links to its own thread.
  const firstReply = page.locator('.thread-replies [data-note-id]').first();
  await firstReply.locator('.note-time').click();
  await expect(page.locator('.thread-focus')).toHaveAttribute('data-focused-note', shape.replies[0]);
  await expect.poll(() => noteIds(page, '.thread-parent [data-note-id]')).toEqual([...shape.parents, shape.id]);
});

test('the focused note is scrolled into view below its parents', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.goto(`${base()}/thread/${shape.id}`);
  await expect(page.locator('.thread-focus')).toBeVisible();
  await expect.poll(() => page.locator('.thread-focus').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(200);
});

test('note1 and nevent1 ids open the same thread', async ({ page }) => {
  await page.goto(`${base()}/e/${noteEncode(shape.id)}`);
  await expect(page.locator('.thread-focus')).toHaveAttribute('data-focused-note', shape.id);
  await page.goto(`${base()}/e/${neventEncode({ id: shape.id })}`);
  await expect(page.locator('.thread-focus')).toHaveAttribute('data-focused-note', shape.id);
});

test('a bad id shows the error state, a well-formed unknown id the missing-note placeholder', async ({ page }) => {
  await page.goto(`${base()}/e/nem-egy-azonosito`);
  await expect(page.getByRole('alert')).toContainText('Hibás bejegyzésazonosító');
  await page.goto(`${base()}/e/note1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq`);
  await expect(page.getByRole('alert')).toContainText('Hibás bejegyzésazonosító');

  await page.goto(`${base()}/e/${'ab'.repeat(32)}`);
  await expect(page.locator('.missing-note')).toContainText('Ez a bejegyzés nem található');
  await expect(page.locator('[data-note-id]')).toHaveCount(0);
});

test('an naddr on /e/ goes to the article route', async ({ page }) => {
  const naddr = naddrEncode({ kind: 30023, pubkey: demoUser(1).pubkey, identifier: 'valami' });
  await page.goto(`${base()}/e/${naddr}`);
  await expect(page).toHaveURL(new RegExp(`/a/${naddr}$`));
});

test('phone layout: the thread fits the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base()}/e/${shape.id}`);
  await expect(page.locator('.thread-focus [data-note-id]')).toBeVisible();
  await expect(page.locator('.right-sidebar')).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
