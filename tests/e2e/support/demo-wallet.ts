/** Signing in with an nsec in the worker, and the demo NIP-47 wallet made active: what the zap and ecash specs share. */
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_LOGIN_NSEC } from '../../../server/demo/accounts.ts';
import { enableDevMode } from './nip07-stub.ts';
import { openApp, useLocalRelay, type Driven } from './session.ts';

export async function nsecSignIn(browser: Browser, path: string, nsec: string = DEMO_LOGIN_NSEC): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await enableDevMode(context);
  const page = await context.newPage();
  await openApp(page, path);
  const result = await page.evaluate((key) => (window.strucc!.api as unknown as Driven).login({ method: 'nsec', nsec: key }), nsec);
  expect(result).toMatchObject({ ok: true });
  await useLocalRelay(page);
  return { context, page };
}

/** Makes sure the demo wallet is there and active (the settings test leaves it so; alone, this adds it). */
export async function demoWalletActive(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const api = window.strucc!.api as unknown as Driven;
    const snap = await new Promise<{ connections: { id: string; name: string }[]; active: string | null }>((resolve) => {
      void api.watchWallet(window.strucc!.tabId, window.strucc!.proxy((s: { state: string; connections: { id: string; name: string }[]; active: string | null }) => s.state === 'ready' && resolve(s)));
    });
    const demo = snap.connections.find((c) => c.name === 'Demó tárca');
    if (!demo) await api.connectDemoWallet('Demó tárca');
    else if (snap.active !== demo.id) await api.walletAction({ type: 'activate', id: demo.id });
  });
}
