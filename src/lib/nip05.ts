import { connect } from '../worker-client';
import { useRequest } from './useWorkerRequest';

// Keyed by pubkey and identifier together: a profile update can change either one.
const verdicts = new Map<string, boolean>();
const pending = new Map<string, Promise<boolean>>();

function check(pubkey: string, nip05: string): Promise<boolean> {
  const key = `${pubkey}\n${nip05}`;
  const known = verdicts.get(key);
  if (known !== undefined) return Promise.resolve(known);
  let promise = pending.get(key);
  if (!promise) {
    promise = connect()
      .then((api) => api.verifyNip05(pubkey, nip05))
      .catch(() => false)
      .then((ok) => {
        verdicts.set(key, ok);
        pending.delete(key);
        return ok;
      });
    pending.set(key, promise);
  }
  return promise;
}

/** Checked only when a card mounts, which in a virtual list means when its author is on screen. */
export function useNip05Verified(pubkey: string, nip05: string | undefined): boolean {
  const key = nip05 ? `${pubkey}\n${nip05}` : '';
  const { data: ok } = useRequest(nip05 ? () => check(pubkey, nip05) : null, [pubkey, nip05]);
  // Until the check answers, a verdict this tab already has holds.
  return key ? (ok ?? verdicts.get(key) === true) : false;
}
