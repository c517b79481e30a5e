import { expect, test } from '@playwright/test';
import { finalizeEvent } from 'nostr-tools/pure';
import WebSocket from 'ws';
import { demoUser, HOUSE_PUBKEY, type DemoAccount } from '../../server/demo/accounts.ts';
import { enableDevTimings } from './support/nip07-stub.ts';
import { base, wsUrl } from './support/base.ts';

const relayUrl = () => wsUrl('/relay');

/** Sends one frame to the server's NIP-01 relay and collects replies until `done` says so. */
function relay<T>(frame: unknown[], done: (msg: unknown[], seen: unknown[][]) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(relayUrl());
    const seen: unknown[][] = [];
    const timer = setTimeout(() => (ws.close(), reject(new Error('relay did not answer'))), 10_000);
    ws.on('open', () => ws.send(JSON.stringify(frame)));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as unknown[];
      seen.push(msg);
      const result = done(msg, seen);
      if (result !== undefined) {
        clearTimeout(timer);
        ws.close();
        resolve(result);
      }
    });
    ws.on('error', reject);
  });
}

/** A demo account the house account follows, so its new notes belong in a guest's "Legújabb" feed. */
async function followedDemoAccount(): Promise<DemoAccount> {
  const follows = await relay(['REQ', 'c', { kinds: [3], authors: [HOUSE_PUBKEY] }], (msg, seen) => {
    if (msg[0] !== 'EOSE') return undefined;
    const contact = seen.find((m) => m[0] === 'EVENT')?.[2] as { tags: string[][] } | undefined;
    return new Set((contact?.tags ?? []).filter((t) => t[0] === 'p').map((t) => t[1]));
  });
  for (let i = 1; i <= 1000; i++) if (follows.has(demoUser(i).pubkey)) return demoUser(i);
  throw new Error('the house account follows no demo user');
}

test('a note published on the relay shows up behind the new-notes pill, and the pill brings it to the top', async ({ page }) => {
  // The worker polls the created_at-sorted feed every 30 s; a devMode tab asks every 2 s.
  await enableDevTimings(page, { feedPollMs: 2000 });
  await page.goto(`${base()}/home`);
  await expect(page.locator('[data-note-id]').first()).toBeVisible();

  const author = await followedDemoAccount();
  const content = `Friss bejegyzés a próbából ${Date.now()}`;
  const note = finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [], content }, author.secretKey);
  const ok = await relay(['EVENT', note], (msg) => (msg[0] === 'OK' ? msg[2] : undefined));
  expect(ok).toBe(true);

  const pill = page.getByRole('button', { name: /1 új bejegyzés/ });
  await expect(pill).toBeVisible();
  await pill.click();
  await expect(pill).toBeHidden();
  await expect(page.locator('[data-note-id]').first()).toHaveAttribute('data-note-id', note.id);
  await expect(page.locator('[data-note-id]').first()).toContainText(content);
});

test('scrolling to the end of the feed loads the next page', async ({ page }) => {
  await page.goto(`${base()}/home`);
  await expect(page.locator('[data-note-id]').first()).toBeVisible();
  // While more pages exist the feed's size is unknown to assistive tech (aria-setsize -1).
  await expect(page.locator('[data-note-id]').first()).toHaveAttribute('aria-setsize', '-1');
  const furthest = () =>
    page.locator('[data-note-id]').evaluateAll((cards) => Math.max(...cards.map((c) => Number(c.getAttribute('aria-posinset')))));
  const firstPage = 20;
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return furthest();
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(firstPage);
  // The list is virtualised: however long the feed, only a window of cards is in the DOM.
  expect(await page.locator('[data-note-id]').count()).toBeLessThan(40);
});
