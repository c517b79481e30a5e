import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_LOGIN, demoUser } from '../../server/demo/accounts.ts';
import { displayName, emptyProfile } from '../../core/profile.ts';
import { parseNotifications } from '../../worker/notifications.ts';
import { sumNotificationCounts } from '../../machines/notifications.ts';
import type { CacheObject as WorkerCacheObject } from '../../core/types.ts';
import { groupNotifications } from '../../src/components/notifications/group.ts';
import { formatBadgeCount } from '../../src/lib/format.ts';
import { cacheRequest, firstPushed } from './support/cache-client.ts';
import { installNip07Stub } from './support/nip07-stub.ts';
import { finalizeEvent, generateSecretKey } from 'nostr-tools/pure';
import { publishAccepted, queryRelay } from './support/session.ts';
import { base } from './support/base.ts';

/** The counts are private (issue 12): asked for with the user's fresh signed request, as the worker does. */
const countsRequest = () => ({
  pubkey: DEMO_LOGIN.pubkey,
  event_from_user: finalizeEvent(
    { kind: 30078, tags: [['d', 'Primal-Web App', 'notification_counts']], content: '{"description":"notification_counts"}', created_at: Math.floor(Date.now() / 1000) },
    DEMO_LOGIN.secretKey,
  ),
});

const THEMES = ['sunrise', 'sunset', 'midnight', 'ice'] as const;

/**
 * Fresh likes by `names` (new people with profiles) on one of the demo login's notes, newest last:
 * the demo login then has unread notifications and its newest group is this like group, whatever
 * earlier tests marked seen.
 */
async function freshLikes(names: string[]): Promise<string> {
  const [note] = await queryRelay({ kinds: [1], authors: [DEMO_LOGIN.pubkey], limit: 1 });
  const at = Math.floor(Date.now() / 1000);
  for (const [i, name] of names.entries()) {
    const sk = generateSecretKey();
    await publishAccepted(finalizeEvent({ kind: 0, created_at: at, tags: [], content: JSON.stringify({ name, display_name: name }) }, sk));
    await publishAccepted(finalizeEvent({ kind: 7, created_at: at + i, tags: [['e', note.id], ['p', DEMO_LOGIN.pubkey]], content: '+' }, sk));
  }
  return note.id;
}

/** What the server says the demo login's notifications are, grouped as the page groups them. */
async function serverGroups(typeGroup: string, limit = 100, until?: number) {
  const payload: Record<string, unknown> = { pubkey: DEMO_LOGIN.pubkey, limit, type_group: typeGroup, user_pubkey: DEMO_LOGIN.pubkey };
  if (until !== undefined) payload.until = until;
  const page = parseNotifications((await cacheRequest('get_notifications', payload)) as WorkerCacheObject[]);
  const nameOf = (pk: string) => displayName(page.users[pk] ?? emptyProfile(pk));
  return { page, groups: groupNotifications(page.notifications), nameOf };
}

/** Signs in through the stub NIP-07 extension, then goes to /notifications inside the app. */
async function signInAndOpen(context: BrowserContext, phone = false): Promise<Page> {
  await installNip07Stub(context, DEMO_LOGIN.secretKey);
  const page = await context.newPage();
  await page.goto(`${base()}/home`);
  const chip = page.locator(phone ? '.phone-top .account-chip' : '.side-nav .account-chip');
  await chip.getByRole('button', { name: 'Bejelentkezés' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Bejelentkezés bővítménnyel' }).click();
  await expect(chip.getByRole('button', { name: 'Kijelentkezés' })).toBeVisible();
  await page.locator(phone ? '.bottom-nav' : '.side-nav').getByRole('link', { name: /Értesítések/ }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  return page;
}

const panel = (page: Page) => page.locator('#notif-panel');
const rows = (page: Page) => page.locator('#notif-panel article.notif');

async function waitReady(page: Page, tab: string) {
  await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
  await expect(panel(page)).toHaveAttribute('data-status', 'ready');
}

test('a guest gets a Hungarian prompt to sign in instead of a list', async ({ page }) => {
  await page.goto(`${base()}/notifications`);
  await expect(page.getByRole('heading', { level: 1, name: 'Értesítések' })).toBeVisible();
  await expect(page.getByText('Jelentkezz be az értesítéseidhez')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Hogyan működik a bejelentkezés?' })).toHaveAttribute('href', '/help#bejelentkezes');
  await expect(page.getByRole('tab')).toHaveCount(0);
});

test('the unread badge shows the server count, and viewing the list marks it seen', async ({ context }) => {
  await freshLikes(['Lájkoló Lili']);
  const unread = sumNotificationCounts(await firstPushed('notification_counts', countsRequest(), (o) => o.kind === 10000112));
  expect(unread).toBeGreaterThan(0);
  await installNip07Stub(context, DEMO_LOGIN.secretKey);
  const page = await context.newPage();
  await page.goto(`${base()}/home`);
  const chip = page.locator('.side-nav .account-chip');
  await chip.getByRole('button', { name: 'Bejelentkezés' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Bejelentkezés bővítménnyel' }).click();
  await expect(chip.getByRole('button', { name: 'Kijelentkezés' })).toBeVisible();
  const badge = page.locator('.side-nav [data-badge="notifications"]');
  // The shown count, then the screen reader's whole number.
  await expect(badge).toHaveText(`${formatBadgeCount(unread)}${unread} olvasatlan értesítés`);
  await page.locator('.side-nav').getByRole('link', { name: /Értesítések/ }).click();
  await waitReady(page, 'Összes');
  await expect(badge).toHaveCount(0);
  // The server stored the seen mark: its counters are back to zero.
  await expect
    .poll(async () => {
      const s = await firstPushed('notification_counts', countsRequest(), (o) => o.kind === 10000112);
      return sumNotificationCounts(s);
    })
    .toBe(0);
});

test('signed in: the real notifications, grouped, with the actors the server names; tabs filter; load more', async ({ context }) => {
  // How many mentions and reposts a seeded demo network holds varies: one fresh each (older than
  // the likes below, so those stay the newest group) makes every filtered tab non-empty.
  const [own] = await queryRelay({ kinds: [1], authors: [DEMO_LOGIN.pubkey], limit: 1 });
  const earlier = Math.floor(Date.now() / 1000) - 10;
  const other = demoUser(3).secretKey;
  await publishAccepted(finalizeEvent({ kind: 1, created_at: earlier, tags: [['p', DEMO_LOGIN.pubkey]], content: 'Szia, ezt neked írom.' }, other));
  await publishAccepted(finalizeEvent({ kind: 6, created_at: earlier, tags: [['e', own.id], ['p', DEMO_LOGIN.pubkey]], content: JSON.stringify(own) }, other));
  const liked = await freshLikes(['Kedvelő Kata', 'Kedvelő Bence']);
  const page = await signInAndOpen(context);
  await waitReady(page, 'Összes');
  const all = await serverGroups('all');
  expect(all.groups.length).toBeGreaterThan(1);
  await expect(panel(page)).toHaveAttribute('data-notification-count', String(all.page.notifications.length));

  // The first rows are the server's newest groups, with its names and the number of other actors.
  for (let i = 0; i < 3; i++) {
    const group = all.groups[i];
    const row = rows(page).nth(i);
    await expect(row.locator('.notif-name')).toHaveText(all.nameOf(group.actors[0]));
    if (group.actors.length > 1) await expect(row.locator('.notif-text')).toContainText(`és ${group.actors.length - 1} további`);
    else await expect(row.locator('.notif-text')).not.toContainText('további');
    await expect(row).toHaveAttribute('data-notification-type', String(group.type));
    await expect(row.locator('.notif-avatars li a')).toHaveCount(Math.min(8, group.actors.length));
  }
  // The newest group is the two fresh likes (with the note's earlier likers), named newest first.
  const [likeGroup] = all.groups;
  expect(likeGroup).toMatchObject({ type: 4, post: liked });
  expect(all.nameOf(likeGroup.actors[0])).toBe('Kedvelő Bence');
  await expect(rows(page).first().locator('.notif-text')).toContainText(`Kedvelő Bence és ${likeGroup.actors.length - 1} további kedvelte a bejegyzésedet`);
  // The liked note is shown as a card under the sentence.
  expect(all.page.notes[liked]).toMatchObject({ event: { id: liked, pubkey: DEMO_LOGIN.pubkey } });
  await expect(rows(page).first().locator(`article[data-note-id="${liked}"]`)).toBeVisible();
  // Long lists stay virtualised.
  expect(await rows(page).count()).toBeLessThan(all.groups.length);

  // Load more asks 20 older ones (until the oldest shown) and appends those not shown yet.
  const oldest = Math.min(...all.page.notifications.map((n) => n.created_at));
  const more = await serverGroups('all', 20, oldest);
  const known = new Set(all.page.notifications.map((n) => n.id));
  const added = more.page.notifications.filter((n) => !known.has(n.id)).length;
  const loadMore = page.getByRole('button', { name: 'Régebbi értesítések betöltése' });
  await loadMore.scrollIntoViewIfNeeded();
  await loadMore.click();
  await expect(panel(page)).toHaveAttribute('data-notification-count', String(all.page.notifications.length + added));

  for (const [tab, group, types] of [
    ['Válaszok', 'replies', ['6', '601']],
    ['Megosztások', 'reposts', ['5']],
    ['Említések', 'mentions', ['7', '8']],
  ] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await waitReady(page, tab);
    const expected = await serverGroups(group);
    await expect(panel(page)).toHaveAttribute('data-notification-count', String(expected.page.notifications.length));
    // The demo network has replies, reposts and mentions of the demo login.
    expect(expected.groups.length, `${group} on the server`).toBeGreaterThan(0);
    await expect(rows(page).first().locator('.notif-name')).toHaveText(expected.nameOf(expected.groups[0].actors[0]));
    for (const type of await rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-notification-type')))) {
      expect(types as readonly string[]).toContain(type);
    }
  }
  // Back to everything.
  await page.getByRole('tab', { name: 'Összes' }).click();
  await waitReady(page, 'Összes');
  await expect(rows(page).first().locator('.notif-name')).toHaveText(all.nameOf(all.groups[0].actors[0]));
});

test('phone layout and all four themes on /notifications', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'hu-HU', hasTouch: true, isMobile: true });
  const page = await signInAndOpen(context, true);
  await waitReady(page, 'Összes');
  await expect(page.locator('.side-nav')).toBeHidden();
  await expect(page.locator('.bottom-nav')).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  const layout = await page.evaluate(() => {
    const row = document.querySelector('#notif-panel article.notif')!.getBoundingClientRect();
    const tabs = document.querySelector('.notif-tabs')!;
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      rowRight: row.right,
      tabsFit: tabs.scrollWidth <= tabs.clientWidth + 1,
    };
  });
  expect(layout.overflow).toBeLessThanOrEqual(0);
  expect(layout.rowRight).toBeLessThanOrEqual(390);
  expect(layout.tabsFit).toBe(true);

  const seen = new Set<string>();
  for (const theme of THEMES) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    const colours = await page.evaluate(() => {
      const css = (el: Element, p: string) => getComputedStyle(el).getPropertyValue(p).trim();
      const root = document.documentElement;
      const text = document.querySelector('#notif-panel .notif-text')!;
      const tab = document.querySelector('.notif-tab[aria-selected="true"]')!;
      const probe = document.createElement('span');
      probe.style.color = 'var(--accent)';
      document.body.append(probe);
      const accent = getComputedStyle(probe).color;
      probe.style.color = 'var(--text-2)';
      const text2 = getComputedStyle(probe).color;
      probe.remove();
      return { bg: getComputedStyle(document.body).backgroundColor, varBg: css(root, '--bg'), text: getComputedStyle(text).color, text2, tabBorder: getComputedStyle(tab).borderBottomColor, accent };
    });
    // The page's own colours come from the theme's variables.
    expect(colours.text).toBe(colours.text2);
    expect(colours.tabBorder).toBe(colours.accent);
    expect(colours.text).not.toBe(colours.bg);
    seen.add(colours.bg);
  }
  expect(seen.size).toBe(THEMES.length);
  await context.close();
});
