/**
 * The login, account and settings part of the worker API, kept out of api.ts. Every tab gets the
 * same AccountService; a tab's watchers and signer bridge go away with the tab.
 */
import { AccountService, type AccountServiceOptions } from './account.ts';
import { AccountError } from '../core/keys.ts';
import type { ActionResult, StruccApi } from '../core/types.ts';

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
    | 'pushSubscribe'
    | 'pushUnsubscribe'
  >
>;

export interface AccountApiOptions extends AccountServiceOptions {
  /** Releases a tab's Comlink callback proxy. */
  releaser: (cb: object) => () => void;
  /** Marks the tab as alive. */
  touch: (tabId: string) => void;
}

/** A signed push request (the server acts on the signer only); a refusal comes back as its NOTICE. */
async function signedPushRequest(service: AccountService, options: AccountApiOptions, op: string, body: Record<string, unknown>): Promise<ActionResult> {
  let event;
  try {
    event = await service.signer.signRequest(op, body);
  } catch (err) {
    return { ok: false, code: err instanceof AccountError ? err.code : 'event_not_signed' };
  }
  try {
    const reply = await options.request(op, { event_from_user: event });
    return reply.notice ? { ok: false, code: 'push-refused', message: reply.notice } : { ok: true };
  } catch {
    return { ok: false, code: 'push-unreachable' };
  }
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
    pushSubscribe: (subscription, types) => signedPushRequest(service, options, 'push_subscribe', { ...subscription, types }),
    pushUnsubscribe: (endpoint) => signedPushRequest(service, options, 'push_unsubscribe', { endpoint }),
  };
  return { service, api };
}
