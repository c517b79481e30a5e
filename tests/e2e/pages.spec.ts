import { expect, test } from '@playwright/test';
import { cacheRequest } from './support/cache-client.ts';
import hu from '../../locales/hu/pages.json' with { type: 'json' };
import { base } from './support/base.ts';
import { toasts } from './support/toast.ts';


const DOCUMENTS = [
  { path: '/terms', key: 'terms', heading: 'Felhasználási feltételek', must: ['A fiókod a kulcsod', 'Zapok és fizetések', 'zéró toleranciát'] },
  { path: '/privacy', key: 'privacy', heading: 'Adatvédelmi tájékoztató', must: ['IndexedDB', 'A gyorsítótár-szerver', 'A relék', 'Nincs nyomkövetés', 'nem használ analitikai szolgáltatást'] },
  { path: '/csae-policy', key: 'csaePolicy', heading: 'Gyermekvédelmi irányelv', must: ['zéró toleranciát', 'Hogyan jelentheted?', 'NMHH Internet Hotline', '112'] },
  { path: '/support', key: 'support', heading: 'Ügyfélszolgálat', must: ['Tartalom vagy fiók jelentése', 'Jelentés', '#strucc', 'A Strucc támogatása'] },
] as const;

for (const doc of DOCUMENTS) {
  test(`${doc.path}: Hungarian heading, table of contents and every section`, async ({ page }) => {
    await page.goto(`${base()}${doc.path}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(doc.heading);
    await expect(page).toHaveTitle(new RegExp(doc.heading));
    const main = page.locator('main');
    for (const text of doc.must) await expect(main).toContainText(text);
    const sections = hu[doc.key].sections;
    await expect(main.getByRole('heading', { level: 2 })).toHaveCount(sections.length + 2);
    const toc = page.getByRole('navigation', { name: 'Tartalom' });
    await expect(toc.getByRole('link')).toHaveCount(sections.length);
    for (const s of sections) {
      await expect(main.locator(`section#${s.id}`)).toContainText(s.body[0]);
    }
    // Public documents carry no app navigation, but lead back to the app and to each other.
    await expect(page.locator('.side-nav')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Vissza a Strucchoz' })).toHaveAttribute('href', '/home');
    await expect(page.getByRole('navigation', { name: 'Kapcsolódó dokumentumok' }).getByRole('link')).toHaveCount(4);
  });
}

test('/app-download-qr: a QR code for this app and how to install it', async ({ page }) => {
  await page.goto(`${base()}/app-download-qr`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Strucc a telefonodon');
  const url = `${new URL(base()).origin}/`;
  const qr = page.getByRole('img', { name: `QR-kód, amely erre a címre mutat: ${url}` });
  await expect(qr).toBeVisible();
  // A real code: the finder pattern's dark modules are drawn.
  expect((await qr.locator('path').getAttribute('d'))!.length).toBeGreaterThan(1000);
  await expect(page.getByRole('link', { name: url })).toHaveAttribute('href', url);
  await expect(page.getByRole('heading', { name: 'Telepítés webalkalmazásként' })).toBeVisible();
  await expect(page.locator('main')).toContainText('Főképernyőhöz adás');
});

test('/downloads lists the releases of get_app_releases, and visiting it clears the download badge', async ({ page }) => {
  const [reply] = (await cacheRequest('get_app_releases')).filter((o) => o.kind === 10000138);
  const releases = JSON.parse(reply.content!) as Record<'ios' | 'android', { version: string; date: number }>;
  await page.goto(`${base()}/home`);
  const badge = page.locator('.side-nav [data-badge="downloads"]');
  await expect(badge).toHaveCount(1);
  await page.locator('.side-nav').getByRole('link', { name: /Letöltések/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Letöltések');
  for (const [platform, label] of [
    ['ios', 'iOS (iPhone, iPad)'],
    ['android', 'Android'],
  ] as const) {
    const card = page.locator(`.release-card[data-platform="${platform}"]`);
    await expect(card.getByRole('heading')).toContainText(label);
    await expect(card).toContainText(`${releases[platform].version} verzió`);
    const date = new Intl.DateTimeFormat('hu', { dateStyle: 'long' }).format(new Date(releases[platform].date * 1000));
    await expect(card).toContainText(`Megjelent: ${date}`);
    await expect(card.locator('.release-new')).toHaveText('Új');
  }
  await expect(badge).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.release-card')).toHaveCount(2);
  await expect(page.locator('.release-new')).toHaveCount(0);
  await expect(page.locator('.side-nav [data-badge="downloads"]')).toHaveCount(0);
});

test('/download redirects to /downloads; /404 keeps its page', async ({ page }) => {
  await page.goto(`${base()}/download`);
  await expect(page).toHaveURL(/\/downloads$/);
  await page.goto(`${base()}/404`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Az oldal nem található');
});

test('/help: table of contents, sections on keys, signers, relays, the cache server and zaps; anchors land', async ({ page }) => {
  await page.goto(`${base()}/help`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Súgó');
  const toc = page.getByRole('navigation', { name: 'Tartalom' });
  for (const title of ['Kulcsok', 'Bejelentkezés és aláírók', 'Relék', 'A gyorsítótár-szerver', 'Zapok', 'Forráskód']) {
    await expect(toc.getByRole('link', { name: title })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  }
  await toc.getByRole('link', { name: 'Zapok' }).click();
  await expect(page).toHaveURL(/#zapok$/);
  await expect(page.locator('#zapok')).toBeInViewport();
  await page.goto(`${base()}/help#forraskod`);
  await expect(page.locator('#forraskod')).toBeInViewport();
});

test('sidebar links: source code, donation, the documents, and share copies the link with a toast', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // No system share sheet in this browser: the clipboard path is the one under test.
  await context.addInitScript(() => Object.defineProperty(navigator, 'share', { value: undefined, configurable: true }));
  await page.goto(`${base()}/home`);
  const links = page.getByRole('navigation', { name: 'További hivatkozások' });
  await expect(links.getByRole('link', { name: 'Forráskód' })).toHaveAttribute('href', '/help#forraskod');
  await expect(links.getByRole('link', { name: 'Támogatás' })).toHaveAttribute('href', '/support#tamogatas');
  await expect(links.getByRole('link', { name: 'Felhasználási feltételek' })).toHaveAttribute('href', '/terms');
  await expect(links.getByRole('link', { name: 'Adatvédelem' })).toHaveAttribute('href', '/privacy');
  await expect(links.getByRole('link', { name: 'Gyermekvédelem' })).toHaveAttribute('href', '/csae-policy');
  await links.getByRole('button', { name: 'Strucc megosztása' }).click();
  await expect(toasts(page)).toHaveText(['Link kimásolva']);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${new URL(base()).origin}/home`);
  await expect(toasts(page)).toHaveCount(0, { timeout: 5000 });
  await links.getByRole('link', { name: 'Forráskód' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Súgó');
  await expect(page.locator('#forraskod')).toBeInViewport();
});

test('phone layout of the documents and /downloads', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, locale: 'hu-HU', isMobile: true, hasTouch: true });
  const page = await context.newPage();
  for (const path of ['/terms', '/privacy', '/app-download-qr', '/downloads', '/help']) {
    await page.goto(`${base()}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }
  await context.close();
});
