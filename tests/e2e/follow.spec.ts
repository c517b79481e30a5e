/**
 * Follow and unfollow from the profile header and from a people list, the state shared by every
 * tab, and the follow-list repair dialog when the contact list would have fewer than 2 entries.
 */
import { expect, test, type Page } from '@playwright/test';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { npubEncode } from 'nostr-tools/nip19';
import type { PublishResult } from '../../core/types.ts';
import { type Driven, latestEvent, openApp, publishAccepted, queryRelay, signIn } from './support/session.ts';

const now = () => Math.floor(Date.now() / 1000);

/** A fresh person with a profile (and a note, so the profile page has something to show). */
async function newPerson(label: string, follows: string[] = []): Promise<{ pubkey: string; name: string }> {
  const sk = generateSecretKey();
  const pubkey = getPublicKey(sk);
  const name = `${label} ${pubkey.slice(0, 6)}`;
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now() - 60, tags: [], content: JSON.stringify({ name, display_name: name }) }, sk));
  await publishAccepted(finalizeEvent({ kind: 1, created_at: now() - 30, tags: [], content: `Helló, ${name} vagyok.` }, sk));
  if (follows.length > 0) await publishAccepted(finalizeEvent({ kind: 3, created_at: now() - 20, tags: follows.map((p) => ['p', p]), content: '' }, sk));
  return { pubkey, name };
}

/** In-app navigation: reloading the only tab would end the shared worker and the session signIn set up. */
async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** A profile published a moment ago can miss the first cold read, so the page is asked again. */
async function openProfile(page: Page, pubkey: string, name: string): Promise<void> {
  await expect(async () => {
    await goInApp(page, '/home');
    await goInApp(page, `/p/${npubEncode(pubkey)}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 50_000 });
}

const headerButton = (page: Page) => page.locator('.profile-header .follow-button');
const contactsOf = async (pubkey: string) => {
  const [latest] = (await queryRelay({ kinds: [3], authors: [pubkey] })).sort((a, b) => b.created_at - a.created_at);
  return latest;
};

test('a fresh key follows from the profile page through the repair dialog; both tabs show it; unfollow', async ({ context }) => {
  const person = await newPerson('Követendő');
  const viewer = generateSecretKey();
  const me = getPublicKey(viewer);
  const { page } = await signIn(context, viewer);
  await openProfile(page, person.pubkey, person.name);
  const second = await context.newPage();
  await openApp(second, `/p/${npubEncode(person.pubkey)}`);
  await expect(headerButton(second)).toHaveText('Követés');

  // With no contact list yet, one follow would give a list of 1: the repair dialog asks first.
  await expect(headerButton(page)).toHaveText('Követés');
  await headerButton(page).click();
  const dialog = page.getByRole('dialog', { name: 'Követési lista javítása' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('szinte üres');
  // The same question waits in the other tab too; answering in one closes both.
  await expect(second.getByRole('dialog', { name: 'Követési lista javítása' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Közzététel így is' }).click();
  await expect(dialog).toBeHidden();
  await expect(second.getByRole('dialog', { name: 'Követési lista javítása' })).toBeHidden();

  const contacts = await latestEvent(me, 3, now() - 30);
  expect(contacts.tags).toContainEqual(['p', person.pubkey]);
  for (const p of [page, second]) {
    await expect(headerButton(p)).toHaveAccessibleName(/^Követed – kikövetés/);
    await expect(headerButton(p).locator('.follow-label-rest')).toHaveText('Követed');
  }
  await headerButton(second).hover();
  await expect(headerButton(second).locator('.follow-label-hover')).toBeVisible();
  await expect(headerButton(second).locator('.follow-label-hover')).toHaveText('Kikövetés');

  // Unfollowing leaves 0 contacts: asked again, then published without the p tag.
  await headerButton(second).click();
  await second.getByRole('dialog', { name: 'Követési lista javítása' }).getByRole('button', { name: 'Közzététel így is' }).click();
  await expect.poll(async () => (await contactsOf(me)).id).not.toBe(contacts.id);
  expect((await contactsOf(me)).tags).not.toContainEqual(['p', person.pubkey]);
  for (const p of [page, second]) await expect(headerButton(p)).toHaveText('Követés');
});

test('cancelling the repair dialog publishes nothing and the button goes back', async ({ context }) => {
  const person = await newPerson('Nem követett');
  const viewer = generateSecretKey();
  const { page } = await signIn(context, viewer);
  await openProfile(page, person.pubkey, person.name);
  await headerButton(page).click();
  const dialog = page.getByRole('dialog', { name: 'Követési lista javítása' });
  await dialog.getByRole('button', { name: 'Mégse' }).click();
  await expect(dialog).toBeHidden();
  await expect(headerButton(page)).toHaveText('Követés');
  expect(await queryRelay({ kinds: [3], authors: [getPublicKey(viewer)] })).toHaveLength(0);
});

test('follow and unfollow from a follows list with a real contact list: no dialog, the p tag added and removed', async ({ context }) => {
  const b = await newPerson('Béla');
  const c = await newPerson('Cecília');
  const owner = await newPerson('Listás', [b.pubkey, c.pubkey]);
  const viewer = generateSecretKey();
  const me = getPublicKey(viewer);
  const existing = [getPublicKey(generateSecretKey()), getPublicKey(generateSecretKey())];
  const { page } = await signIn(context, viewer);
  const result = await page.evaluate(async (tags) => {
    const api = window.strucc!.api as unknown as Driven;
    return (await api.publish({ kind: 3, tags, content: '', created_at: Math.floor(Date.now() / 1000) - 5 })) as PublishResult;
  }, existing.map((p) => ['p', p]));
  expect(result.success).toBe(true);

  await openProfile(page, owner.pubkey, owner.name);
  await page.getByRole('tab', { name: /Követettek/ }).click();
  const row = page.locator(`li.profile-user[data-pubkey="${b.pubkey}"]`);
  await expect(row).toBeVisible();
  const button = row.getByRole('button', { name: `Követés: ${b.name}` });
  await button.click();
  await expect(row.locator('.follow-button')).toHaveAccessibleName(`Követed – kikövetés: ${b.name}`);

  const followed = await latestEvent(me, 3, now() - 30, { '#p': [b.pubkey] });
  expect(followed.tags).toContainEqual(['p', b.pubkey]);
  for (const p of existing) expect(followed.tags).toContainEqual(['p', p]);
  await expect(page.getByRole('dialog', { name: 'Követési lista javítása' })).toHaveCount(0);

  await row.locator('.follow-button').click();
  await expect(row.locator('.follow-button')).toHaveText('Követés');
  await expect.poll(async () => (await contactsOf(me)).id).not.toBe(followed.id);
  const after = await contactsOf(me);
  expect(after.tags).not.toContainEqual(['p', b.pubkey]);
  for (const p of existing) expect(after.tags).toContainEqual(['p', p]);
});

test('the reactions list has a follow button on every person; following there publishes and keeps the list open', async ({ context }) => {
  const authorKey = generateSecretKey();
  const author = getPublicKey(authorKey);
  const authorName = `Szerző ${author.slice(0, 6)}`;
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now() - 60, tags: [], content: JSON.stringify({ name: authorName, display_name: authorName }) }, authorKey));
  const note = finalizeEvent({ kind: 1, created_at: now() - 30, tags: [], content: 'Kedveld, ha egyetértesz.' }, authorKey);
  await publishAccepted(note);
  const likerKey = generateSecretKey();
  await publishAccepted(finalizeEvent({ kind: 7, created_at: now() - 10, tags: [['e', note.id], ['p', author], ['k', '1']], content: '+' }, likerKey));
  const viewer = generateSecretKey();
  const me = getPublicKey(viewer);
  const { page } = await signIn(context, viewer);
  await page.evaluate(async ({ id, author }) => {
    const api = window.strucc!.api as unknown as Driven;
    return api.publish({ kind: 3, tags: [['p', author], ['p', id]], content: '', created_at: Math.floor(Date.now() / 1000) - 5 });
  }, { id: getPublicKey(generateSecretKey()), author });

  await openProfile(page, author, authorName);
  const card = page.locator(`article[data-note-id="${note.id}"]`);
  await expect(card).toBeVisible();
  await card.locator('.note-stat-likes button').first().click();
  const dialog = page.getByRole('dialog', { name: 'Reakciók' });
  const row = dialog.locator(`.reaction-row[data-pubkey="${getPublicKey(likerKey)}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /^Követés/ }).click();
  await expect(row.locator('.follow-button')).toHaveAttribute('data-following', 'true');
  const followed = await latestEvent(me, 3, now() - 30, { '#p': [getPublicKey(likerKey)] });
  expect(followed.tags).toContainEqual(['p', author]);
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/p\//);
});
