import { expect, test } from '@playwright/test';
import WebSocket from 'ws';
import { finalizeEvent } from 'nostr-tools/pure';
import { demoUser } from '../../server/demo/accounts.ts';
import { DEFAULT_GUEST_PUBKEY } from '../../core/config.ts';
import { base, serverStatus, wsUrl } from './support/base.ts';
import { cacheRequest } from './support/cache-client.ts';
import { watchWorkerFrames } from './support/worker-frames.ts';


interface CacheObj {
  kind: number;
  id?: string;
  pubkey?: string;
  content?: string;
  tags?: string[][];
}

const cache = (command: string, payload: Record<string, unknown> = {}) => cacheRequest<CacheObj>(command, payload);

function content<T>(objects: CacheObj[], kind: number): T {
  const obj = objects.find((o) => o.kind === kind);
  if (!obj?.content) throw new Error(`no ${kind} in the reply`);
  return JSON.parse(obj.content) as T;
}

const rangeOf = (objects: CacheObj[]) => content<{ elements: string[] }>(objects, 10000113).elements;

function nameOf(objects: CacheObj[], pubkey: string): string {
  const meta = objects.find((o) => o.kind === 0 && o.pubkey === pubkey);
  const m = JSON.parse(meta?.content ?? '{}') as { display_name?: string; name?: string };
  return m.display_name || m.name || '';
}

const fmt = (n: number) => new Intl.NumberFormat('hu-HU').format(n);

test('the feeds tab shows explore latest by default, and trending when chosen', async ({ page }) => {
  const latest = rangeOf(await cache('explore', { timeframe: 'latest', scope: 'global', limit: 20, user_pubkey: DEFAULT_GUEST_PUBKEY }));
  await page.goto(`${base()}/explore`);
  await expect(page.getByRole('heading', { level: 1, name: 'Felfedezés' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Hírfolyamok' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Legújabb' })).toHaveAttribute('aria-pressed', 'true');
  const cards = page.locator('[data-note-id]');
  await expect(cards.first()).toHaveAttribute('data-note-id', latest[0]);
  await expect(cards.nth(1)).toHaveAttribute('data-note-id', latest[1]);

  const trending = rangeOf(await cache('explore', { timeframe: 'trending', scope: 'global', limit: 20, user_pubkey: DEFAULT_GUEST_PUBKEY }));
  await page.getByRole('button', { name: 'Felkapott' }).click();
  await expect(page).toHaveURL(/timeframe=trending/);
  await expect(cards.first()).toHaveAttribute('data-note-id', trending[0]);
  // A guest has no network of their own: only "everyone" is offered.
  await expect(page.getByRole('group', { name: 'Kiktől' })).toHaveCount(0);
});

test('people, zaps, media and topics tabs show what the server returns', async ({ page }) => {
  const people = await cache('explore_people', { limit: 10, offset: 0 });
  const gains = content<Record<string, { increase: number }>>(people, 10000157);
  const firstPerson = rangeOf(people)[0];
  await page.goto(`${base()}/explore?tab=people`);
  await expect(page.getByRole('tab', { name: 'Emberek' })).toHaveAttribute('aria-selected', 'true');
  const row = page.locator(`[data-pubkey="${firstPerson}"]`);
  await expect(row).toContainText(nameOf(people, firstPerson));
  await expect(row).toContainText(`+${gains[firstPerson].increase} követő`);

  const zaps = await cache('explore_zaps', { limit: 20, offset: 0 });
  const firstZap = rangeOf(zaps)[0];
  const info = (zaps.filter((o) => o.kind === 10000129).map((o) => JSON.parse(o.content!)) as { zap_receipt_id: string; sender: string; receiver: string; amount_sats: number }[]).find(
    (z) => z.zap_receipt_id === firstZap,
  )!;
  await page.getByRole('tab', { name: 'Zapek' }).click();
  await expect(page).toHaveURL(/tab=zaps/);
  const zapRow = page.locator(`[data-zap-id="${firstZap}"]`);
  await expect(zapRow).toContainText(nameOf(zaps, info.sender));
  await expect(zapRow).toContainText(nameOf(zaps, info.receiver));
  await expect(zapRow.locator('.zap-amount')).toContainText('sat');

  const media = rangeOf(await cache('explore_media', { limit: 20, user_pubkey: DEFAULT_GUEST_PUBKEY }));
  await page.getByRole('tab', { name: 'Média' }).click();
  const tile = page.locator('.media-grid [data-note-id]').first();
  await expect(tile).toHaveAttribute('data-note-id', media[0]);
  const img = tile.locator('img');
  await expect(img).toHaveAttribute('src', /\/media-cache\?/);
  await expect(img).toHaveAttribute('alt', /.+/);
  await tile.getByRole('link').click();
  await expect(page).toHaveURL(/\/e\/nevent1/);
  await expect(page.locator(`[data-focused-note="${media[0]}"], [data-note-id="${media[0]}"]`).first()).toBeVisible();
});

test('topics are sized chips that open a hashtag search', async ({ page }) => {
  const topics = content<Record<string, number>>(await cache('explore_topics'), 10000160);
  const [top] = Object.entries(topics).sort((a, b) => b[1] - a[1]);
  await page.goto(`${base()}/explore?tab=topics`);
  const chips = page.locator('.topic-chip');
  await expect(chips.first()).toContainText(`#${top[0]}`);
  expect(await chips.count()).toBe(Object.keys(topics).length);
  const big = await chips.first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const small = await chips.last().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(big).toBeGreaterThan(small);
  await chips.first().click();
  await expect(page).toHaveURL(new RegExp(`/search/${encodeURIComponent(`#${top[0]}`)}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Keresés: „#${top[0]}”`);
  await expect(page.locator('[data-note-id]').first()).toContainText(new RegExp(`#${top[0]}`, 'i'));
});

test('network stats are live: non-zero numbers that move when a note arrives', async ({ page, browser }) => {
  await page.goto(`${base()}/home`);
  const frames = await watchWorkerFrames(browser);
  // In-app links from here on: a page load could take the shared worker (and its socket) with it.
  await page.locator('.side-nav').getByRole('link', { name: 'Felfedezés', exact: true }).click();
  await expect(page).toHaveURL(/\/explore$/);
  const notes = page.locator('[data-stat="pubnotes"]');
  await expect(notes).not.toHaveText('–');
  const before = Number((await notes.innerText()).replace(/\D/g, ''));
  expect(before).toBeGreaterThan(0);
  await expect(page.locator('[data-stat="users"]')).not.toHaveText(/^[0–]$/);

  const note = finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content: `Élő számláló próbája ${Date.now()}` }, demoUser(3).secretKey);
  const ok = await new Promise<boolean>((resolve, reject) => {
    const ws = new WebSocket(wsUrl('/relay'));
    ws.on('open', () => ws.send(JSON.stringify(['EVENT', note])));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as unknown[];
      if (msg[0] === 'OK') (ws.close(), resolve(msg[2] === true));
    });
    ws.on('error', reject);
  });
  expect(ok).toBe(true);
  await expect(notes).toHaveText(fmt(before + 1), { timeout: 15_000 });

  // Leaving the page closes the subscription: the worker sends CLOSE for the net_stats REQ on the socket it keeps.
  const req = frames.sent.find((f) => f[0] === 'REQ' && JSON.stringify(f[2]).includes('"net_stats"'));
  expect(req).toEqual(['REQ', expect.any(String), expect.objectContaining({ cache: expect.arrayContaining(['net_stats']) })]);
  expect(frames.sent.some((f) => f[0] === 'CLOSE' && f[1] === req![1])).toBe(false);
  // And the server agrees: it holds this tab's one net_stats subscription, and none once the CLOSE lands.
  const netStats = async () => (await serverStatus()).asyncSubscriptions.net_stats ?? 0;
  await expect.poll(netStats).toBe(1);
  await page.locator('.side-nav').getByRole('link', { name: 'Kezdőlap', exact: true }).click();
  await expect(page.locator('[data-stat="pubnotes"]')).toHaveCount(0);
  await expect.poll(() => frames.sent.some((f) => f[0] === 'CLOSE' && f[1] === req![1])).toBe(true);
  await expect.poll(netStats).toBe(0);
  await frames.detach();
});

test('the legend panel explains itself to a guest in Hungarian', async ({ page }) => {
  await page.goto(`${base()}/explore`);
  const panel = page.getByRole('region', { name: 'A te hálózatod' });
  await expect(panel).toContainText('Bejelentkezve itt látod');
});

test('the tab list works from the keyboard', async ({ page }) => {
  await page.goto(`${base()}/explore`);
  const feeds = page.getByRole('tab', { name: 'Hírfolyamok' });
  await feeds.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Emberek' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Emberek' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/tab=people/);
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Témák' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'explore-tab-topics');
});

test('/explore/feed/{id} opens a catalogue feed, an unknown id says so', async ({ page }) => {
  const feeds = JSON.parse((await cache('get_advanced_feeds')).find((o) => o.kind === 10000150)!.content!) as { name: string; specification: string }[];
  const images = feeds.find((f) => f.name === 'Képek')!;
  const expected = rangeOf(await cache('mega_feed_directive', { spec: images.specification, limit: 20, user_pubkey: DEFAULT_GUEST_PUBKEY }));
  await page.goto(`${base()}/explore`);
  await page.getByRole('navigation', { name: 'Hírfolyam-katalógus' }).getByRole('link', { name: /Képek/ }).click();
  await expect(page).toHaveURL(/\/explore\/feed\/kepek$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Képek');
  await expect(page.locator('[data-note-id]').first()).toHaveAttribute('data-note-id', expected[0]);

  await page.goto(`${base()}/explore/feed/nincs-ilyen-hirfolyam`);
  await expect(page.getByText('Nincs ilyen hírfolyam')).toBeVisible();
});

test('phone layout: tabs, panels and the media grid fit a 390 px screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base()}/explore?tab=media`);
  await expect(page.locator('.media-grid [data-note-id]').first()).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Média' })).toBeVisible();
  const columns = await page.locator('.media-grid').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
  expect(columns).toBe(2);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('tab', { name: 'Emberek' }).click();
  await expect(page.locator('.person-gain').first()).toBeVisible();
});
