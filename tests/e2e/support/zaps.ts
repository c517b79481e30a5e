/**
 * Zap e2e helpers: the demo login with its demo wallet, people with a lightning address on the
 * demo domain (served by the e2e server's LNURL-pay), and a test-process wallet on the demo ledger
 * that a WebLN stub in the page pays with (through @getalby/sdk's NWC client, as a browser wallet
 * extension would talk to its own wallet).
 */
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { demoWalletActive, nsecSignIn } from './demo-wallet.ts';
import { NWCClient } from '@getalby/sdk';
import { finalizeEvent, generateSecretKey } from 'nostr-tools/pure';
import WebSocket from 'ws';
import { baseUrl, publishAccepted } from './session.ts';

// NWCClient needs a global WebSocket, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

/** The demo login in a fresh context (the shared nsec sign-in of the zap and ecash specs). */
export const demoSignIn = (browser: Browser, path: string) => nsecSignIn(browser, path);
export { demoWalletActive };

let domain: string | undefined;
export async function demoDomain(): Promise<string> {
  domain ??= ((await (await fetch(`${baseUrl()}/api/info`)).json()) as { nip05Domain: string }).nip05Domain;
  return domain;
}

export interface Person {
  sk: Uint8Array;
  pubkey: string;
  name: string;
}

/** A new person, with a lightning address on the demo domain unless `withAddress` is false. */
export async function newPerson(prefix: string, withAddress = true): Promise<Person> {
  const sk = generateSecretKey();
  const name = `${prefix}${Math.random().toString(36).slice(2, 8)}`;
  const profile = withAddress ? { name, lud16: `${name}@${await demoDomain()}` } : { name };
  const ev = finalizeEvent({ kind: 0, created_at: Math.floor(Date.now() / 1000) - 5, tags: [], content: JSON.stringify(profile) }, sk);
  await publishAccepted(ev);
  return { sk, pubkey: ev.pubkey, name };
}

/** A wallet of its own on the demo ledger: a person with a demo-domain address starts with sats (wallet nwc_connect). */
export async function testWallet(): Promise<NWCClient> {
  const { sk } = await newPerson('tarca');
  const event = finalizeEvent(
    { kind: 10000803, tags: [['d', 'Primal-Web App', 'nwc_connect']], content: JSON.stringify(['nwc_connect', { appname: 'WebLN teszt' }]), created_at: Math.floor(Date.now() / 1000) },
    sk,
  );
  const ws = new WebSocket(`${baseUrl().replace(/^http/, 'ws')}/wallet`);
  const uri = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no nwc_connect answer')), 15_000);
    ws.on('open', () => ws.send(JSON.stringify(['REQ', 'c', { cache: ['wallet', { operation_event: event }] }])));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as unknown[];
      if (msg[0] === 'EVENT') {
        clearTimeout(timer);
        resolve((JSON.parse((msg[2] as { content: string }).content) as { uri: string }).uri);
      }
      if (msg[0] === 'NOTICE') reject(new Error(String(msg[2])));
    });
    ws.on('error', reject);
  });
  ws.close();
  return new NWCClient({ nostrWalletConnectUrl: uri });
}

/**
 * window.webln in every page of the context: enable() and sendPayment(), which pays with `wallet`
 * in the test process and returns the real preimage; the invoices it was asked to pay are kept in
 * window.__weblnInvoices.
 */
export async function installWeblnStub(context: BrowserContext, wallet: NWCClient): Promise<void> {
  await context.exposeFunction('__payWithTestWallet', async (invoice: string) => (await wallet.payInvoice({ invoice })).preimage);
  await context.addInitScript(() => {
    const w = window as unknown as { webln: unknown; __weblnInvoices: string[]; __payWithTestWallet: (i: string) => Promise<string> };
    w.__weblnInvoices = [];
    w.webln = {
      enable: async () => undefined,
      sendPayment: async (invoice: string) => {
        w.__weblnInvoices.push(invoice);
        return { preimage: await w.__payWithTestWallet(invoice) };
      },
    };
  });
}

/** A tab opened on `path` shows what the server counted; receipts arrive after the payment, so it reloads until then. */
export async function serverShows(page: Page, path: string, check: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.goto(`${baseUrl()}${path}`);
    await check();
  }).toPass({ timeout: 45_000 });
}
