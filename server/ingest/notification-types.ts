/**
 * Notification types (S §3.8) and the object format shared by the importer, which builds
 * notifications, and the cache commands, which serve them.
 */
import { createHash } from 'node:crypto';

export const N = {
  NEW_FOLLOWER: 1,
  ZAPPED: 3,
  LIKED: 4,
  REPOSTED: 5,
  REPLIED: 6,
  MENTIONED: 7,
  POST_MENTIONED: 8,
  MENTIONED_POST_ZAPPED: 101,
  MENTIONED_POST_LIKED: 102,
  MENTIONED_POST_REPOSTED: 103,
  MENTIONED_POST_REPLIED: 104,
  QUOTING_POST_ZAPPED: 201,
  QUOTING_POST_LIKED: 202,
  QUOTING_POST_REPOSTED: 203,
  QUOTING_POST_REPLIED: 204,
  REPLY_TO_REPLY: 601,
} as const;

/** The settings switch (app settings `notifications.<name>`) of each type. */
export const TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [1, 'NEW_USER_FOLLOWED_YOU'],
  [2, 'USER_UNFOLLOWED_YOU'],
  [3, 'YOUR_POST_WAS_ZAPPED'],
  [4, 'YOUR_POST_WAS_LIKED'],
  [5, 'YOUR_POST_WAS_REPOSTED'],
  [6, 'YOUR_POST_WAS_REPLIED_TO'],
  [7, 'YOU_WERE_MENTIONED_IN_POST'],
  [8, 'YOUR_POST_WAS_MENTIONED_IN_POST'],
  [101, 'POST_YOU_WERE_MENTIONED_IN_WAS_ZAPPED'],
  [102, 'POST_YOU_WERE_MENTIONED_IN_WAS_LIKED'],
  [103, 'POST_YOU_WERE_MENTIONED_IN_WAS_REPOSTED'],
  [104, 'POST_YOU_WERE_MENTIONED_IN_WAS_REPLIED_TO'],
  [201, 'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_ZAPPED'],
  [202, 'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_LIKED'],
  [203, 'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_REPOSTED'],
  [204, 'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_REPLIED_TO'],
  [301, 'YOUR_POST_WAS_HIGHLIGHTED'],
  [302, 'YOUR_POST_WAS_BOOKMARKED'],
  [401, 'NEW_DIRECT_MESSAGE'],
  [501, 'LIVE_EVENT_HAPPENING'],
  [601, 'REPLY_TO_REPLY'],
]);

/** Every type a summary (10000112) reports, so clients see a stable set of keys. */
export const SUMMARY_TYPES = [...TYPE_NAMES.keys()];

/** Arguments that name people; every other hex argument names an event. */
export const PUBKEY_ARGS = new Set([
  'follower',
  'who_zapped_it',
  'who_liked_it',
  'who_reposted_it',
  'who_replied_to_it',
  'you_were_mentioned_by',
  'your_post_was_mentioned_by',
  'who_highlighted_it',
  'who_bookmarked_it',
  'sender',
  'host',
]);

export const EVENT_ARGS = new Set([
  'your_post',
  'reply',
  'you_were_mentioned_in',
  'your_post_were_mentioned_in',
  'post_you_were_mentioned_in',
  'post_your_post_was_mentioned_in',
  'event_id',
  'live_event_id',
  'highlight',
]);

export type NotificationArgs = Record<string, string | number>;

export interface Notification {
  id: string;
  pubkey: string;
  created_at: number;
  type: number;
  [arg: string]: string | number;
}

/**
 * Builds the object with sorted keys and its id: sha256 hex of the JSON of every other field. One sort
 * (the JSON follows the sorted key list, and id is slotted into it), as this runs for every notification
 * at ingest. The keys are names, never integer-like, so an object's own order is its insertion order.
 */
export function makeNotification(pubkey: string, createdAt: number, type: number, args: NotificationArgs): Notification {
  const fields: Record<string, string | number> = { ...args, pubkey, created_at: createdAt, type };
  const keys = Object.keys(fields).sort();
  const id = createHash('sha256').update(JSON.stringify(fields, keys)).digest('hex');
  const out: Record<string, string | number> = {};
  let placed = false;
  for (const k of keys) {
    if (!placed && k >= 'id') {
      out.id = id;
      placed = true;
    }
    if (k !== 'id') out[k] = fields[k];
  }
  if (!placed) out.id = id;
  return out as Notification;
}
