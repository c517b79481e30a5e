/** The ecash wallet as the worker keeps it, the HUF rate for its total, and the text for a failure. */
import { useEffect, useState } from 'react';
import type { EcashSnapshot } from '../../../core/types';
import { fullApi } from '../../lib/account';
import { Comlink, tabId } from '../../worker-client';

export function useEcash(): EcashSnapshot | null {
  const [snap, setSnap] = useState<EcashSnapshot | null>(null);
  useEffect(() => {
    let live = true;
    let handle: number | null = null;
    fullApi()
      .then((api) => api.watchEcash(tabId, Comlink.proxy((s: EcashSnapshot) => live && setSnap(s))))
      .then((h) => {
        if (live) handle = h;
        else void fullApi().then((api) => api.unwatchEcash(h));
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (handle !== null) void fullApi().then((api) => api.unwatchEcash(handle as number));
    };
  }, []);
  return snap;
}

let hufRate: Promise<number | null> | undefined;

/** Price of one bitcoin in forints (membership_exchange_rate), or null when the server does not say. */
export function useHufRate(): number | null {
  const [rate, setRate] = useState<number | null>(null);
  useEffect(() => {
    hufRate ??= fullApi()
      .then((api) => api.request('membership_exchange_rate', { target_currency: 'HUF' }))
      .then((r) => {
        for (const e of r.events) {
          const rate = Number((JSON.parse(String(e.content ?? '{}')) as { rate?: unknown }).rate);
          if (Number.isFinite(rate) && rate > 0) return rate;
        }
        return null;
      })
      .catch(() => {
        hufRate = undefined;
        return null;
      });
    let live = true;
    void hufRate.then((v) => live && setRate(v));
    return () => {
      live = false;
    };
  }, []);
  return rate;
}

const MESSAGE_KEYS: Record<string, string> = {
  'invalid-mint-url': 'errors.invalidMintUrl',
  'invalid-amount': 'errors.invalidAmount',
  'invalid-mnemonic': 'errors.invalidMnemonic',
  'CashuWallet must be initialized with mnemonic to use restore': 'errors.noSeed',
  'mint-has-balance': 'errors.mintHasBalance',
  'no-account': 'errors.noAccount',
  unpaid: 'errors.unpaid',
  'Provided amount preferences contain non-power-of-2 numbers. Use only ^2 numbers': 'errors.preferencesPow2',
};

/** The i18n key for a failed ecash result: a known message first, else its kind. */
export function ecashErrorKey(r: { failure: string; message: string }): string {
  if (MESSAGE_KEYS[r.message]) return MESSAGE_KEYS[r.message];
  if (r.failure === 'network' && r.message && !/fetch|network/i.test(r.message)) return 'errors.payFailed';
  return `errors.${['spent', 'funds', 'network', 'mint', 'invalid'].includes(r.failure) ? r.failure : 'mint'}`;
}
