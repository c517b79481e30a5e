/** The ecash part of the StruccApi surface (worker/ecash.ts behind it). */
import type { EcashService } from './ecash.ts';
import type { StruccApi } from '../core/types.ts';

type EcashApi = Required<
  Pick<
    StruccApi,
    | 'watchEcash'
    | 'unwatchEcash'
    | 'ecashAddMint'
    | 'ecashRemoveMint'
    | 'ecashReceive'
    | 'ecashRetry'
    | 'ecashDismissFailed'
    | 'ecashSend'
    | 'ecashMintQuote'
    | 'ecashMintWithNwc'
    | 'ecashMintClaim'
    | 'ecashMeltQuote'
    | 'ecashMelt'
    | 'ecashCheckPending'
    | 'ecashSeed'
    | 'ecashRestore'
    | 'ecashDecode'
    | 'ecashDemoMint'
  >
>;

/**
 * `ecash` loads the service (worker/ecash.ts with its machine, store and token code) on its first
 * call: a guest's first screen has no ecash, and api.ts loads it as soon as an account signs in.
 */
export function createEcashApi(ecash: () => Promise<EcashService>, touch: (tabId: string) => void, releaser: (cb: object) => () => void): EcashApi {
  return {
    async watchEcash(tabId, cb) {
      touch(tabId);
      const release = releaser(cb);
      return (await ecash()).watch(tabId, cb, release);
    },
    async unwatchEcash(handle) {
      (await ecash()).unwatch(handle);
    },
    ecashAddMint: async (url) => (await ecash()).addMint(url),
    ecashRemoveMint: async (url) => (await ecash()).removeMint(url),
    ecashReceive: async (token) => (await ecash()).receive(token),
    ecashRetry: async (id) => (await ecash()).retry(id),
    ecashDismissFailed: async (id) => (await ecash()).dismissFailed(id),
    ecashSend: async (mint, amount, memo, preferences) => (await ecash()).send(mint, amount, memo, preferences),
    ecashMintQuote: async (mint, amount) => (await ecash()).mintQuote(mint, amount),
    ecashMintWithNwc: async (mint, amount) => (await ecash()).mintWithNwc(mint, amount),
    ecashMintClaim: async (mint, quote, amount) => (await ecash()).mintClaim(mint, quote, amount),
    ecashMeltQuote: async (invoice, mint) => (await ecash()).meltQuote(invoice, mint),
    ecashMelt: async (invoice, quote) => (await ecash()).melt(invoice, quote),
    ecashCheckPending: async () => (await ecash()).checkPending(),
    ecashSeed: async () => (await ecash()).seed(),
    ecashRestore: async (mnemonic, mint) => (await ecash()).restore(mnemonic, mint),
    ecashDecode: async (token) => (await ecash()).decode(token),
    ecashDemoMint: async () => (await ecash()).demo(),
  };
}
