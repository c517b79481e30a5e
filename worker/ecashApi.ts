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

export function createEcashApi(ecash: EcashService, touch: (tabId: string) => void, releaser: (cb: object) => () => void): EcashApi {
  return {
    async watchEcash(tabId, cb) {
      touch(tabId);
      return ecash.watch(tabId, cb, releaser(cb));
    },
    async unwatchEcash(handle) {
      ecash.unwatch(handle);
    },
    ecashAddMint: (url) => ecash.addMint(url),
    ecashRemoveMint: (url) => ecash.removeMint(url),
    ecashReceive: (token) => ecash.receive(token),
    ecashRetry: (id) => ecash.retry(id),
    ecashDismissFailed: (id) => ecash.dismissFailed(id),
    ecashSend: (mint, amount, memo, preferences) => ecash.send(mint, amount, memo, preferences),
    ecashMintQuote: (mint, amount) => ecash.mintQuote(mint, amount),
    ecashMintWithNwc: (mint, amount) => ecash.mintWithNwc(mint, amount),
    ecashMintClaim: (mint, quote, amount) => ecash.mintClaim(mint, quote, amount),
    ecashMeltQuote: (invoice, mint) => ecash.meltQuote(invoice, mint),
    ecashMelt: (invoice, quote) => ecash.melt(invoice, quote),
    ecashCheckPending: () => ecash.checkPending(),
    ecashSeed: () => ecash.seed(),
    ecashRestore: (mnemonic, mint) => ecash.restore(mnemonic, mint),
    ecashDecode: async (token) => ecash.decode(token),
    ecashDemoMint: () => ecash.demo(),
  };
}
