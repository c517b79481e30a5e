/**
 * Interacting with a note through its card: like, repost, bookmark, the context menu's copy
 * items, broadcast, report, mute and delete. Each signed action is read back from the server's
 * relay; the author is a fresh key with its own notes, the viewer a fresh signed-in key.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { finalizeEvent, generateSecretKey, getPublicKey, type Event } from 'nostr-tools/pure';
import { decode, neventEncode, noteEncode, nsecEncode, npubEncode } from 'nostr-tools/nip19';
import type { NostrEvent, PublishResult } from '../../core/types.ts';
import { baseUrl, type Driven, latestEvent, openApp, publishAccepted, queryRelay, signIn } from './support/session.ts';
import { toast } from './support/toast.ts';

const now = () => Math.floor(Date.now() / 1000);

interface Author {
  sk: Uint8Array;
  pubkey: string;
  name: string;
  notes: Event[];
}

/** A fresh author with a profile and two notes on the server. */
async function newAuthor(): Promise<Author> {
  const sk = generateSecretKey();
  const pubkey = getPublicKey(sk);
  const name = `Szerző ${pubkey.slice(0, 6)}`;
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now() - 60, tags: [], content: JSON.stringify({ name, display_name: name }) }, sk));
  const notes = [
    finalizeEvent({ kind: 1, created_at: now() - 30, tags: [], content: `Első próbabejegyzés ${pubkey.slice(0, 8)}` }, sk),
    finalizeEvent({ kind: 1, created_at: now() - 20, tags: [], content: `Második próbabejegyzés ${pubkey.slice(0, 8)}` }, sk),
  ];
  for (const n of notes) await publishAccepted(n);
  return { sk, pubkey, name, notes };
}

const threadPath = (e: Event) => `/e/${neventEncode({ id: e.id, author: e.pubkey })}`;
const cardOf = (page: Page, e: Event) => page.locator(`article[data-note-id="${e.id}"]`).first();

/**
 * Moves inside the app without a reload: a reload of the only tab would end the shared worker,
 * and with it the session signIn set up (the signed-in key and the local write relay).
 */
async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Opens a page in the app; a note published a moment ago can miss the first cold read, so it is asked again. */
async function openIn(page: Page, path: string, ready: Locator): Promise<void> {
  await expect(async () => {
    await goInApp(page, '/home');
    await goInApp(page, path);
    await expect(ready).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 50_000 });
}

async function openCard(page: Page, e: Event): Promise<Locator> {
  const card = cardOf(page, e);
  await openIn(page, threadPath(e), card);
  return card;
}

async function openMenu(card: Locator): Promise<Locator> {
  await card.getByRole('button', { name: 'További műveletek' }).click();
  const menu = card.page().getByRole('menu', { name: 'Bejegyzés menü' });
  await expect(menu).toBeVisible();
  return menu;
}


test('like: a kind 7 with e and p tags, the heart highlighted, the count up by one, and liked in a second tab', async ({ context }) => {
  const author = await newAuthor();
  const target = author.notes[0];
  const viewer = generateSecretKey();
  const { page } = await signIn(context, viewer);
  const card = await openCard(page, target);
  const like = card.getByRole('button', { name: 'Kedvelés', exact: true });
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  const before = Number(await card.locator('.note-stat-likes').getAttribute('data-count'));
  const since = now() - 5;

  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(card.locator('.note-stat-likes')).toHaveAttribute('data-count', String(before + 1));
  const reaction = await latestEvent(getPublicKey(viewer), 7, since);
  expect(reaction.content).toBe('+');
  expect(reaction.tags).toContainEqual(['e', target.id]);
  expect(reaction.tags).toContainEqual(['p', author.pubkey]);

  // A second like of the same note publishes nothing.
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');

  const second = await context.newPage();
  await openApp(second, threadPath(target));
  const secondCard = cardOf(second, target);
  await expect(secondCard.getByRole('button', { name: 'Kedvelés', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(secondCard.locator('.note-stat-likes')).toHaveAttribute('data-count', String(before + 1));
  expect(await queryRelay({ kinds: [7], authors: [getPublicKey(viewer)] })).toHaveLength(1);
});

test('a fresh start straight onto a thread shows the viewer’s own like once the stored login is restored', async ({ context }) => {
  const author = await newAuthor();
  const target = author.notes[0];
  const viewer = generateSecretKey();
  await publishAccepted(finalizeEvent({ kind: 7, created_at: now() - 5, tags: [['e', target.id], ['p', author.pubkey], ['k', '1']], content: '+' }, viewer));

  // Signed in with a private key kept in this browser (no PIN)...
  const page = await context.newPage();
  await page.goto(`${baseUrl()}/home`);
  await page.locator('.side-nav .account-chip').getByRole('button', { name: 'Bejelentkezés' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bejelentkezés' });
  await dialog.getByLabel('Privát kulcs (nsec)', { exact: true }).fill(nsecEncode(viewer));
  await dialog.getByRole('button', { name: 'Bejelentkezés', exact: true }).click();
  await expect(dialog).toBeHidden();

  // ...then the only tab closes, which ends the shared worker: the next tab starts it again straight
  // on the thread, which opens while the stored login is still being restored.
  await page.close();
  const fresh = await context.newPage();
  await fresh.goto(`${baseUrl()}${threadPath(target)}`);
  await expect(cardOf(fresh, target).getByRole('button', { name: 'Kedvelés', exact: true })).toHaveAttribute('aria-pressed', 'true');
});

test('repost publishes a kind 6 carrying the note, with a toast; a quote publishes a kind 1 with q, e and p tags', async ({ context }) => {
  const author = await newAuthor();
  const target = author.notes[1];
  const viewer = generateSecretKey();
  const { page } = await signIn(context, viewer);
  const card = await openCard(page, target);
  const since = now() - 5;

  const button = card.getByRole('button', { name: 'Megosztás vagy idézés' });
  await button.click();
  const menu = page.getByRole('menu', { name: 'Megosztás menü' });
  await expect(menu.getByRole('menuitem', { name: 'Megosztás' })).toBeFocused();
  await menu.getByRole('menuitem', { name: 'Megosztás' }).click();
  await expect(toast(page, 'Bejegyzés megosztva')).toBeVisible();
  await expect(card.locator('.note-bar-reposts')).toHaveClass(/is-active/);

  const repost = await latestEvent(getPublicKey(viewer), 6, since);
  expect(repost.tags).toContainEqual(['p', author.pubkey]);
  expect(repost.tags.find((t) => t[0] === 'e')?.[1]).toBe(target.id);
  expect(JSON.parse(repost.content)).toMatchObject({ id: target.id, sig: target.sig, content: target.content });

  await button.click();
  await page.getByRole('menu', { name: 'Megosztás menü' }).getByRole('menuitem', { name: 'Idézés' }).click();
  const dialog = page.getByRole('dialog', { name: 'Idézés' });
  await expect(dialog).toBeVisible();
  // The quote names the note by q (NIP-18), and its nevent in the text is an e mention like any other.
  await dialog.getByRole('textbox', { name: 'A bejegyzés szövege' }).press('Control+Home');
  await dialog.getByRole('textbox', { name: 'A bejegyzés szövege' }).pressSequentially('Ezt olvasd: ');
  await dialog.getByRole('button', { name: 'Közzététel' }).click();
  await expect(dialog).toHaveCount(0);
  const quote = await latestEvent(getPublicKey(viewer), 1, since);
  expect(quote.content).toMatch(/^Ezt olvasd: [\s\S]*nostr:nevent1/);
  expect(quote.tags.find((t) => t[0] === 'q')).toEqual(['q', target.id, expect.any(String), author.pubkey]);
  expect(quote.tags.find((t) => t[0] === 'e' && t[1] === target.id)?.[3]).toBe('mention');
  expect(quote.tags.find((t) => t[0] === 'p' && t[1] === author.pubkey)?.[3]).toBe('mention');
});

test('bookmark toggles a kind 10003 with the note’s e tag', async ({ context }) => {
  const author = await newAuthor();
  const target = author.notes[0];
  const viewer = generateSecretKey();
  const pubkey = getPublicKey(viewer);
  const { page } = await signIn(context, viewer);
  const card = await openCard(page, target);
  const bookmark = card.getByRole('button', { name: 'Könyvjelző' });
  await expect(bookmark).toHaveAttribute('aria-pressed', 'false');

  const since = now() - 5;
  await bookmark.click();
  await expect(bookmark).toHaveAttribute('aria-pressed', 'true');
  const list = await latestEvent(pubkey, 10003, since);
  expect(list.tags).toContainEqual(['e', target.id]);

  const second = await context.newPage();
  await openApp(second, threadPath(target));
  await expect(cardOf(second, target).getByRole('button', { name: 'Könyvjelző' })).toHaveAttribute('aria-pressed', 'true');

  await bookmark.click();
  await expect(bookmark).toHaveAttribute('aria-pressed', 'false');
  await expect
    .poll(async () => {
      const [latest] = (await queryRelay({ kinds: [10003], authors: [pubkey] })).sort((a, b) => b.created_at - a.created_at);
      return latest && latest.id !== list.id ? latest.tags.some((t) => t[0] === 'e' && t[1] === target.id) : 'waiting';
    })
    .toBe(false);
  await expect(cardOf(second, target).getByRole('button', { name: 'Könyvjelző' })).toHaveAttribute('aria-pressed', 'false');
});

test('the context menu copies link, text, id, raw data and npub, each with its toast; keys move and close it', async ({ context }) => {
  const author = await newAuthor();
  const target = author.notes[0];
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
  const { page } = await signIn(context, generateSecretKey());
  const card = await openCard(page, target);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  const cases: [string, string, (text: string) => void][] = [
    [
      'Link másolása',
      'Link másolva',
      (text) => {
        expect(text.startsWith(`${baseUrl()}/e/nevent1`)).toBe(true);
        expect(decode(text.split('/e/')[1])).toMatchObject({ type: 'nevent', data: { id: target.id, author: author.pubkey } });
      },
    ],
    ['Szöveg másolása', 'Szöveg másolva', (text) => expect(text).toBe(target.content)],
    ['Azonosító másolása', 'Azonosító másolva', (text) => expect(text).toBe(noteEncode(target.id))],
    ['Nyers adatok másolása', 'Nyers adatok másolva', (text) => expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(target)))],
    ['Szerző npub-jának másolása', 'A szerző npub-ja másolva', (text) => expect(text).toBe(npubEncode(author.pubkey))],
  ];
  for (const [item, done, check] of cases) {
    const menu = await openMenu(card);
    await menu.getByRole('menuitem', { name: item }).click();
    await expect(toast(page, done)).toBeVisible();
    await expect(menu).toBeHidden();
    check(await clipboard());
  }

  // Keyboard: focus starts on the first item, arrows wrap, Escape closes and returns focus.
  const more = card.getByRole('button', { name: 'További műveletek' });
  const menu = await openMenu(card);
  await expect(menu.getByRole('menuitem', { name: 'Link másolása' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Szöveg másolása' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Szerző jelentése' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(menu.getByRole('menuitem', { name: 'Link másolása' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
  await expect(more).toHaveAttribute('aria-expanded', 'false');
});

test('broadcast re-publishes the signed note as it is, with a success toast', async ({ context }) => {
  const author = await newAuthor();
  const target = author.notes[1];
  const { page } = await signIn(context, generateSecretKey());
  const card = await openCard(page, target);
  const menu = await openMenu(card);
  await menu.getByRole('menuitem', { name: 'Újraküldés a reléimre' }).click();
  await expect(toast(page, 'Bejegyzés újraküldve a reléidre')).toBeVisible();
  const [onServer] = await queryRelay({ ids: [target.id] });
  expect(onServer).toMatchObject({ id: target.id, sig: target.sig });
});

test('report asks first, then publishes a kind 1984 naming the author and the note with the reason', async ({ context }) => {
  const author = await newAuthor();
  const target = author.notes[0];
  const viewer = generateSecretKey();
  const { page } = await signIn(context, viewer);
  const card = await openCard(page, target);
  const since = now() - 5;

  let menu = await openMenu(card);
  await menu.getByRole('menuitem', { name: 'Szerző jelentése' }).click();
  let dialog = page.getByRole('dialog', { name: 'Szerző jelentése' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Mégse' }).click();
  await expect(dialog).toBeHidden();

  menu = await openMenu(card);
  await menu.getByRole('menuitem', { name: 'Szerző jelentése' }).click();
  dialog = page.getByRole('dialog', { name: 'Szerző jelentése' });
  await expect(dialog.getByRole('radio', { name: 'Kéretlen tartalom (spam)' })).toBeChecked();
  await dialog.getByRole('radio', { name: 'Illegális tartalom' }).check();
  await dialog.getByRole('button', { name: 'Jelentés' }).click();
  await expect(toast(page, 'Szerző jelentve')).toBeVisible();
  await expect(dialog).toBeHidden();

  const report = await latestEvent(getPublicKey(viewer), 1984, since);
  expect(report.tags).toContainEqual(['p', author.pubkey, 'illegal']);
  expect(report.tags).toContainEqual(['e', target.id, 'illegal']);
  // The cancelled first attempt signed nothing.
  expect(await queryRelay({ kinds: [1984], authors: [getPublicKey(viewer)] })).toHaveLength(1);
});

test('mute asks first, publishes a kind 10000 with the author, and the author’s notes leave the open feed', async ({ context }) => {
  const author = await newAuthor();
  const viewer = generateSecretKey();
  const { page } = await signIn(context, viewer);
  const profile = `/p/${npubEncode(author.pubkey)}`;
  const cards = page.locator('[role="feed"] article[data-note-id]');
  await openIn(page, profile, cards.nth(1));
  await expect(cards).toHaveCount(2);
  const since = now() - 5;

  const menu = await openMenu(cardOf(page, author.notes[1]));
  await menu.getByRole('menuitem', { name: 'Szerző némítása' }).click();
  const confirm = page.getByRole('dialog', { name: 'Szerző némítása' });
  await expect(confirm).toContainText(author.name);
  await confirm.getByRole('button', { name: 'Némítás' }).click();

  const list = await latestEvent(getPublicKey(viewer), 10000, since);
  expect(list.tags).toContainEqual(['p', author.pubkey]);
  await expect(cards).toHaveCount(0);
  await expect(toast(page, `${author.name} némítva`)).toBeVisible();
});

test('mute thread publishes the root’s e tag in the kind 10000; the thread leaves the open feed and is listed on the muted page until unmuted', async ({ context }) => {
  const author = await newAuthor();
  const [root, other] = author.notes;
  const viewer = generateSecretKey();
  const me = getPublicKey(viewer);
  const { page } = await signIn(context, viewer);
  const cards = page.locator('[role="feed"] article[data-note-id]');
  await openIn(page, `/p/${npubEncode(author.pubkey)}`, cards.nth(1));
  const since = now() - 5;

  const menu = await openMenu(cardOf(page, root));
  await menu.getByRole('menuitem', { name: 'Szál némítása' }).click();
  await expect(toast(page, 'A szál némítva: a válaszai nem jelennek meg többé')).toBeVisible();
  const list = await latestEvent(me, 10000, since);
  expect(list.tags).toContainEqual(['e', root.id]);
  await expect(page.locator(`[role="feed"] article[data-note-id="${root.id}"]`)).toHaveCount(0);
  await expect(page.locator(`[role="feed"] article[data-note-id="${other.id}"]`)).toBeVisible();

  await goInApp(page, '/settings/muted');
  const row = page.locator(`[data-thread="${root.id}"]`);
  await expect(row).toContainText(root.content);
  await row.getByRole('button', { name: 'Némítás feloldása' }).click();
  await expect(row).toHaveCount(0);
  await expect
    .poll(async () => (await latestEvent(me, 10000, since)).tags.some((t) => t[0] === 'e' && t[1] === root.id))
    .toBe(false);
});

test('delete own note: asks first, publishes a kind 5, and the note leaves the feed', async ({ context }) => {
  const viewer = generateSecretKey();
  const pubkey = getPublicKey(viewer);
  const { page } = await signIn(context, viewer);
  const published = await page.evaluate(async (content) => {
    const api = window.strucc!.api as unknown as Driven;
    return (await api.publish({ kind: 1, tags: [], content, created_at: Math.floor(Date.now() / 1000) })) as PublishResult;
  }, `Ezt hamarosan törlöm ${pubkey.slice(0, 8)}`);
  expect(published.success).toBe(true);
  const own = published.event as NostrEvent as Event;

  const card = cardOf(page, own);
  await openIn(page, `/p/${npubEncode(pubkey)}`, card);
  const since = now() - 5;

  const menu = await openMenu(card);
  // One's own note cannot be muted or reported, only deleted.
  await expect(menu.getByRole('menuitem', { name: 'Szerző némítása' })).toHaveCount(0);
  await menu.getByRole('menuitem', { name: 'Bejegyzés törlése' }).click();
  await page.getByRole('dialog', { name: 'Bejegyzés törlése' }).getByRole('button', { name: 'Törlés' }).click();

  const deletion = await latestEvent(pubkey, 5, since);
  expect(deletion.tags).toContainEqual(['e', own.id]);
  expect(deletion.tags).toContainEqual(['k', '1']);
  await expect(toast(page, 'Bejegyzés törölve')).toBeVisible();
  await expect(card).toHaveCount(0);
});

test('a guest pressing like gets the login modal and nothing is signed', async ({ page }) => {
  const author = await newAuthor();
  await page.goto(`${baseUrl()}/home`);
  const card = await openCard(page, author.notes[0]);
  await card.getByRole('button', { name: 'Kedvelés', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Bejelentkezés' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Kedvelés', exact: true })).toHaveAttribute('aria-pressed', 'false');
});
