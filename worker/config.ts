/** Worker-wide constants. Timings that the spec fixes are named after its wording (§4, §9). */

export const APP_VERSION = '2.0.11';

/**
 * The demo house account a guest's feeds are personalised for (spec §6: "the home feed uses a
 * default public account"). Hex pubkey. While empty, guests send no user_pubkey and the server
 * answers as for "no viewer". A tab's ClientConfig.guestPubkey overrides it.
 */
export const DEFAULT_GUEST_PUBKEY: string = '';

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

/** Tabs heartbeat every 10 s; one silent for 30 s is treated as closed. */
export const TAB_TIMEOUT_MS = 30_000;
export const TAB_SWEEP_MS = 10_000;

export const NIP05_TIMEOUT_MS = 8_000;
