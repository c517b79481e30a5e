import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import * as nip04 from 'nostr-tools/nip04';
import { npubEncode, nsecEncode } from 'nostr-tools/nip19';
import type { AccountSnapshot, LogEntry } from '../../core/types.ts';
import { englishIn } from './support/catalogue.ts';
import { DEMO_LOGIN_NSEC, demoUser } from '../../server/demo/accounts.ts';
import { DEMO_LOGIN_DM_PEERS } from '../../server/demo/private.ts';
import { DEMO_LOGIN_PRIVATE_PEERS } from '../../server/demo/private17.ts';
import { displayName, parseProfile } from '../../core/profile.ts';
import { enableDevMode } from './support/nip07-stub.ts';
import { baseUrl, latestEvent, openApp, publishAccepted, queryRelay, signIn, useLocalRelay, type Driven } from './support/session.ts';

// /dms with two people in two browser contexts: one signs through the NIP-07 extension stub, the
// other with an nsec. Both publish to the server's relay; the cache server counts and serves.

interface Person {
  secret: Uint8Array;
  pubkey: string;
  npub: string;
  name: string;
}

async function person(name: string): Promise<Person> {
  const secret = generateSecretKey();
  const pubkey = getPublicKey(secret);
  const now = Math.floor(Date.now() / 1000);
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now, tags: [], content: JSON.stringify({ name, display_name: name }) }, secret));
  return { secret, pubkey, npub: npubEncode(pubkey), name };
}

/** A kind 4 from one person to another, as another client would publish it. */
async function sendDirect(from: Person, to: Person, text: string, createdAt = Math.floor(Date.now() / 1000)): Promise<void> {
  const content = nip04.encrypt(from.secret, to.pubkey, text);
  await publishAccepted(finalizeEvent({ kind: 4, created_at: createdAt, tags: [['p', to.pubkey]], content }, from.secret));
}

async function nsecSignIn(browser: Browser, who: Person, path = '/home'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page, path);
  const result = await page.evaluate((nsec) => (window.strucc!.api as unknown as Driven).login({ method: 'nsec', nsec }), nsecEncode(who.secret));
  expect(result).toMatchObject({ ok: true });
  await useLocalRelay(page);
  return { context, page };
}

const ownRelay = () => `${baseUrl().replace(/^http/, 'ws')}/relay`;
const dmBadge = (page: Page) => page.locator('.side-nav [data-badge="dms"]');
const contactRow = (page: Page, who: Person) => page.locator(`.dm-contact[data-pubkey="${who.pubkey}"]`);
const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Üzenet', exact: true });
const messages = (page: Page) => page.getByRole('log', { name: 'Üzenetek' });

/** The draft of the conversation with `peer` as the worker stored it. */
function storedDraft(page: Page, peer: string): Promise<string | undefined> {
  return page.evaluate(
    (key) =>
      new Promise<string | undefined>((resolve) => {
        const { api, tabId, proxy } = window.strucc as unknown as { api: Driven; tabId: string; proxy: <T>(f: T) => T };
        let handle: number | undefined;
        void api
          .watchAccount(
            tabId,
            proxy((s: AccountSnapshot) => {
              resolve(s.account?.noteDraft?.[key]);
              if (handle !== undefined) void api.unwatchAccount(handle);
            }),
          )
          .then((h) => (handle = h));
      }),
    `dm:${peer}`,
  );
}

test('two people write to each other live, privately (NIP-17) and with NIP-04: unread badge, profile button, relation tabs, draft, mark all read', async ({ browser }) => {
  test.setTimeout(120_000);
  const anna = await person('Anna Üzenő');
  const bence = await person('Bence Címzett');
  const cili = await person('Cili Harmadik');

  // Anna signs through the extension stub; Bence with his nsec.
  const annaContext = await browser.newContext();
  const { page: a, stub } = await signIn(annaContext, anna.secret);
  const { context: bentoContext, page: b } = await nsecSignIn(browser, bence);
  await expect(dmBadge(b)).toHaveCount(0);
  // Signed in without an inbox list, each got one naming our relay (kind 10050), so they write privately.
  for (const who of [anna, bence]) expect((await latestEvent(who.pubkey, 10050)).tags).toEqual([['relay', ownRelay()]]);

  // Anna starts from Bence's profile.
  await a.goto(`${baseUrl()}/p/${bence.npub}`);
  await a.getByRole('link', { name: /Üzenet küldése neki: Bence Címzett/ }).click();
  await expect(a).toHaveURL(new RegExp(`/dms/${bence.npub}$`));
  const header = a.locator('.dm-conversation-header');
  await expect(header.getByRole('heading', { name: 'Bence Címzett' })).toBeVisible();
  await expect(header.getByRole('link')).toHaveAttribute('href', `/p/${bence.npub}`);
  await expect(messages(a)).toContainText('Még nem váltottatok üzenetet');
  await expect(header.locator('.dm-protocol')).toHaveText('Privát (NIP-17)');
  await expect(messageBox(a)).toHaveAttribute('placeholder', 'Írj privát üzenetet…');

  await messageBox(a).fill('Szia Bence!');
  await messageBox(a).press('Enter');
  await expect(messageBox(a)).toHaveValue('');
  // Shown at once from the outbox, then as the private message that went out.
  await expect(messages(a).locator('.dm-bubble', { hasText: 'Szia Bence!' })).toHaveCount(1);
  await expect(messages(a).locator('.dm-bubble:not([data-status])[data-private="true"]', { hasText: 'Szia Bence!' })).toHaveCount(1, { timeout: 20_000 });
  await expect(messages(a).locator('.dm-bubble[data-private="true"] .dm-private-mark').first()).toHaveText('privát');
  // The extension sealed it (kind 13); nothing was sent as NIP-04, and the wrap hides the sender.
  expect(stub.signed.some((e) => e.kind === 13)).toBe(true);
  expect(stub.signed.some((e) => e.kind === 4)).toBe(false);

  // Bence's badge rises while he is on another page.
  await expect(dmBadge(b)).toHaveText(/^1/, { timeout: 20_000 });
  await b.locator('.side-nav').getByRole('link', { name: 'Üzenetek' }).click();
  // Relation tabs: a new account starts on "follows", and Bence does not follow Anna.
  await expect(b.getByRole('tab', { name: 'Követettek' })).toHaveAttribute('aria-selected', 'true');
  await expect(b.getByText('Az általad követettekkel még nem beszélgettél.')).toBeVisible();
  await b.getByRole('tab', { name: 'Egyéb' }).click();
  await expect(contactRow(b, anna)).toHaveAttribute('data-unread', '1');
  await expect(contactRow(b, anna)).toContainText('Anna Üzenő');
  // The preview was unwrapped in the worker.
  await expect(contactRow(b, anna)).toContainText('Szia Bence!');
  await b.getByRole('tab', { name: 'Összes' }).click();
  await expect(contactRow(b, anna)).toHaveAttribute('data-unread', '1');
  // The relation is remembered for the account.
  await b.reload();
  await expect(b.getByRole('tab', { name: 'Összes' })).toHaveAttribute('aria-selected', 'true');
  await contactRow(b, anna).click();
  await expect(b).toHaveURL(new RegExp(`/dms/${anna.npub}$`));
  await expect(messages(b)).toContainText('Szia Bence!');
  await expect(dmBadge(b)).toHaveCount(0, { timeout: 20_000 });
  // The signed-in screen is Hungarian too (the route walks see only the guest view).
  expect(englishIn(await b.locator('main').innerText()).map((p) => p.phrase)).toEqual([]);
  await expect(contactRow(b, anna)).toHaveAttribute('data-unread', '0');
  await expect(messages(b).locator('.dm-bubble[data-private="true"]', { hasText: 'Szia Bence!' })).toHaveCount(1);

  // The reply reaches Anna's open conversation live; Shift+Enter breaks the line instead of sending.
  await messageBox(b).fill('Szia Anna!');
  await messageBox(b).press('Shift+Enter');
  await messageBox(b).pressSequentially('Hogy vagy?');
  await expect(messageBox(b)).toHaveValue('Szia Anna!\nHogy vagy?');
  await messageBox(b).press('Enter');
  await expect(messages(a)).toContainText('Hogy vagy?', { timeout: 20_000 });
  await expect(messages(a).locator('.dm-bubble[data-private="true"]', { hasText: 'Hogy vagy?' })).toHaveCount(1);

  // A draft survives a reload, and the conversation it belongs to reopens.
  await messageBox(a).fill('félkész gondolat');
  await expect.poll(() => storedDraft(a, bence.pubkey)).toBe('félkész gondolat');
  await a.goto(`${baseUrl()}/dms`);
  await expect(a).toHaveURL(new RegExp(`/dms/${bence.npub}$`));
  await expect(messageBox(a)).toHaveValue('félkész gondolat');

  // Someone else writes to Bence: mark all as read clears his counts.
  await sendDirect(cili, bence, 'Cili vagyok');
  await expect(contactRow(b, cili)).toHaveAttribute('data-unread', '1', { timeout: 20_000 });
  await expect(contactRow(b, cili)).toContainText('Cili vagyok');
  await expect(dmBadge(b)).toHaveText(/^1/);
  await b.getByRole('button', { name: 'Összes olvasottnak jelölése' }).click();
  await expect(contactRow(b, cili)).toHaveAttribute('data-unread', '0', { timeout: 20_000 });
  await expect(dmBadge(b)).toHaveCount(0);

  // Cili has no inbox list: Bence answers her with NIP-04, and the header says so.
  await contactRow(b, cili).click();
  await expect(b.locator('.dm-conversation-header .dm-protocol')).toHaveText('NIP-04');
  await expect(messages(b).locator('.dm-bubble:not([data-private])', { hasText: 'Cili vagyok' })).toHaveCount(1);
  await messageBox(b).fill('Szia Cili!');
  await messageBox(b).press('Enter');
  await expect(messages(b).locator('.dm-bubble:not([data-status]):not([data-private])', { hasText: 'Szia Cili!' })).toHaveCount(1, { timeout: 20_000 });
  const toCili = await latestEvent(bence.pubkey, 4);
  expect(toCili.tags).toContainEqual(['p', cili.pubkey]);
  expect(nip04.decrypt(cili.secret, bence.pubkey, toCili.content)).toBe('Szia Cili!');

  await annaContext.close();
  await bentoContext.close();
});

test('a failed send shows the reason in Hungarian and can be retried', async ({ browser }) => {
  const dora = await person('Dóra Küldő');
  const ede = await person('Ede Fogadó');
  const { context, page } = await nsecSignIn(browser, dora, '/home');
  await page.goto(`${baseUrl()}/dms/${ede.npub}`);
  await expect(messages(page)).toContainText('Még nem váltottatok üzenetet');
  // No relay to write to: the publish fails.
  await page.evaluate((relay) => (window.strucc!.api as unknown as Driven).removeRelay(relay), `${baseUrl().replace(/^http/, 'ws')}/relay`);
  await messageBox(page).fill('Ez elakad');
  await messageBox(page).press('Enter');
  const failed = messages(page).locator('.dm-bubble[data-status="failed"]');
  await expect(failed).toContainText('Nem sikerült elküldeni', { timeout: 20_000 });
  await useLocalRelay(page);
  await failed.getByRole('button', { name: 'Újraküldés' }).click();
  await expect(messages(page).locator('.dm-bubble:not([data-status])', { hasText: 'Ez elakad' })).toHaveCount(1, { timeout: 20_000 });
  await context.close();
});

test('signed in through an extension that goes away: the message fails with the Hungarian reason; the screen passes axe', async ({ browser }) => {
  const fanni = await person('Fanni Bővítményes');
  const gabor = await person('Gábor Válaszoló');
  await sendDirect(gabor, fanni, 'Kérdés a bővítményről');
  const context = await browser.newContext();
  const { page } = await signIn(context, fanni.secret);
  await page.goto(`${baseUrl()}/dms/${gabor.npub}`);
  // Decrypted through window.nostr.nip04 in the tab.
  await expect(messages(page)).toContainText('Kérdés a bővítményről');
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The extension goes away: the conversation, opened again, says why it cannot be read.
  await page.evaluate(() => delete (window as { nostr?: unknown }).nostr);
  await page.locator('.dm-back').evaluate((el) => (el as HTMLElement).click());
  await expect(page).toHaveURL(/\/dms$/);
  await page.evaluate((path) => {
    history.pushState(null, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
  }, `/dms/${gabor.npub}`);
  await expect(messages(page)).toContainText('Az üzeneteket nem sikerült visszafejteni: nem található Nostr bővítmény');
  await expect(messages(page)).not.toContainText('Kérdés a bővítményről');
  // The skipped message is counted in the devtools log.
  const logged = await page.evaluate(
    () =>
      new Promise<LogEntry[]>((resolve) => {
        const { api, tabId, proxy } = window.strucc as unknown as { api: Driven; tabId: string; proxy: <T>(f: T) => T };
        void api.watchLogs(tabId, proxy((entries: LogEntry[]) => resolve(entries)));
      }),
  );
  expect(logged.filter((e) => e.key === 'dmDecryptFailed').map((e) => e.params)).toContainEqual({ count: 1, peer: gabor.pubkey });
  await messageBox(page).fill('Ez nem megy ki');
  await messageBox(page).press('Enter');
  const failed = messages(page).locator('.dm-bubble[data-status="failed"]');
  await expect(failed).toContainText('Nem sikerült elküldeni: nem található Nostr bővítmény');
  await expect(failed.getByRole('button', { name: 'Újraküldés' })).toBeVisible();
  await context.close();
});

test('20 messages a page, older ones load when scrolled to the top and the view stays in place', async ({ browser }) => {
  const hanna = await person('Hanna Sokatíró');
  const imre = await person('Imre Olvasó');
  const start = Math.floor(Date.now() / 1000) - 3600;
  for (let i = 1; i <= 25; i++) await sendDirect(hanna, imre, `Üzenet ${i}.`, start + i * 60);
  const { context, page } = await nsecSignIn(browser, imre);
  await page.goto(`${baseUrl()}/dms/${hanna.npub}`);
  const log = messages(page);
  await expect(log).toHaveAttribute('data-count', '20');
  // Newest at the bottom, in view.
  await expect(log.locator('.dm-bubble').last()).toContainText('Üzenet 25.');
  await expect(log.locator('.dm-bubble').last()).toBeInViewport();
  await expect(log.locator('.dm-bubble').first()).toContainText('Üzenet 6.');
  await log.evaluate((el) => (el.scrollTop = 0));
  await expect(log).toHaveAttribute('data-count', '25');
  await expect(log.locator('.dm-bubble').first()).toContainText('Üzenet 1.');
  // The older page went in above what was being read: the view was moved down by its height.
  expect(await log.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await expect(log.locator('.dm-bubble', { hasText: 'Üzenet 6.' })).toBeInViewport();
  await context.close();
});

test('the people search starts a conversation; the message box has the note composer\'s mentions and emoji', async ({ browser }) => {
  const writer = await person('Jutka Kereső');
  // A demo account with a searchable name.
  const other = demoUser(24);
  const [meta] = await queryRelay({ kinds: [0], authors: [other.pubkey], limit: 1 });
  const profile = parseProfile(meta);
  const handle = profile.name.replace(/\s.*$/, '');
  const { context, page } = await nsecSignIn(browser, writer, '/dms');
  await page.goto(`${baseUrl()}/dms`);
  await page.getByRole('searchbox', { name: 'Új beszélgetés: keress egy személyt' }).fill(handle);
  await page.locator(`.dm-search-result[data-pubkey="${other.pubkey}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/dms/${npubEncode(other.pubkey)}$`));
  await expect(page.locator('.dm-conversation-header').getByRole('heading', { name: displayName(profile) })).toBeVisible();

  const box = messageBox(page);
  await box.pressSequentially('Nézd, ');
  await box.pressSequentially(`@${handle}`);
  const option = page.locator(`[role="option"][data-pubkey="${other.pubkey}"]`);
  await expect(option).toBeVisible();
  const options = page.getByRole('option');
  const index = await options.evaluateAll((els, pk) => els.findIndex((e) => e.getAttribute('data-pubkey') === pk), other.pubkey);
  for (let i = 0; i < index; i++) await box.press('ArrowDown');
  // Enter chooses from the list; it does not send.
  await box.press('Enter');
  await expect(box).toHaveValue(`Nézd, nostr:${npubEncode(other.pubkey)} `);
  await page.getByRole('button', { name: 'Emodzsi beszúrása' }).click();
  await page.getByRole('dialog', { name: 'Emodzsik' }).getByRole('region', { name: 'Étel és ital' }).getByRole('button', { name: '☕' }).click();
  await expect(box).toHaveValue(`Nézd, nostr:${npubEncode(other.pubkey)} ☕`);
  await box.press('Enter');
  const bubble = messages(page).locator('.dm-bubble', { hasText: 'Nézd' });
  await expect(bubble).toContainText('☕');
  // The mention is rendered by the note content renderer, as a link to the profile.
  await expect(bubble.locator(`a[href*="${npubEncode(other.pubkey)}"]`).first()).toBeVisible();
  await context.close();
});

test('the demo login finds its demo conversations on /dms, some of them unread', async ({ browser }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext();
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page, '/home');
  const result = await page.evaluate((nsec) => (window.strucc!.api as unknown as Driven).login({ method: 'nsec', nsec }), DEMO_LOGIN_NSEC);
  expect(result).toMatchObject({ ok: true });
  // The seed left some conversations unread: the navigation shows their total.
  await expect(dmBadge(page)).toHaveText(/^[1-9]/, { timeout: 20_000 });
  await page.locator('.side-nav').getByRole('link', { name: 'Üzenetek' }).click();
  await page.getByRole('tab', { name: 'Összes' }).click();
  const rows = page.locator('.dm-contact');
  // Its NIP-04 conversations and the private (NIP-17) ones, unwrapped in the worker.
  await expect(rows).toHaveCount(DEMO_LOGIN_DM_PEERS + DEMO_LOGIN_PRIVATE_PEERS, { timeout: 20_000 });
  await expect(page.locator('.dm-contact[data-private="true"]')).toHaveCount(DEMO_LOGIN_PRIVATE_PEERS);
  // Previews are decrypted in the worker: Hungarian text, not NIP-04 ciphertext.
  await expect(rows.first()).not.toContainText('?iv=');
  await expect(page.locator('.dm-contact .dm-unread').first()).toBeVisible();
  const unread = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-unread') ?? 0)));
  expect(unread.filter((n) => n > 0).length).toBeGreaterThan(0);
  expect(unread.filter((n) => n === 0).length).toBeGreaterThan(0);
  // One private conversation is unread (the partner wrote last), one read (the demo login answered).
  const privateUnread = await page.locator('.dm-contact[data-private="true"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-unread'))));
  expect(privateUnread.filter((n) => n > 0)).toHaveLength(1);
  await page.locator('.dm-contact[data-private="true"]').first().click();
  await expect(page.locator('.dm-conversation-header .dm-protocol')).toHaveText('Privát (NIP-17)');
  await expect(messages(page).locator('.dm-bubble[data-private="true"]').first()).toBeVisible();
  await context.close();
});

test('logged out, /dms asks to log in', async ({ page }) => {
  await page.goto(`${baseUrl()}/dms`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Üzenetek');
  await expect(page.getByText('Jelentkezz be az üzeneteidhez')).toBeVisible();
  await page.locator('.dm-guest').getByRole('button', { name: 'Bejelentkezés' }).click();
  await expect(page.getByRole('dialog', { name: 'Bejelentkezés' })).toBeVisible();
});
