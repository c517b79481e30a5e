import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { nip04, nip19 } from 'nostr-tools';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { BrowserKeys, startPushEndpoint, type PushEndpoint } from '../support/push-endpoint.ts';
import { baseUrl, publishAccepted } from './support/session.ts';
import { signIn } from './support/session.ts';

// Web Push from settings to the notification on screen.
//
// Headless Chromium here cannot make a real push subscription: pushManager.subscribe rejects with
// "AbortError: Registration failed - permission denied" even with the notifications (and push)
// permission granted, as it has no push service to register with. So the page's PushManager hands
// out a subscription to a push service of ours (tests/support/push-endpoint.ts) with keys this test
// holds; everything else is real: the permission request, the worker's signed push_subscribe, the
// server's encrypted, VAPID-signed send, and the service worker's push handler, which gets the
// decrypted message through CDP ServiceWorker.deliverPushMessage as the browser would deliver it.

const now = () => Math.floor(Date.now() / 1000);

/** A PushManager whose subscription points at `endpoint`; remembers unsubscribe() calls. */
async function fakePushManager(context: BrowserContext, endpoint: string, keys: { p256dh: string; auth: string }): Promise<void> {
  await context.addInitScript(
    ({ endpoint, keys }) => {
      // Kept in localStorage like a browser keeps its subscription: the page reloads on the way.
      const KEY = '__fakePush';
      type State = { serverKey: number[] | null; unsubscribed: number };
      const read = (): State => JSON.parse(localStorage.getItem(KEY) ?? '{"serverKey":null,"unsubscribed":0}') as State;
      const write = (s: State) => localStorage.setItem(KEY, JSON.stringify(s));
      const make = (serverKey: number[]) => ({
        endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(serverKey).buffer },
        toJSON: () => ({ endpoint, expirationTime: null, keys }),
        getKey: () => null,
        unsubscribe: async () => {
          const s = read();
          write({ serverKey: null, unsubscribed: s.unsubscribed + 1 });
          return true;
        },
      });
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        const key = [...(options?.applicationServerKey as Uint8Array)];
        write({ ...read(), serverKey: key });
        return make(key) as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => {
        const { serverKey } = read();
        return serverKey ? (make(serverKey) as unknown as PushSubscription) : null;
      };
    },
    { endpoint, keys },
  );
}

async function registrationId(page: Page): Promise<{ send: (data: string) => Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  const ids: string[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) if (!r.isDeleted && r.scopeURL === `${baseUrl()}/`) ids.push(r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => ids.length, { timeout: 20_000 }).toBeGreaterThan(0);
  return {
    send: (data) => cdp.send('ServiceWorker.deliverPushMessage', { origin: baseUrl(), registrationId: ids[0], data }).then(() => undefined),
  };
}

const shown = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url })),
  );

let endpoint: PushEndpoint;
test.beforeAll(async () => {
  endpoint = await startPushEndpoint();
});
test.afterAll(async () => {
  await endpoint?.close();
});

test('opting in from settings: the server pushes a DM (sender only), the service worker shows it, a click opens the conversation, logout stops it', async ({ browser }) => {
  test.setTimeout(120_000);
  const browserKeys = new BrowserKeys();
  const path = `/sub/${Math.random().toString(36).slice(2)}`;
  const context = await browser.newContext({ permissions: ['notifications'], locale: 'hu-HU' });
  await fakePushManager(context, endpoint.origin + path, browserKeys.subscription('x').keys);
  const secretKey = generateSecretKey();
  const me = getPublicKey(secretKey);
  const sender = generateSecretKey();
  const senderPk = getPublicKey(sender);
  // Messages push only from people followed (the default of settings → notifications).
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now(), tags: [], content: JSON.stringify({ name: 'Bence' }) }, sender));
  await publishAccepted(finalizeEvent({ kind: 3, created_at: now(), tags: [['p', senderPk]], content: '' }, secretKey));

  const { page } = await signIn(context, secretKey, '/settings/notifications');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? ''), { timeout: 30_000 }).toMatch(/\/sw\.js$/);
  const section = page.getByRole('region', { name: 'Push értesítések' });
  await expect(section.getByText('Értesítést kapsz ezen az eszközön akkor is, ha a Strucc nincs megnyitva.', { exact: false })).toBeVisible();
  await section.getByRole('button', { name: 'Push értesítések bekapcsolása' }).click();
  await expect(section.getByText('A push értesítések be vannak kapcsolva ezen az eszközön.')).toBeVisible({ timeout: 20_000 });
  for (const name of ['Új üzenetek', 'Említések', 'Válaszok', 'Kapott zapok']) await expect(section.getByRole('switch', { name })).toBeChecked();

  // The mirrored switch: replies switched off in the in-app list cannot be pushed either.
  await page.getByRole('switch', { name: 'Válaszoltak a bejegyzésedre' }).click({ force: true });
  await page.getByRole('switch', { name: 'Válaszoltak egy szálban, amelyben te is írtál' }).click({ force: true });
  await expect(section.getByRole('switch', { name: 'Válaszok' })).toBeDisabled();
  await expect(section.getByRole('switch', { name: 'Válaszok' })).not.toBeChecked();
  await expect(section.getByText('A fenti értesítések között ki van kapcsolva, ezért push értesítést sem kapsz róla.')).toBeVisible();

  // A kind switched off for pushes is re-signed to the server for this browser.
  await section.getByRole('switch', { name: 'Kapott zapok' }).click({ force: true });
  await expect(page.getByText('A push értesítések beállításai mentve')).toBeVisible();
  await expect(section.getByRole('switch', { name: 'Kapott zapok' })).not.toBeChecked();
  await expect(section.getByRole('switch', { name: 'Új üzenetek' })).toBeChecked();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('strucc-push') ?? '{}').types)).toEqual(['dm', 'mention', 'reply']);

  const secret = 'a titkos találkozó helye: a régi malom';
  const dm = finalizeEvent({ kind: 4, created_at: now(), tags: [['p', me]], content: await nip04.encrypt(sender, me, secret) }, sender);
  const before = endpoint.received.length;
  await publishAccepted(dm);
  await expect.poll(() => endpoint.received.slice(before).filter((r) => r.path === path).length, { timeout: 20_000 }).toBe(1);
  const data = browserKeys.decrypt(endpoint.received.slice(before).find((r) => r.path === path)!.body);
  expect(data).not.toContain('malom');
  expect(JSON.parse(data)).toMatchObject({ type: 'dm', title: 'Új üzenet Bence-től', url: `/dms/${nip19.npubEncode(senderPk)}` });

  // No tab of ours needs to be looking: the page goes elsewhere, the worker shows the push.
  await page.goto(`${baseUrl()}/home`);
  const push = await registrationId(page);
  await push.send(data);
  await expect.poll(() => shown(page), { timeout: 15_000 }).toEqual([
    { title: 'Új üzenet Bence-től', body: 'Nyisd meg az üzeneteidet a Struccban.', tag: `dm:${senderPk}`, url: `/dms/${nip19.npubEncode(senderPk)}` },
  ]);

  // A click (dispatched in the worker's scope, as Chromium has no way to click it here) opens the conversation in the open tab.
  const [sw] = context.serviceWorkers();
  await sw.evaluate(async () => {
    // The worker scope's types are not in this project's DOM lib.
    const scope = self as unknown as EventTarget & { registration: ServiceWorkerRegistration };
    const NotificationEvent = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
    const [notification] = await scope.registration.getNotifications();
    scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
  });
  await expect(page).toHaveURL(`${baseUrl()}/dms/${nip19.npubEncode(senderPk)}`, { timeout: 15_000 });
  await expect.poll(() => shown(page)).toEqual([]);

  // Logout: the worker signs push_unsubscribe first, and the browser drops the subscription.
  await page.getByRole('button', { name: 'Kijelentkezés' }).first().click();
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('__fakePush') ?? '{}').unsubscribed)).toBe(1);
  // The server's push queue is one FIFO line: once a later push to someone else has arrived, the DM
  // sent before it was handled, and it sent nothing to the logged-out browser.
  const witness = new BrowserKeys();
  const witnessKey = generateSecretKey();
  const witnessPath = `/witness/${Math.random().toString(36).slice(2)}`;
  await publishAccepted(finalizeEvent({ kind: 3, created_at: now(), tags: [['p', senderPk]], content: '' }, witnessKey));
  const subscribe = finalizeEvent(
    { kind: 30078, created_at: now(), tags: [['d', 'Primal-Web App', 'push_subscribe']], content: JSON.stringify({ ...witness.subscription(endpoint.origin + witnessPath), types: ['dm'] }) },
    witnessKey,
  );
  const res = await fetch(`${baseUrl()}/api`, { method: 'POST', body: JSON.stringify(['push_subscribe', { event_from_user: subscribe }]) });
  expect(await res.json()).toEqual([]);
  const after = endpoint.received.length;
  await publishAccepted(finalizeEvent({ kind: 4, created_at: now(), tags: [['p', me]], content: await nip04.encrypt(sender, me, 'még itt vagy?') }, sender));
  await publishAccepted(finalizeEvent({ kind: 4, created_at: now(), tags: [['p', getPublicKey(witnessKey)]], content: await nip04.encrypt(sender, getPublicKey(witnessKey), 'szia') }, sender));
  await expect.poll(() => endpoint.received.slice(after).map((r) => r.path), { timeout: 20_000 }).toContain(witnessPath);
  expect(endpoint.received.slice(after).map((r) => r.path)).toEqual([witnessPath]);
  await context.close();
});
