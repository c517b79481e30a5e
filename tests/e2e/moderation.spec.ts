/**
 * Muted page, content filtering and /mutelist/: every change is signed with the stub extension,
 * published to the server's relay, and read back from the server.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { npubEncode } from 'nostr-tools/nip19';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { DEMO_LOGIN_PUBKEY } from '../../server/demo/accounts.ts';
import { queryRelay, signIn, useLocalRelay } from './support/session.ts';

const section = (page: Page, title: string): Locator => page.locator('section', { has: page.getByRole('heading', { name: title, exact: true }) });

/** The newest event of the kind (and d tag) whose tags satisfy `ok`, polled until it arrives. */
async function waitForList(author: string, kind: number, ok: (tags: string[][]) => boolean, d?: string): Promise<string[][]> {
  let tags: string[][] = [];
  await expect
    .poll(
      async () => {
        const events = await queryRelay({ kinds: [kind], authors: [author], ...(d ? { '#d': [d] } : {}), limit: 5 });
        const newest = events.sort((a, b) => b.created_at - a.created_at)[0];
        tags = newest?.tags ?? [];
        return newest !== undefined && ok(tags);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return tags;
}

const has = (tags: string[][], name: string, value: string) => tags.some((t) => t[0] === name && t[1] === value);

/** A demo user whose public mute list names people (the demo network seeds some). */
async function demoMuteListOwner(): Promise<{ owner: string; muted: string[] }> {
  const lists = await queryRelay({ kinds: [10000], limit: 50 });
  const found = lists
    .filter((e) => e.pubkey !== DEMO_LOGIN_PUBKEY && e.tags.some((t) => t[0] === 'p'))
    .sort((a, b) => a.pubkey.localeCompare(b.pubkey))[0];
  if (!found) throw new Error('no demo mute list on the relay');
  return { owner: found.pubkey, muted: found.tags.filter((t) => t[0] === 'p').map((t) => t[1]) };
}

test('muted page: words, hashtags and users are published in the kind-10000 list', async ({ context }) => {
  const sk = generateSecretKey();
  const me = getPublicKey(sk);
  const { page } = await signIn(context, sk, '/settings/muted');

  await expect(page.getByText('Nincs némított felhasználó.')).toBeVisible();
  await expect(page.getByText('Nincs némított szó.')).toBeVisible();
  await expect(page.getByText('Nincs némított hashtag.')).toBeVisible();
  await expect(page.getByText('Nincs némított szál.')).toBeVisible();

  // Muting a word asks first; cancelling keeps what was typed and mutes nothing.
  const words = section(page, 'Némított szavak');
  await words.getByLabel('Szó vagy kifejezés némítása').fill('reklám');
  await words.getByRole('button', { name: 'Némítás', exact: true }).click();
  const wordDialog = page.getByRole('dialog', { name: 'Szó némítása' });
  await expect(wordDialog).toContainText('Biztosan némítod ezt: „reklám”?');
  await wordDialog.getByRole('button', { name: 'Mégse' }).click();
  await expect(wordDialog).toHaveCount(0);
  await expect(words.getByLabel('Szó vagy kifejezés némítása')).toHaveValue('reklám');
  await expect(page.getByText('Nincs némított szó.')).toBeVisible();
  await words.getByRole('button', { name: 'Némítás', exact: true }).click();
  await wordDialog.locator('[data-confirm="yes"]').click();
  await expect(words.locator('.mod-tag', { hasText: 'reklám' })).toBeVisible();

  const hashtags = section(page, 'Némított hashtagek');
  await hashtags.getByLabel('Hashtag némítása').fill('két szó');
  await hashtags.getByRole('button', { name: 'Némítás', exact: true }).click();
  await expect(hashtags.getByRole('alert')).toHaveText('A hashtag csak betűket, számokat, aláhúzást és kötőjelet tartalmazhat.');
  await expect(hashtags.getByLabel('Hashtag némítása')).toHaveValue('két szó');
  await hashtags.getByLabel('Hashtag némítása').fill('#spoiler');
  await hashtags.getByRole('button', { name: 'Némítás', exact: true }).click();
  await page.getByRole('dialog', { name: 'Hashtag némítása' }).locator('[data-confirm="yes"]').click();
  await expect(hashtags.locator('.mod-tag', { hasText: '#spoiler' })).toBeVisible();

  await waitForList(me, 10000, (tags) => has(tags, 'word', 'reklám') && has(tags, 't', 'spoiler'));

  const target = getPublicKey(generateSecretKey());
  const users = section(page, 'Némított felhasználók');
  await users.getByLabel('Felhasználó némítása').fill(npubEncode(target));
  await users.getByRole('button', { name: 'Némítás', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Felhasználó némítása' });
  await expect(dialog).toContainText('Biztosan némítod');
  await dialog.locator('[data-confirm="yes"]').click();
  await expect(users.locator(`[data-pubkey="${target}"]`)).toBeVisible();
  await expect(page.getByText('Nincs némított felhasználó.')).toHaveCount(0);
  let tags = await waitForList(me, 10000, (t) => has(t, 'p', target));
  expect(has(tags, 'word', 'reklám') && has(tags, 't', 'spoiler')).toBe(true);

  await users.locator(`[data-pubkey="${target}"]`).getByRole('button', { name: /^Némítás feloldása/ }).click();
  await expect(page.getByText('Nincs némított felhasználó.')).toBeVisible();
  tags = await waitForList(me, 10000, (t) => !has(t, 'p', target));
  expect(has(tags, 'word', 'reklám')).toBe(true);

  await words.getByRole('button', { name: 'Némítás feloldása: reklám' }).click();
  await expect(page.getByText('Nincs némított szó.')).toBeVisible();
  await waitForList(me, 10000, (t) => !has(t, 'word', 'reklám') && has(t, 't', 'spoiler'));
});

test('mute list subscription, filter toggles, allow list and the filter-list check', async ({ context }) => {
  const sk = generateSecretKey();
  const me = getPublicKey(sk);
  const { owner, muted } = await demoMuteListOwner();
  const { page } = await signIn(context, sk, `/mutelist/${npubEncode(owner)}`);

  await expect(page.getByRole('heading', { name: 'Némított felhasználók' })).toBeVisible();
  await expect(page.locator(`.mod-row[data-pubkey="${muted[0]}"]`)).toBeVisible();
  await page.getByRole('button', { name: 'Feliratkozás a némítólistára' }).click();
  await expect(page.getByRole('button', { name: 'Leiratkozás' })).toBeVisible();
  await waitForList(me, 30000, (t) => has(t, 'p', owner), 'mutelists');

  // In-app navigation: the same worker, the same relay pool.
  await page.getByRole('link', { name: 'Feliratkozott listák a tartalomszűrésnél' }).click();
  await expect(page).toHaveURL(/\/settings\/filters$/);
  const lists = section(page, 'Némítólisták');
  const row = lists.locator(`.mod-row[data-pubkey="${owner}"]`);
  await expect(row).toBeVisible();
  const trending = row.getByRole('switch', { name: 'Ne ajánlja a felkapottak között' });
  await expect(trending).toHaveAttribute('aria-checked', 'true');
  await trending.click();
  await expect(trending).toHaveAttribute('aria-checked', 'false');
  const saved = await waitForList(me, 30000, (t) => t.some((x) => x[0] === 'p' && x[1] === owner && (x[4] ?? '').includes('"trending":false')), 'mutelists');
  expect(saved.find((x) => x[1] === owner)?.[4]).toBe('{"content":true,"trending":false}');

  const spam = page.locator('.mod-row[data-group="spam"]').getByRole('switch', { name: 'Tartalom elrejtése' });
  await expect(spam).toHaveAttribute('aria-checked', 'true');
  await spam.click();
  await expect(spam).toHaveAttribute('aria-checked', 'false');
  const nsfwTrending = page.locator('.mod-row[data-group="nsfw"]').getByRole('switch', { name: 'Ne ajánlja a felkapottak között' });
  await nsfwTrending.click();
  await expect(nsfwTrending).toHaveAttribute('aria-checked', 'false');

  const friend = getPublicKey(generateSecretKey());
  const allow = section(page, 'Engedélyezőlista');
  await expect(allow.getByText('Az engedélyezőlistád üres.')).toBeVisible();
  await allow.getByLabel('Fiók hozzáadása az engedélyezőlistához').fill(npubEncode(friend));
  await allow.getByRole('button', { name: 'Hozzáadás', exact: true }).click();
  await expect(allow.locator(`.mod-row[data-pubkey="${friend}"]`)).toBeVisible();
  await waitForList(me, 30000, (t) => has(t, 'p', friend), 'allowlist');

  const check = section(page, 'Szerepel-e egy fiók valamelyik szűrőlistán?');
  const field = check.getByLabel('Fiók (npub vagy név)');
  await field.fill(npubEncode(muted[0]));
  await check.getByRole('button', { name: 'Ellenőrzés' }).click();
  await expect(check.getByTestId('filter-check-answer')).toContainText('némítólistáján, amelyre feliratkoztál.');
  await field.fill(npubEncode(friend));
  await check.getByRole('button', { name: 'Ellenőrzés' }).click();
  await expect(check.getByTestId('filter-check-answer')).toContainText('szerepel az engedélyezőlistádon');
  await field.fill(npubEncode(getPublicKey(generateSecretKey())));
  await check.getByRole('button', { name: 'Ellenőrzés' }).click();
  await expect(check.getByTestId('filter-check-answer')).toContainText('nem szerepel egyik szűrőlistán sem.');
  await field.fill('npub1hibas');
  await check.getByRole('button', { name: 'Ellenőrzés' }).click();
  await expect(check.getByRole('alert')).toHaveText('Érvénytelen nyilvános kulcs.');
  // A new search drops the answer about the last account.
  await expect(check.getByTestId('filter-check-answer')).toHaveCount(0);
  await field.fill('xyzzy-senki');
  await check.getByRole('button', { name: 'Ellenőrzés' }).click();
  await expect(check.getByText('Nincs találat.')).toBeVisible();
  await expect(check.getByTestId('filter-check-answer')).toHaveCount(0);

  // Everything above must come back from the server after a reload.
  await page.reload();
  await page.waitForFunction(() => window.strucc !== undefined);
  await useLocalRelay(page);
  await expect(page.locator('.mod-row[data-group="spam"]').getByRole('switch', { name: 'Tartalom elrejtése' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.locator('.mod-row[data-group="spam"]').getByRole('switch', { name: 'Ne ajánlja a felkapottak között' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('.mod-row[data-group="nsfw"]').getByRole('switch', { name: 'Ne ajánlja a felkapottak között' })).toHaveAttribute('aria-checked', 'false');
  const rowAfter = section(page, 'Némítólisták').locator(`.mod-row[data-pubkey="${owner}"]`);
  await expect(rowAfter.getByRole('switch', { name: 'Ne ajánlja a felkapottak között' })).toHaveAttribute('aria-checked', 'false');
  await expect(rowAfter.getByRole('switch', { name: 'Tartalom elrejtése' })).toHaveAttribute('aria-checked', 'true');
  await expect(section(page, 'Engedélyezőlista').locator(`.mod-row[data-pubkey="${friend}"]`)).toBeVisible();

  await rowAfter.getByRole('button', { name: 'Leiratkozás' }).click();
  await expect(rowAfter).toHaveCount(0);
  await waitForList(me, 30000, (t) => !has(t, 'p', owner), 'mutelists');
});
