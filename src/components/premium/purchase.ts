/**
 * What the buyer chose on the way through the steps (the name, the plan), kept for the tab's
 * session so a reload on the payment step does not lose it.
 */
import { useSyncExternalStore } from 'react';
import { config } from '../../worker-client';
import type { PlanId } from './membership';

interface Choice {
  name: string;
  plan: PlanId;
}

const KEY = 'strucc.premium.choice';
const listeners = new Set<() => void>();

function read(): Choice {
  try {
    const raw = JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Partial<Choice>;
    return { name: typeof raw.name === 'string' ? raw.name : '', plan: raw.plan === '3-months-premium' ? raw.plan : '12-months-premium' };
  } catch {
    return { name: '', plan: '12-months-premium' };
  }
}

let current = read();

export function setChoice(patch: Partial<Choice>): void {
  current = { ...current, ...patch };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Without storage the choice lives until the tab reloads.
  }
  for (const l of listeners) l();
}

export function useChoice(): Choice {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

let info: Promise<{ nip05Domain: string }> | undefined;

/** The server's NIP-05 domain (premium names are name@domain). */
export function serverInfo(): Promise<{ nip05Domain: string }> {
  info ??= fetch(`${config.mediaServer}/api/info`)
    .then((r) => (r.ok ? r.json() : {}))
    .then((b: { nip05Domain?: unknown }) => ({ nip05Domain: typeof b.nip05Domain === 'string' ? b.nip05Domain : location.hostname }))
    .catch(() => ({ nip05Domain: location.hostname }));
  return info;
}

/** The server's own relay, which keeps premium members' events. */
export function premiumRelayUrl(): string {
  try {
    const u = new URL(config.cacheServer);
    return `${u.protocol}//${u.host}/relay`;
  } catch {
    return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/relay`;
  }
}
