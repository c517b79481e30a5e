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
/**
 * The one version of every saved copy of what a feed showed (worker/feedView.ts's output): the
 * worker's stored pages (worker/feedCache.ts), the tab's first screen (src/lib/firstScreen.ts) and
 * the painted HTML of the home screen (src/lib/paintedCopy.ts, read by index.html before any module
 * runs; vite.config.ts writes the number there). Bump it when a FeedNote or the painted HTML changes
 * shape: every copy is then dropped together, never one of them alone.
 */
export const FEED_COPY_VERSION = 2;

/** Snapshots to tabs are coalesced so a burst of machine updates costs one structured clone. */
export const SNAPSHOT_THROTTLE_MS = 50;

/**
 * Tabs heartbeat every 10 s; one silent for 30 s is treated as closed, unless the tab holds
 * its Web Lock (then the lock's release is the signal, and heartbeats may lapse).
 */
export const TAB_HEARTBEAT_MS = 10_000;
export const TAB_TIMEOUT_MS = 30_000;
export const TAB_SWEEP_MS = 10_000;

export const NIP05_TIMEOUT_MS = 8_000;

/** Spec §4/§9 relay connection: 3 reconnect attempts, waits doubling from 1 s (1, 2, 4 s). */
export const RELAY_RECONNECT_ATTEMPTS = 3;
export const RELAY_RECONNECT_BASE_MS = 1000;
/** Spec's own spelling of the failure message, kept verbatim because the UI shows it. */
export const RELAY_ATTEMPT_LIMIT_MESSAGE = 'Reached atempt limit';
export const INVALID_RELAY_URL = 'Érvénytelen URL';

/** Spec §9: publish timeout per relay. */
export const PUBLISH_TIMEOUT_MS = 8000;
/** The cache server gives broadcast_events 15 s (protocol §3.10); its answer is awaited a little longer. */
export const PROXY_PUBLISH_TIMEOUT_MS = 16_000;

/** Spec §9: inactivity 5 minutes, wake-up 36 s. Tabs report activity at most this often. */
export const INACTIVITY_MS = 5 * 60_000;
export const WAKE_UP_MS = 36_000;
export const ACTIVITY_REPORT_THROTTLE_MS = 10_000;

/** Spec §4/§9 login: a missing extension is asked again 4 times, 250 ms apart, before the local key. */
export const EXTENSION_RETRIES = 4;
export const EXTENSION_RETRY_MS = 250;
/** Spec §4 Membership: the "7-day constant" between premium reminders. */
export const PREMIUM_REMINDER_INTERVAL_MS = 7 * 24 * 60 * 60 * 1000;
/** Spec §9 emoji history and the minimum contacts for publishing a follow list. */
export const EMOJI_HISTORY_MAX = 40;
export const MIN_CONTACTS_TO_PUBLISH = 2;
/** A failed settings save is kept locally and tried again after this long. */
export const SETTINGS_SAVE_RETRY_MS = 30_000;
/** The tag d value of every signed settings request (protocol C.1). */
export const APP_SETTINGS_CLIENT = 'Primal-Web App';

/** Each tab holds this lock for its whole life; the worker learns of the tab's end when it is released. */
export const tabLockName = (tabId: string): string => `strucc-tab:${tabId}`;

/** How long a remote signer (NIP-46) may take to answer one request; people may need to approve it on a phone. */
export const REMOTE_SIGNER_TIMEOUT_MS = 45_000;

/** How long a nostrconnect:// QR code waits for a signer app to scan and accept it. */
export const NOSTR_CONNECT_WAIT_MS = 180_000;

/** Where a nostrconnect:// offer listens when no write relay of the account is known yet. */
export const NOSTR_CONNECT_FALLBACK_RELAYS = ['wss://relay.nsec.app'];
