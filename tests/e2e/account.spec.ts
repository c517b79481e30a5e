import { expect, test, type Page } from '@playwright/test';
import { generateSecretKey, getPublicKey, verifyEvent, type Event } from 'nostr-tools/pure';
import WebSocket from 'ws';
import { DEMO_LOGIN } from '../../server/demo/accounts.ts';
import { displayName, emptyProfile, parseProfile } from '../../worker/profile.ts';
import type { ActionResult, RelayInfo, StruccApi } from '../../worker/types.ts';
import type { StruccDevtools } from '../../src/lib/devtools.ts';
import { enableDevMode, installNip07Stub } from './support/nip07-stub.ts';

const base = () => process.env.STRUCC_URL!;
const relayUrl = () => `${base().replace(/^http/, 'ws')}/relay`;

async function cacheStatus() {
  const res = await fetch(`${base()}/api/status`);
  return (await res.json()) as { cacheConnections: number; cacheConnectionsTotal: number };
}

/** Asks the server's NIP-01 relay once and returns the events before EOSE. */
function query(filter: Record<string, unknown>): Promise<Event[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(relayUrl());
    const events: Event[] = [];
    const timer = setTimeout(() => (ws.close(), reject(new Error('relay did not answer'))), 10_000);
    ws.on('open', () => ws.send(JSON.stringify(['REQ', 'q', filter])));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as unknown[];
      if (msg[0] === 'EVENT') events.push(msg[2] as Event);
      if (msg[0] === 'EOSE') {
        clearTimeout(timer);
        ws.close();
        resolve(events);
      }
    });
    ws.on('error', reject);
  });
}

/** The name the chip must show for the demo login, by the spec's display-name rule. */
async function demoLoginName(): Promise<string> {
  const [meta] = await query({ kinds: [0], authors: [DEMO_LOGIN.pubkey], limit: 1 });
  return displayName(meta ? parseProfile(meta) : emptyProfile(DEMO_LOGIN.pubkey));
}

/** The wide layout's chip (the phone top bar's copy is hidden at this viewport). */
const chip = (page: Page) => page.locator('.side-nav .account-chip');

type Driven = Required<StruccApi>;

async function openTab(page: Page): Promise<void> {
  await page.goto(`${base()}/home`);
  await page.waitForFunction(() => window.strucc !== undefined);
}

test('login in one tab shows in the other, the extension stub signs a follow, logout shows everywhere, one socket', async ({ context }) => {
  // The previous test's browser context may still be closing its worker's socket.
  await expect.poll(async () => (await cacheStatus()).cacheConnections).toBe(0);
  const before = await cacheStatus();
  const stub = await installNip07Stub(context, DEMO_LOGIN.secretKey);
  await enableDevMode(context);
  const a = await context.newPage();
  const b = await context.newPage();
  await openTab(a);
  await openTab(b);
  const name = await demoLoginName();

  for (const page of [a, b]) await expect(chip(page).getByRole('button', { name: 'Bejelentkezés' })).toBeEnabled();
  await chip(a).getByRole('button', { name: 'Bejelentkezés' }).click();
  for (const page of [a, b]) {
    await expect(chip(page)).toContainText(name);
    await expect(chip(page).getByRole('button', { name: 'Kijelentkezés' })).toBeVisible();
  }

  // A follow makes the worker ask the tab's extension for a real signature on the new contact list.
  const target = getPublicKey(generateSecretKey());
  const result = await a.evaluate(
    async ({ relay, target }) => {
      const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
      const added = await api.addRelay(relay);
      if (!added.ok) return { ok: false, code: added.error } as ActionResult;
      await new Promise<void>((resolve) => {
        void api.watchRelays(
          tabId,
          proxy((list: RelayInfo[]) => {
            if (list.some((r) => r.url === added.url && r.state === 'connected')) resolve();
          }),
        );
      });
      return api.accountAction({ type: 'follow', pubkey: target });
    },
    { relay: relayUrl(), target },
  );
  expect(result).toMatchObject({ ok: true });
  const [contacts] = await query({ kinds: [3], authors: [DEMO_LOGIN.pubkey], limit: 1 });
  expect(contacts.tags).toContainEqual(['p', target]);
  expect(verifyEvent(contacts)).toBe(true);
  expect(stub.signed.map((e) => e.id)).toContain(contacts.id);

  await chip(b).getByRole('button', { name: 'Kijelentkezés' }).click();
  for (const page of [a, b]) {
    await expect(chip(page).getByRole('button', { name: 'Bejelentkezés' })).toBeVisible();
    await expect(chip(page)).not.toContainText(name);
  }

  const invalid = await b.evaluate(() => {
    const { api } = window.strucc as StruccDevtools & { api: Driven };
    return api.login({ method: 'nsec', nsec: 'nsec1ezlogmarnemkulcs' });
  });
  expect(invalid).toMatchObject({ ok: false, code: 'invalid-nsec', message: 'Adj meg egy érvényes privát kulcsot!' });
  await expect(chip(a).getByRole('button', { name: 'Bejelentkezés' })).toBeVisible();

  const after = await cacheStatus();
  expect(after.cacheConnections).toBe(1);
  expect(after.cacheConnectionsTotal - before.cacheConnectionsTotal).toBe(1);
});

test('without a signer extension the button explains what is needed, and without devMode nothing is exposed', async ({ page }) => {
  await page.goto(`${base()}/home`);
  const login = chip(page).getByRole('button', { name: 'Bejelentkezés' });
  await expect(login).toBeEnabled();
  await login.click();
  await expect(chip(page).getByRole('status')).toHaveText('A bejelentkezéshez Nostr aláíró bővítmény vagy privát kulcs kell.');
  await expect(login).toBeVisible();
  expect(await page.evaluate(() => 'strucc' in window)).toBe(false);
});
