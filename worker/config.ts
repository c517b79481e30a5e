/** Worker-wide constants. Timings that the spec fixes are named after its wording (§4, §9). */

export const APP_VERSION = '2.0.11';

/**
 * The public account a guest's feeds are personalised for (spec §6: "the home feed uses a
 * default public account"): Strucc's house account, which the demo network seeds with a
 * fixed key. A tab's ClientConfig.guestPubkey (localStorage guestPubkey) overrides it.
 */
export const DEFAULT_GUEST_PUBKEY: string = '19b1a39b5504585fda021f3439e6784037ed41137518027565a79fd5a25c0818';

/** Spec §9: cache socket reconnect 200 ms, send retry 100 ms, reset 1 s. */
export const RECONNECT_DELAY_MS = 200;
export const SEND_RETRY_MS = 100;
export const RESET_DELAY_MS = 1000;

/** A restarting or stuck cache server must not hang a tab forever. */
export const REQUEST_TIMEOUT_MS = 20_000;

/** Spec §9 page sizes and the pending-notes cap. */
export const FEED_PAGE_SIZE = 20;
export const FEED_POLL_LIMIT = 100;
export const PENDING_CAP = 100;
export const FEED_POLL_INTERVAL_MS = 30_000;

/** Snapshots to tabs are coalesced so a burst of machine updates costs one structured clone. */
export const SNAPSHOT_THROTTLE_MS = 50;

/**
 * Tabs heartbeat every 10 s; one silent for 30 s is treated as closed, unless the tab holds
 * its Web Lock (then the lock's release is the signal, and heartbeats may lapse).
 */
export const TAB_TIMEOUT_MS = 30_000;
export const TAB_SWEEP_MS = 10_000;

export const NIP05_TIMEOUT_MS = 8_000;

/** Each tab holds this lock for its whole life; the worker learns of the tab's end when it is released. */
export const tabLockName = (tabId: string): string => `strucc-tab:${tabId}`;
