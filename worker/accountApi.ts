/**
 * The login, account and settings part of the worker API, kept out of api.ts. Every tab gets the
 * same AccountService; a tab's watchers and signer bridge go away with the tab.
 */
import { AccountService, type AccountServiceOptions } from './account.ts';
import type { StruccApi } from '../core/types.ts';

export type AccountApi = Required<
  Pick<
    StruccApi,
    | 'registerSigner'
    | 'watchAccount'
    | 'unwatchAccount'
    | 'login'
    | 'nostrConnect'
    | 'cancelNostrConnect'
    | 'unlockPin'
    | 'cancelPin'
    | 'askPin'
    | 'logout'
    | 'revealSecret'
    | 'changePin'
    | 'accountAction'
    | 'settingsAction'
    | 'signEvent'
  >
>;

export interface AccountApiOptions extends AccountServiceOptions {
  /** Releases a tab's Comlink callback proxy. */
  releaser: (cb: object) => () => void;
  /** Marks the tab as alive. */
  touch: (tabId: string) => void;
}

export function createAccountApi(options: AccountApiOptions): { service: AccountService; api: AccountApi } {
  const service = new AccountService(options);
  const api: AccountApi = {
    async registerSigner(tabId, bridge) {
      options.touch(tabId);
      service.registerBridge(tabId, bridge, options.releaser(bridge));
      // The stored login is read once the first tab can lend its extension to the detection.
      service.boot();
    },
    async watchAccount(tabId, cb) {
      options.touch(tabId);
      service.boot();
      return service.watch(tabId, cb, options.releaser(cb));
    },
    async unwatchAccount(handle) {
      service.unwatch(handle);
    },
    login: (request) => service.loginWith(request),
    nostrConnect: (relays) => service.nostrConnect(relays),
    async cancelNostrConnect() {
      service.cancelNostrConnect();
    },
    unlockPin: (pin) => service.unlock(pin),
    async cancelPin() {
      service.cancelPin();
    },
    async askPin() {
      service.askPin();
    },
    logout: () => service.logout(),
    revealSecret: (pin) => service.revealSecret(pin),
    changePin: (current, next, confirm) => service.changePin(current, next, confirm),
    accountAction: (action) => service.act(action),
    settingsAction: (action) => service.settingsAction(action),
    signEvent: (event) => service.signer.sign(event),
  };
  return { service, api };
}
