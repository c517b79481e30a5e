/**
 * Web Push on the page's side: the permission, the browser's subscription through the service
 * worker's registration (tools/sw.js shows what arrives), and the signed push_subscribe /
 * push_unsubscribe the shared worker sends for it. The subscription belongs to this browser, so
 * the kinds of news chosen for it are kept here too, under the pubkey they were chosen for.
 */
import type { ActionResult, PushSubscriptionInfo, PushType } from '../../core/types';
import { fullApi } from './account';
import { config } from '../worker-client';

export const PUSH_TYPES: readonly PushType[] = ['dm', 'mention', 'reply', 'zap'];
const STORE_KEY = 'strucc-push';
const LOGOUT_WAIT_MS = 4000;

export type PushSupport = 'ok' | 'unsupported' | 'denied';

export function pushSupport(): PushSupport {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return Notification.permission === 'denied' ? 'denied' : 'ok';
}

interface Stored {
  pubkey: string;
  endpoint: string;
  types: PushType[];
}

function stored(): Stored | null {
  try {
    const v = JSON.parse(localStorage.getItem(STORE_KEY) ?? 'null') as Stored | null;
    return v && typeof v.pubkey === 'string' && typeof v.endpoint === 'string' && Array.isArray(v.types) ? v : null;
  } catch {
    return null;
  }
}

/** The types this browser gets pushes of for `pubkey`, or null when it gets none. */
export async function pushStateFor(pubkey: string): Promise<PushType[] | null> {
  const kept = stored();
  if (!kept || kept.pubkey !== pubkey || pushSupport() !== 'ok') return null;
  const sub = await currentSubscription();
  return sub && sub.endpoint === kept.endpoint ? kept.types : null;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  const reg = await navigator.serviceWorker.getRegistration('/');
  if (!reg) throw new PushError('no-service-worker');
  return reg;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  try {
    return await (await registration()).pushManager.getSubscription();
  } catch {
    return null;
  }
}

export class PushError extends Error {
  constructor(readonly code: string, readonly detail?: string) {
    super(code);
  }
}

async function vapidKey(): Promise<string> {
  const res = await fetch(`${config.mediaServer}/api/info`).catch(() => null);
  const body = (res?.ok ? await res.json().catch(() => ({})) : {}) as { vapidPublicKey?: unknown };
  if (typeof body.vapidPublicKey !== 'string' || !body.vapidPublicKey) throw new PushError('no-server-key');
  return body.vapidPublicKey;
}

const b64url = (bytes: ArrayBuffer | null) => (bytes ? btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : '');

function decodeKey(key: string): Uint8Array<ArrayBuffer> {
  const text = atob(key.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function check(result: ActionResult): void {
  if (!result.ok) throw new PushError(result.code ?? 'push-refused', result.message);
}

/**
 * Asks for the permission (the click that called this is the user gesture browsers want), subscribes
 * this browser with the server's key, and has the worker sign the subscription for the user.
 */
export async function enablePush(pubkey: string, types: PushType[]): Promise<void> {
  if (pushSupport() === 'unsupported') throw new PushError('unsupported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushError(permission === 'denied' ? 'denied' : 'dismissed');
  const [reg, key] = await Promise.all([registration(), vapidKey()]);
  let sub = await reg.pushManager.getSubscription();
  // A subscription made for another server key would be refused by the push service for ours.
  if (sub && b64url(sub.options.applicationServerKey) !== key) {
    await sub.unsubscribe();
    sub = null;
  }
  try {
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: decodeKey(key) });
  } catch (err) {
    throw new PushError('subscribe-failed', (err as Error).message);
  }
  await savePush(pubkey, sub, types);
}

async function savePush(pubkey: string, sub: PushSubscription, types: PushType[]): Promise<void> {
  const json = sub.toJSON() as { endpoint?: string; keys?: { p256dh?: string; auth?: string } };
  const info: PushSubscriptionInfo = { endpoint: json.endpoint ?? sub.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } };
  check(await (await fullApi()).pushSubscribe(info, types));
  localStorage.setItem(STORE_KEY, JSON.stringify({ pubkey, endpoint: info.endpoint, types } satisfies Stored));
}

/** A new choice of types for the subscription this browser already has. */
export async function setPushTypes(pubkey: string, types: PushType[]): Promise<void> {
  const sub = await currentSubscription();
  if (!sub) throw new PushError('no-subscription');
  await savePush(pubkey, sub, types);
}

/** Turns pushes off for this browser: the server forgets it (signed), then the browser drops it. */
export async function disablePush(): Promise<void> {
  const sub = await currentSubscription();
  if (sub) check(await (await fullApi()).pushUnsubscribe(sub.endpoint));
  await sub?.unsubscribe();
  localStorage.removeItem(STORE_KEY);
}

/**
 * Before a logout, while the key can still sign (`sign`; a PIN-locked key cannot): pushes for the
 * leaving user stop on this browser.
 * Never blocks the logout; a subscription the server could not be told about is dropped by the
 * browser, and the push service's 410 removes it from the server at the next message.
 */
export async function stopPushBeforeLogout({ sign }: { sign: boolean }): Promise<void> {
  try {
    const sub = await currentSubscription();
    if (!sub) return;
    if (sign) {
      // A remote signer may be slow or gone: the logout waits a few seconds at most.
      const told = fullApi().then((api) => api.pushUnsubscribe(sub.endpoint));
      await Promise.race([told.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, LOGOUT_WAIT_MS))]);
    }
    await sub.unsubscribe().catch(() => false);
  } finally {
    localStorage.removeItem(STORE_KEY);
  }
}
