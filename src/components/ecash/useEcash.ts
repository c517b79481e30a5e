/** The ecash wallet as the worker keeps it, the HUF rate for its total, and the text for a failure. */
import type { EcashSnapshot } from '../../../core/types';
import { tabId, connect } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';
import { useRequest } from '../../lib/useWorkerRequest';

export function useEcash(): EcashSnapshot | null {
  return useWorkerWatch<EcashSnapshot>(
    (api, cb) => api.watchEcash(tabId, cb),
    (api, h) => api.unwatchEcash(h),
  );
}

let hufRate: Promise<number | null> | undefined;

/** Price of one bitcoin in forints (membership_exchange_rate), or null when the server does not say. */
export function useHufRate(): number | null {
  const { data: rate } = useRequest(() => {
    hufRate ??= connect()
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
    return hufRate;
  }, []);
  return rate ?? null;
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
