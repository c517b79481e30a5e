/**
 * Signing in for acting flows: a NIP-07 stub holding a key, devMode for window.strucc, the
 * server's own /relay as the one write relay (the demo relay lists name hosts that do not exist
 * here), and helpers that read back what was published.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';
import WebSocket from 'ws';
import type { Event } from 'nostr-tools/pure';
import type { RelayInfo, StruccApi } from '../../../core/types.ts';
import type { StruccDevtools } from '../../../src/lib/devtools.ts';
import { enableDevMode, installNip07Stub, type Nip07Stub } from './nip07-stub.ts';

export { base as baseUrl } from './base.ts';
import { base as baseUrl, wsUrl } from './base.ts';
export const relayUrl = () => wsUrl('/relay');

export type Driven = Required<StruccApi>;

/** Asks the server's NIP-01 relay once and returns the events before EOSE. */
export function queryRelay(filter: Record<string, unknown>): Promise<Event[]> {
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

/** Sends a signed event to the server's relay, as another person's client would; resolves with the relay's OK flag. */
export function publishToRelay(event: object): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(relayUrl());
    const timer = setTimeout(() => (ws.close(), reject(new Error('relay did not answer'))), 15_000);
    ws.on('open', () => ws.send(JSON.stringify(['EVENT', event])));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as unknown[];
      if (msg[0] !== 'OK') return;
      clearTimeout(timer);
      ws.close();
      resolve(msg[2] === true);
    });
    ws.on('error', reject);
  });
}

/** publishToRelay for events the test needs on the server: a refusal fails the test. */
export async function publishAccepted(event: object): Promise<void> {
  if (!(await publishToRelay(event))) throw new Error('the relay refused the event');
}

/** The newest event of a kind by an author on the server, waiting until one newer than `since` arrives. */
export async function latestEvent(author: string, kind: number, since = 0, extra: Record<string, unknown> = {}): Promise<Event> {
  let found: Event | undefined;
  await expect
    .poll(
      async () => {
        const events = await queryRelay({ kinds: [kind], authors: [author], since, limit: 5, ...extra });
        found = events.sort((a, b) => b.created_at - a.created_at)[0];
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** Opens /home (or path) in a page whose worker is ready for window.strucc calls. */
export async function openApp(page: Page, path = '/home'): Promise<void> {
  await page.goto(`${baseUrl()}${path}`);
  await page.waitForFunction(() => window.strucc !== undefined);
}

/** Adds the server's relay as the write relay and waits until it is connected. */
export async function useLocalRelay(page: Page): Promise<void> {
  await page.evaluate(async (relay) => {
    const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
    const added = await api.addRelay(relay);
    if (!added.ok) throw new Error(`addRelay failed: ${added.error}`);
    await new Promise<void>((resolve) => {
      void api.watchRelays(
        tabId,
        proxy((list: RelayInfo[]) => {
          if (list.some((r) => r.url === added.url && r.state === 'connected')) resolve();
        }),
      );
    });
  }, relayUrl());
}

export interface SignedIn {
  page: Page;
  stub: Nip07Stub;
}

/**
 * Installs the extension stub with secretKey, opens the app, signs in through the worker's
 * extension login (the login modal's own flow is tested in login.spec.ts) and connects the relay.
 */
export async function signIn(context: BrowserContext, secretKey: Uint8Array, path = '/home'): Promise<SignedIn> {
  const stub = await installNip07Stub(context, secretKey);
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page, path);
  const result = await page.evaluate(() => (window.strucc!.api as unknown as Driven).login({ method: 'extension' }));
  expect(result).toMatchObject({ ok: true });
  await useLocalRelay(page);
  return { page, stub };
}
