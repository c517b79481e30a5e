/**
 * WebLN (a browser wallet extension's `window.webln`) as a payer. It lives in the page, not in the
 * shared worker, so the choice is kept per browser (localStorage, the same in every tab) and the
 * tab itself pays: the worker fetches a zap's invoice and hands it back here.
 */
import { useSyncExternalStore } from 'react';

interface WebLN {
  enable(): Promise<unknown>;
  sendPayment(invoice: string): Promise<{ preimage?: unknown }>;
}

const KEY = 'strucc.weblnPayer';
const listeners = new Set<() => void>();

export function webln(): WebLN | undefined {
  const w = (globalThis as { webln?: Partial<WebLN> }).webln;
  return w && typeof w.enable === 'function' && typeof w.sendPayment === 'function' ? (w as WebLN) : undefined;
}

function chosen(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** Whether this page pays with WebLN: chosen, and the extension is there. */
export function weblnPays(): boolean {
  return chosen() && webln() !== undefined;
}

export function chooseWebln(on: boolean): void {
  try {
    if (on) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // Storage off: the choice lasts for nothing, NWC stays the payer.
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** [available, chosen]: the settings page offers it only when the page has `window.webln`. */
export function useWebln(): { available: boolean; active: boolean } {
  const active = useSyncExternalStore(subscribe, weblnPays, () => false);
  return { available: webln() !== undefined, active };
}

/** Pays a bolt11 invoice with the extension; resolves to the preimage. */
export async function payWithWebln(invoice: string): Promise<string> {
  const w = webln();
  if (!w) throw new Error('no-wallet');
  await w.enable();
  const answer = await w.sendPayment(invoice);
  if (typeof answer?.preimage !== 'string' || !/^[0-9a-f]{64}$/i.test(answer.preimage)) throw new Error('webln-no-preimage');
  return answer.preimage;
}
