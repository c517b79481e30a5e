import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { finalizeEvent } from 'nostr-tools/pure';
import { naddrEncode } from 'nostr-tools/nip19';
import { demoUser, HOUSE_PUBKEY } from '../../server/demo/accounts.ts';
import { publishToRelay } from './support/session.ts';
import { cacheRequest } from './support/cache-client.ts';
import { base } from './support/base.ts';


interface Ev {
  id: string;
  pubkey: string;
  kind: number;
  created_at: number;
  tags: string[][];
  content: string;
}
type Obj = { kind: number; content?: string } & Partial<Ev>;

const cache = (command: string, payload: Record<string, unknown> = {}) => cacheRequest<Obj>(command, payload);

const tag = (e: Ev, name: string) => e.tags.find((t) => t[0] === name)?.[1] ?? '';

/** The articles of a feed in RANGE order, each with its word count from 10000144. */
async function articlesOf(spec: string, userPubkey?: string): Promise<{ event: Ev; words: number }[]> {
  const objs = await cache('mega_feed_directive', { spec, limit: 20, ...(userPubkey ? { user_pubkey: userPubkey } : {}) });
  const words = new Map<string, number>();
  for (const o of objs) {
    if (o.kind !== 10000144) continue;
    const c = JSON.parse(o.content ?? '{}') as { event_id: string; words: number };
    words.set(c.event_id, c.words);
  }
  const range = objs.find((o) => o.kind === 10000113);
  const order = (JSON.parse(range?.content ?? '{}') as { elements?: string[] }).elements ?? [];
  const byId = new Map(objs.filter((o) => o.kind === 30023).map((o) => [o.id!, o as Ev]));
  return order.flatMap((id) => (byId.has(id) ? [{ event: byId.get(id)!, words: words.get(id) ?? 0 }] : []));
}

async function readsFeeds(): Promise<{ name: string; spec: string }[]> {
  const [o] = await cache('get_reads_feeds');
  return JSON.parse(o.content ?? '[]') as { name: string; spec: string }[];
}

const naddrOf = (e: Ev) => naddrEncode({ kind: e.kind, pubkey: e.pubkey, identifier: tag(e, 'd') });

async function noHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

test('/reads lists the demo network\'s articles with their reading times, and the other feed on request', async ({ page }) => {
  const feeds = await readsFeeds();
  expect(feeds.length).toBeGreaterThan(1);
  const first = await articlesOf(feeds[0].spec, HOUSE_PUBKEY);
  expect(first.length).toBeGreaterThan(0);

  await page.goto(`${base()}/reads`);
  await expect(page.getByRole('heading', { level: 1, name: 'Olvasnivalók' })).toBeVisible();
  for (const { event, words } of first.slice(0, 3)) {
    const card = page.locator(`[data-article-id="${event.id}"]`);
    await expect(card.getByRole('heading', { name: tag(event, 'title') })).toBeVisible();
    const minutes = Math.max(1, Math.ceil(words / 238));
    await expect(card.locator('.article-card-reading')).toHaveText(`${minutes} perc olvasás`);
    // Every demo article has a summary, and the card shows it.
    expect(tag(event, 'summary')).not.toBe('');
    await expect(card).toContainText(tag(event, 'summary'));
  }

  // The second feed (every article) from the switcher.
  const all = await articlesOf(feeds[1].spec);
  await page.getByRole('button', { name: feeds[1].name }).click();
  await expect(page.getByRole('button', { name: feeds[1].name })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator(`[data-article-id="${all[0].event.id}"]`)).toContainText(tag(all[0].event, 'title'));

  // Topics, the day's picks and the featured author come from their own commands.
  const [topics] = await cache('get_reads_topics');
  const topicList = JSON.parse(topics.content ?? '[]') as string[];
  await expect(page.getByRole('navigation', { name: 'Témák' }).getByRole('link', { name: `#${topicList[0]}` })).toBeVisible();
  const [picks] = await cache('get_recommended_reads');
  const pickList = (JSON.parse(picks.content ?? '{}') as { reads: [string, string][] }).reads;
  const picksBox = page.getByRole('region', { name: 'A nap válogatása' });
  for (const [naddr, title] of pickList) await expect(picksBox.getByRole('link', { name: title })).toHaveAttribute('href', `/a/${naddr}`);
  await expect(page.getByRole('region', { name: 'Kiemelt szerző' }).getByRole('link').first()).toBeVisible();
});

test('a topic page lists only articles on that topic', async ({ page }) => {
  const [topics] = await cache('get_reads_topics');
  const topic = (JSON.parse(topics.content ?? '[]') as string[])[0];
  const expected = await articlesOf(JSON.stringify({ kind: 'reads', topic }));
  expect(expected.length).toBeGreaterThan(0);

  await page.goto(`${base()}/reads/${encodeURIComponent(topic)}`);
  await expect(page.getByRole('heading', { level: 1, name: `Olvasnivalók: #${topic}` })).toBeVisible();
  await expect(page.locator(`[data-article-id="${expected[0].event.id}"]`)).toBeVisible();
  const shown = await page.locator('[data-article-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-article-id')));
  const onTopic = new Set(expected.map((a) => a.event.id));
  for (const id of shown) expect(onTopic.has(id!)).toBe(true);
  for (const { event } of expected) expect(event.tags.some((t) => t[0] === 't' && t[1].toLowerCase() === topic)).toBe(true);

  await page.goto(`${base()}/reads/nincs-ilyen-tema-${Date.now()}`);
  await expect(page.getByText(/Nincs cikk a\(z\) #nincs-ilyen-tema/)).toBeVisible();
});

test('an article renders its headings, list, images and author, with word count and reading time', async ({ page }) => {
  const feeds = await readsFeeds();
  const [{ event, words }] = await articlesOf(feeds[1].spec);
  const profiles = await cache('user_infos', { pubkeys: [event.pubkey] });
  const meta = JSON.parse(profiles.find((o) => o.kind === 0)?.content ?? '{}') as { display_name?: string; name?: string };

  await page.goto(`${base()}/a/${naddrOf(event)}`);
  const article = page.locator('article.article');
  await expect(article.getByRole('heading', { level: 1, name: tag(event, 'title') })).toBeVisible();
  await expect(article).toContainText(meta.display_name || meta.name || '');
  await expect(article.locator('.article-reading')).toHaveText(`${Math.max(1, Math.ceil(words / 238))} perc olvasás`);
  await expect(article.locator('.article-words')).toContainText('szó');

  const headings = event.content.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3).trim());
  expect(headings.length).toBeGreaterThan(0);
  for (const h of headings) await expect(article.locator('.article-body h2', { hasText: h })).toBeVisible();
  const items = event.content.split('\n').filter((l) => l.startsWith('- ')).length;
  await expect(article.locator('.article-body li')).toHaveCount(items);
  const img = article.locator('.article-body img').first();
  await expect(img).toHaveAttribute('src', /\/media-cache\?/);
  await expect(article.locator('.article-body a[href^="http"]').first()).toHaveAttribute('rel', /noopener/);
  await expect(article.locator('.article-body a[href^="http"]').first()).toHaveAttribute('target', '_blank');
  for (const topic of event.tags.filter((t) => t[0] === 't').map((t) => t[1])) {
    await expect(article.getByRole('link', { name: `#${topic}` })).toHaveAttribute('href', `/reads/${encodeURIComponent(topic)}`);
  }
  await expect(page.getByRole('heading', { level: 2, name: /Válaszok|válasz/ })).toBeVisible();
});

test('a hostile article shows its markup as text and runs nothing', async ({ page }) => {
  const author = demoUser(7);
  const identifier = `ellenseges-${Date.now()}`;
  const content = [
    '## Biztonságos cím',
    '<script>window.__pwned = "script"</script>',
    '<img src="x" onerror="window.__pwned = \'onerror\'">',
    '[kattints](javascript:window.__pwned=\'link\') és [adat](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![rossz kép](javascript:alert(1))',
    '<div><p onclick="window.__pwned=\'nested\'"><iframe src="https://rossz.example"></iframe></p></div>',
    '- első pont',
    '- második pont',
    '**félkövér [félbehagyott](',
  ].join('\n\n');
  const event = finalizeEvent(
    {
      kind: 30023,
      created_at: Math.floor(Date.now() / 1000),
      tags: [['d', identifier], ['title', 'Ellenséges próbacikk'], ['published_at', String(Math.floor(Date.now() / 1000))], ['t', 'teszt']],
      content,
    },
    author.secretKey,
  ) as Ev;
  expect(await publishToRelay(event)).toBe(true);

  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`${base()}/a/${naddrOf(event)}`);
  const body = page.locator('.article-body');
  await expect(page.getByRole('heading', { level: 1, name: 'Ellenséges próbacikk' })).toBeVisible();
  await expect(body.getByRole('heading', { level: 2, name: 'Biztonságos cím' })).toBeVisible();
  await expect(body.locator('li')).toHaveCount(2);
  await expect(body).toContainText('<script>window.__pwned');
  expect(await body.locator('script, iframe, div, [onerror], [onclick]').count()).toBe(0);
  expect(await body.locator('a[href^="javascript"], a[href^="data"], img[src^="javascript"]').count()).toBe(0);
  await expect(body.getByText('kattints')).toBeVisible();
  // Every image of the body has loaded or failed, so an onerror handler would have run by now.
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.article-body img')].every((img) => img.complete));
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test('a highlight published on the relay is marked in the article body with its count', async ({ page }) => {
  const feeds = await readsFeeds();
  const [{ event }] = await articlesOf(feeds[1].spec);
  const passage = event.content.split('\n\n')[0].split('. ')[0].trim();
  const coordinate = `30023:${event.pubkey}:${tag(event, 'd')}`;
  const highlight = finalizeEvent(
    { kind: 9802, created_at: Math.floor(Date.now() / 1000), tags: [['a', coordinate], ['p', event.pubkey]], content: passage },
    demoUser(5).secretKey,
  ) as Ev;
  expect(await publishToRelay(highlight)).toBe(true);

  await page.goto(`${base()}/a/${naddrOf(event)}`);
  await expect(page.locator('.article-body mark.article-highlight')).toHaveText(passage);
  await expect(page.locator('.article-body mark.article-highlight')).toHaveAttribute('title', /olvasó emelte ki/);
  const section = page.getByRole('region', { name: /Kiemelések \(\d+\)/ });
  await expect(section.locator('blockquote', { hasText: passage })).toBeVisible();
});

test('a reply published on the relay shows under the article as a note card', async ({ page }) => {
  const feeds = await readsFeeds();
  const [, { event }] = await articlesOf(feeds[1].spec);
  const text = `Köszönöm a cikket, sokat tanultam belőle ${Date.now()}`;
  const reply = finalizeEvent(
    {
      kind: 1,
      created_at: Math.floor(Date.now() / 1000),
      tags: [['a', `30023:${event.pubkey}:${tag(event, 'd')}`, '', 'root'], ['e', event.id, '', 'root'], ['p', event.pubkey]],
      content: text,
    },
    demoUser(6).secretKey,
  ) as Ev;
  expect(await publishToRelay(reply)).toBe(true);
  await page.goto(`${base()}/a/${naddrOf(event)}`);
  const replies = page.getByRole('region', { name: /válasz/ });
  await expect(replies.locator(`[data-note-id="${reply.id}"]`)).toContainText(text);
});

test('a missing article shows the Hungarian placeholder', async ({ page }) => {
  const naddr = naddrEncode({ kind: 30023, pubkey: demoUser(3).pubkey, identifier: `nincs-ilyen-${Date.now()}` });
  await page.goto(`${base()}/a/${naddr}`);
  await expect(page.getByText('Ez a cikk nem található')).toBeVisible();
  await page.goto(`${base()}/a/naddr1hibas`);
  await expect(page.getByText('Ez a cikk nem található')).toBeVisible();
});

test('reads and an article fit a phone screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const feeds = await readsFeeds();
  const [{ event }] = await articlesOf(feeds[1].spec);
  await page.goto(`${base()}/reads`);
  await expect(page.locator('[data-article-id]').first()).toBeVisible();
  await noHorizontalOverflow(page);
  // Every demo article has a cover image; on a phone it stays a thumbnail.
  const cover = page.locator('.article-card-cover').first();
  await expect(cover).toBeVisible();
  expect((await cover.boundingBox())!.width).toBeLessThan(120);

  await page.goto(`${base()}/a/${naddrOf(event)}`);
  await expect(page.getByRole('heading', { level: 1, name: tag(event, 'title') })).toBeVisible();
  await noHorizontalOverflow(page);
  const img = page.locator('.article-body img').first();
  await img.scrollIntoViewIfNeeded();
  expect((await img.boundingBox())!.width).toBeLessThanOrEqual(390);
});

test('reads and an article have no serious accessibility violations', async ({ page }) => {
  const feeds = await readsFeeds();
  const [{ event }] = await articlesOf(feeds[1].spec);
  for (const path of ['/reads', `/a/${naddrOf(event)}`]) {
    await page.goto(`${base()}${path}`);
    await expect(page.locator('[data-article-id]').first()).toBeVisible();
    const result = await new AxeBuilder({ page }).include('#main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${path}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
  }
});
