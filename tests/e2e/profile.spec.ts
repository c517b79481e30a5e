import { expect, test, type Page } from '@playwright/test';
import { nprofileEncode, npubEncode, nsecEncode } from 'nostr-tools/nip19';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { demoUser } from '../../server/demo/accounts.ts';
import { formatCount } from '../../src/lib/format.ts';
import { publishToRelay } from './support/session.ts';
import { cacheRequest } from './support/cache-client.ts';
import { base } from './support/base.ts';


interface CacheObj {
  kind: number;
  id?: string;
  pubkey?: string;
  content?: string;
  tags?: string[][];
}

const cache = (command: string, payload: Record<string, unknown>) => cacheRequest<CacheObj>(command, payload);

interface Stats {
  followers_count: number;
  follows_count: number;
  note_count: number;
  reply_count: number;
  long_form_note_count: number;
  total_zap_count: number;
  total_satszapped: number;
  media_count: number;
}

interface DemoProfile {
  pubkey: string;
  npub: string;
  meta: { name?: string; display_name?: string; about?: string; nip05?: string; lud16?: string };
  stats: Stats;
}

async function profileOf(pubkey: string): Promise<DemoProfile> {
  const objects = await cache('user_profile', { pubkey });
  const kind0 = objects.find((o) => o.kind === 0);
  const stats = JSON.parse(objects.find((o) => o.kind === 10000105)?.content ?? '{}') as Stats;
  return { pubkey, npub: npubEncode(pubkey), meta: JSON.parse(kind0?.content ?? '{}') as DemoProfile['meta'], stats };
}

/** A demo user with something in every tab: notes, replies, articles, media, zaps, followers. */
async function richDemoUser(): Promise<DemoProfile> {
  for (let i = 1; i <= 60; i++) {
    const p = await profileOf(demoUser(i).pubkey);
    const s = p.stats;
    if (p.meta.about && p.meta.nip05 && s.note_count && s.reply_count && s.long_form_note_count && s.media_count && s.total_zap_count && s.followers_count && s.follows_count) {
      return p;
    }
  }
  throw new Error('no demo user with every tab filled');
}

const statValue = (page: Page, key: string) => page.locator(`.profile-stat[data-stat="${key}"] .profile-stat-value`);
const panel = (page: Page) => page.getByRole('tabpanel');
const openTab = (page: Page, tab: string) => page.locator(`.profile-tab[data-tab="${tab}"]`).click();

let user: DemoProfile;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  user = await richDemoUser();
});

test('a demo profile shows the real name, about and the stats user_profile returns', async ({ page }) => {
  await page.goto(`${base()}/p/${user.npub}`);
  const name = user.meta.display_name || user.meta.name || '';
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page).toHaveTitle(new RegExp(name));
  await expect(page.locator('.profile-about')).toContainText((user.meta.about ?? '').split('\n')[0]);
  await expect(page.locator('.profile-nip05')).toHaveText(user.meta.nip05 ?? '');
  await expect(page.locator('.profile-lightning')).toContainText(user.meta.lud16 ?? '');
  await expect(page.locator('.profile-joined')).toHaveText(/^Csatlakozott: \d{4}\. \p{L}+$/u);
  const s = user.stats;
  const expected: [string, number][] = [
    ['followers', s.followers_count],
    ['follows', s.follows_count],
    ['notes', s.note_count],
    ['replies', s.reply_count],
    ['reads', s.long_form_note_count],
    ['zaps', s.total_zap_count],
    ['sats', s.total_satszapped],
  ];
  for (const [key, value] of expected) await expect(statValue(page, key)).toHaveText(formatCount(value));
  // The sidebar: popular notes from user_profile_scored_content.
  const scored = await cache('user_profile_scored_content', { pubkey: user.pubkey, limit: 5 });
  // This demo user has popular notes, so the panel is there.
  expect(scored.filter((o) => o.kind === 1).length).toBeGreaterThan(0);
  await expect(page.locator('#profile-popular-title')).toBeVisible();
  await expect(page.locator('.profile-side-list').first().locator('li').first()).toBeVisible();
  // Their counts come from the notes' own stats (the scored reply carries none): not all zero when the server has likes.
  const ids = scored.filter((o) => o.kind === 1).map((o) => o.id as string);
  const stats = (await cache('events', { event_ids: ids, extended_response: true })).filter((o) => o.kind === 10000100);
  const likes = stats.reduce((sum, o) => sum + (JSON.parse(String(o.content)) as { likes: number }).likes, 0);
  expect(likes).toBeGreaterThan(0);
  await expect(page.locator('.profile-side-stats').filter({ hasNotText: /^\s*0\s*0\s*0\s*$/ }).first()).toBeVisible();
});

test('each tab loads real rows', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${base()}/p/${user.npub}`);
  await expect(panel(page).locator('[data-note-id]').first()).toBeVisible();

  await openTab(page, 'replies');
  const replySpec = JSON.stringify({ id: 'feed', kind: 'notes', notes: 'replies', pubkey: user.pubkey });
  const replyIds = new Set((await cache('mega_feed_directive', { spec: replySpec, limit: 20 })).filter((o) => o.kind === 1).map((o) => o.id));
  await expect(panel(page).locator('[data-note-id]').first()).toBeVisible();
  const shown = await panel(page).locator('[data-note-id]').first().getAttribute('data-note-id');
  expect(replyIds.has(shown ?? '')).toBe(true);

  await openTab(page, 'reads');
  await expect(panel(page).locator('[data-note-id]').first()).toBeVisible();

  await openTab(page, 'media');
  await expect(panel(page).locator('.profile-gallery img, .profile-gallery video').first()).toBeVisible();

  await openTab(page, 'zaps');
  await expect(panel(page).locator('.profile-zap').first()).toBeVisible();
  await expect(panel(page).locator('.profile-zap-amount').first()).toHaveText(/\d.* sat$/);

  await openTab(page, 'followers');
  const followers = new Set((await cache('user_followers', { pubkey: user.pubkey })).filter((o) => o.kind === 0).map((o) => o.pubkey));
  await expect(panel(page).locator('.profile-user').first()).toBeVisible();
  const followerKeys = await panel(page).locator('.profile-user').evaluateAll((els) => els.map((e) => e.getAttribute('data-pubkey')));
  expect(followerKeys.length).toBe(Math.min(30, followers.size));
  for (const k of followerKeys) expect(followers.has(k ?? '')).toBe(true);

  await openTab(page, 'follows');
  const contacts = (await cache('contact_list', { pubkey: user.pubkey, extended_response: true })).find((o) => o.kind === 3);
  const firstFollow = contacts?.tags?.find((t) => t[0] === 'p')?.[1];
  await expect(panel(page).locator('.profile-user').first()).toHaveAttribute('data-pubkey', firstFollow ?? '');

  await openTab(page, 'relays');
  const relays = (await cache('get_user_relays', { pubkey: user.pubkey })).find((o) => o.kind === 10000139);
  const firstRelay = relays?.tags?.find((t) => t[0] === 'r')?.[1];
  if (firstRelay) await expect(panel(page).locator('.profile-relay-url').first()).toHaveText(firstRelay);
  else await expect(panel(page)).toContainText('Nem adott meg relét.');
});

test('the QR dialog draws an SVG for the npub and has a Lightning tab', async ({ page }) => {
  await page.goto(`${base()}/p/${user.npub}`);
  await page.getByRole('button', { name: 'QR-kód' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'Nyilvános kulcs' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.locator('svg.qr-code path')).toHaveCount(1);
  await expect(dialog.locator('.qr-value')).toHaveText(user.npub);
  await dialog.getByRole('tab', { name: 'Lightning-cím' }).click();
  await expect(dialog.locator('.qr-value')).toHaveText(user.meta.lud16 ?? '');
  // The two codes are tabs: the arrows switch between them.
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByRole('tab', { name: 'Nyilvános kulcs' })).toBeFocused();
  await expect(dialog.locator('.qr-value')).toHaveText(user.npub);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('/p/<nprofile> and /<vanity name> resolve to the same profile', async ({ page }) => {
  const name = user.meta.display_name || user.meta.name || '';
  await page.goto(`${base()}/p/${nprofileEncode({ pubkey: user.pubkey, relays: [] })}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  const vanity = (user.meta.nip05 ?? '').split('@')[0];
  await page.goto(`${base()}/${vanity}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(statValue(page, 'notes')).toHaveText(formatCount(user.stats.note_count));
});

test('missing, invalid and unknown-name profiles show Hungarian states; a guest without a key is invited', async ({ page }) => {
  await page.goto(`${base()}/p/${npubEncode('cd'.repeat(32))}`);
  await expect(page.getByRole('status').filter({ hasText: 'Ez a profil nem található' })).toBeVisible();
  await page.goto(`${base()}/p/npub1hibas`);
  await expect(page.getByRole('alert')).toContainText('Hibás profilazonosító');
  await page.goto(`${base()}/senkisemhivjaigy`);
  await expect(page.locator('main .status-message')).toContainText('Nincs ilyen felhasználó');
  await expect(page.locator('main .status-message')).toContainText('senkisemhivjaigy');
  await page.goto(`${base()}/p`);
  await expect(page.locator('main .status-message')).toContainText('Jelentkezz be');
});

test('phone layout: the profile fits the screen and the tabs scroll', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base()}/p/${user.npub}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('tablist')).toBeVisible();
  await expect(panel(page).locator('[data-note-id]').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('a signed-in user sees their own profile at /p, and a profile they muted is hidden until shown anyway', async ({ page }) => {
  const secret = generateSecretKey();
  const now = Math.floor(Date.now() / 1000);
  const me = 'Próba Némító';
  expect(await publishToRelay(finalizeEvent({ kind: 0, created_at: now, tags: [], content: JSON.stringify({ name: me }) }, secret))).toBe(true);
  expect(await publishToRelay(finalizeEvent({ kind: 10000, created_at: now, tags: [['p', user.pubkey]], content: '' }, secret))).toBe(true);

  await page.addInitScript(() => localStorage.setItem('devMode', 'true'));
  await page.goto(`${base()}/home`);
  await page.waitForFunction(() => window.strucc !== undefined);
  const result = await page.evaluate((nsec) => {
    // Comlink's Remote type cannot call an optional method; the worker implements login.
    const api = window.strucc!.api as unknown as { login: (r: { method: 'nsec'; nsec: string }) => Promise<{ ok: boolean }> };
    return api.login({ method: 'nsec', nsec });
  }, nsecEncode(secret));
  expect(result.ok).toBe(true);

  await page.goto(`${base()}/p`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(me);
  await expect(page.locator('.profile-qr-button')).toBeVisible();
  expect(getPublicKey(secret)).toHaveLength(64);

  await page.goto(`${base()}/p/${user.npub}`);
  await expect(page.getByRole('status').filter({ hasText: 'Ez a profil rejtve van' })).toBeVisible();
  await expect(page.locator('.profile-header')).toHaveCount(0);
  await page.getByRole('button', { name: 'Megjelenítés mégis' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(user.meta.display_name || user.meta.name || '');
});
