import { expect, test } from '@playwright/test';
import { npubEncode } from 'nostr-tools/nip19';
import { demoUser } from '../../server/demo/accounts.ts';
import { DEFAULT_GUEST_PUBKEY } from '../../core/config.ts';
import { cacheRequest } from './support/cache-client.ts';
import { base } from './support/base.ts';


interface CacheObj {
  kind: number;
  id?: string;
  pubkey?: string;
  content?: string;
}

const cache = (command: string, payload: Record<string, unknown> = {}) => cacheRequest<CacheObj>(command, payload);

function displayNameOf(meta: CacheObj): string {
  const m = JSON.parse(meta.content ?? '{}') as { display_name?: string; name?: string };
  return m.display_name || m.name || '';
}

/** A demo user with a name of their own, as user_search finds them. */
async function namedDemoUser(): Promise<{ pubkey: string; name: string; prefix: string }> {
  for (let i = 2; i < 30; i++) {
    const pubkey = demoUser(i).pubkey;
    const meta = (await cache('user_infos', { pubkeys: [pubkey] })).find((o) => o.kind === 0 && o.pubkey === pubkey);
    const name = meta ? displayNameOf(meta) : '';
    const prefix = name.split(/\s+/)[0];
    if (prefix.length < 4) continue;
    const found = (await cache('user_search', { query: prefix, limit: 10 })).filter((o) => o.kind === 0).map((o) => o.pubkey);
    if (found.includes(pubkey)) return { pubkey, name, prefix };
  }
  throw new Error('no searchable demo user');
}

test('typing a name in the sidebar box lists the user; arrow down and Enter open the profile', async ({ page }) => {
  const user = await namedDemoUser();
  await page.goto(`${base()}/home`);
  const box = page.getByRole('complementary').getByRole('combobox', { name: 'Keresés' });
  await box.fill(user.prefix);
  const list = page.getByRole('listbox', { name: 'Javaslatok' });
  await expect(list).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  const options = list.getByRole('option');
  await expect(options.first()).toHaveText(`Keresés erre: „${user.prefix}”`);
  await expect(options.filter({ hasText: user.name }).first()).toBeVisible();
  expect(await options.count()).toBeLessThanOrEqual(11);
  // The first option searches notes; each arrow step moves to the next user.
  const index = await options.evaluateAll((els, name) => els.findIndex((el) => el.textContent?.includes(name)), user.name);
  for (let i = 0; i < index; i++) await box.press('ArrowDown');
  await expect(options.nth(index)).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/p/${npubEncode(user.pubkey)}$`));
});

test('Enter on the first option searches notes; Escape closes the list', async ({ page }) => {
  await page.goto(`${base()}/home`);
  const box = page.getByRole('complementary').getByRole('combobox', { name: 'Keresés' });
  await box.fill('Balaton');
  await expect(page.getByRole('listbox', { name: 'Javaslatok' })).toBeVisible();
  await box.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\/Balaton$/);
});

test('/search/Balaton: the title holds the query and every note contains the word', async ({ page }) => {
  const expected = (await cache('mega_feed_directive', { spec: JSON.stringify({ id: 'advsearch', query: 'Balaton' }), limit: 20, user_pubkey: DEFAULT_GUEST_PUBKEY }))
    .filter((o) => o.kind === 10000113)
    .map((o) => (JSON.parse(o.content!) as { elements: string[] }).elements)[0];
  expect(expected.length).toBeGreaterThan(0);
  await page.goto(`${base()}/search/Balaton`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Keresés: „Balaton”');
  await expect(page).toHaveTitle(/Keresés: „Balaton”/);
  const cards = page.locator('[data-note-id]');
  await expect(cards.first()).toHaveAttribute('data-note-id', expected[0]);
  const texts = await cards.allInnerTexts();
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) expect(text.toLowerCase()).toContain('balaton');
});

test('an empty term gets the exact message, on the page and in the sidebar box', async ({ page }) => {
  await page.goto(`${base()}/search`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Keresés');
  await expect(page.getByText('Kérlek, adj meg egy keresési kifejezést.', { exact: true }).first()).toBeVisible();

  await page.goto(`${base()}/home`);
  const box = page.getByRole('complementary').getByRole('combobox', { name: 'Keresés' });
  await box.fill('   ');
  await box.press('Enter');
  await expect(page.getByRole('complementary').getByRole('alert')).toHaveText('Kérlek, adj meg egy keresési kifejezést.');
  await expect(page).toHaveURL(/\/home$/);
});

test('a search with no match says so in Hungarian', async ({ page }) => {
  await page.goto(`${base()}/search/${encodeURIComponent('zxqvbnmlkj')}`);
  await expect(page.getByText('Nincs találat erre: „zxqvbnmlkj”')).toBeVisible();
});

test('an npub typed as the query opens that profile', async ({ page }) => {
  const npub = npubEncode(demoUser(2).pubkey);
  await page.goto(`${base()}/search/${npub}`);
  await expect(page).toHaveURL(new RegExp(`/p/${npub}$`));
});

test('the advanced form writes the query grammar, searches it, and is filled back from the query', async ({ page }) => {
  const npub = npubEncode(demoUser(2).pubkey);
  await page.goto(`${base()}/search`);
  const form = page.getByRole('form', { name: 'Részletes keresés' });
  await form.getByLabel('Mindezek a szavak').fill('nyár');
  await form.getByLabel('Címkék').fill('balaton');
  await form.getByLabel('Szerző').fill(npub);
  await form.getByLabel('Egyik szó sem ezek közül').fill('tél');
  await form.getByLabel('Legalább ennyi kedvelés').fill('2');
  await form.getByLabel('Sorrend').selectOption('likes');
  const query = `nyár #balaton -tél from:${npub} minlikes:2 orderby:likes`;
  await expect(page.getByTestId('advanced-query')).toHaveText(query);
  await form.getByRole('button', { name: 'Keresés' }).click();
  await expect(page).toHaveURL(`${base()}/search/${encodeURIComponent(query)}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Keresés: „${query}”`);

  // parse_advanced_search_query fills the form from the URL's query.
  await page.getByText('Részletes keresés', { exact: true }).click();
  await expect(form.getByLabel('Szerző')).toHaveValue(npub);
  await expect(form.getByLabel('Címkék')).toHaveValue('#balaton');
  await expect(form.getByLabel('Legalább ennyi kedvelés')).toHaveValue('2');
  await expect(form.getByLabel('Sorrend')).toHaveValue('likes');
  await expect(page.getByTestId('advanced-query')).toHaveText(query);
});

test('/feeds runs a spec and shows its RANGE and notes', async ({ page }) => {
  await page.goto(`${base()}/feeds`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hírfolyam-próba');
  await page.getByLabel('Hírfolyam-leírás (JSON) vagy keresés').fill('{"id":"advsearch","query":"Balaton"}');
  await page.getByRole('button', { name: 'Futtatás' }).click();
  await expect(page).toHaveURL(/\/feeds\/.+/);
  await expect(page.getByTestId('feed-range')).toContainText('"order_by": "created_at"');
  const first = JSON.parse((await page.getByTestId('feed-range').innerText()).trim()) as { elements: string[] };
  await expect(page.locator('[data-note-id]').first()).toHaveAttribute('data-note-id', first.elements[0]);

  // A plain query runs as an advanced search.
  await page.goto(`${base()}/feeds/${encodeURIComponent('kind:1 #strand')}`);
  await expect(page.getByTestId('feed-spec')).toHaveText('{"id":"advsearch","query":"kind:1 #strand"}');
  await expect(page.locator('[data-note-id]').first()).toContainText(/#strand/i);
});

test('phone layout: the search page and its form fit a 390 px screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base()}/search/Balaton`);
  await expect(page.locator('[data-note-id]').first()).toBeVisible();
  await expect(page.getByRole('main').getByRole('combobox')).toBeVisible();
  await page.getByText('Részletes keresés', { exact: true }).click();
  await expect(page.getByRole('form', { name: 'Részletes keresés' }).getByLabel('Szerző')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
