/**
 * What a push says, in Hungarian (locales/hu/notifications.json → push), and where a click leads.
 * A direct message's push names only its sender: the server cannot read NIP-04 content and must
 * not hint at it either, so nothing of the event but its author travels.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { profileDisplayName, replaceableOf } from '../cache/data.ts';
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { N } from '../ingest/notification-types.ts';
import type { PushType } from './schema.ts';

type Texts = Record<'dmFrom_back' | 'dmFrom_front' | 'dmBody' | 'mention' | 'mentionPost' | 'reply' | 'zap', string>;

const TEXTS: Texts = (JSON.parse(readFileSync(join(import.meta.dirname, '../../locales/hu/notifications.json'), 'utf8')) as { push: Texts }).push;

/** What the service worker shows: title and body as sent, the route to open, one tag per conversation or post. */
export interface PushMessage {
  type: PushType;
  title: string;
  body: string;
  url: string;
  tag: string;
}

/** Notification types that make a push, and the kind of news each is. */
export const PUSHED_TYPES: ReadonlyMap<number, PushType> = new Map([
  [N.MENTIONED, 'mention'],
  [N.POST_MENTIONED, 'mention'],
  [N.REPLIED, 'reply'],
  [N.REPLY_TO_REPLY, 'reply'],
  [N.ZAPPED, 'zap'],
]);

const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));

const BACK = 'aáoóuú';
const FRONT = 'eéöőüű';
/**
 * -tól or -től by vowel harmony: the last vowel that is not i/í decides; i, í and e-less names
 * count as front, unless a back vowel comes before them (Kati → Katitól).
 */
export function harmony(name: string): 'back' | 'front' {
  const lower = name.toLowerCase();
  for (let i = lower.length - 1; i >= 0; i--) {
    if (BACK.includes(lower[i])) return 'back';
    if (FRONT.includes(lower[i])) return 'front';
  }
  return 'front';
}

/** A notification's text is the post, public anyway; long posts end in an ellipsis. */
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 140 ? `${flat.slice(0, 139)}…` : flat;
}

export async function nameOf(db: Queryable, pubkey: string): Promise<string> {
  const name = profileDisplayName((await replaceableOf(db, 0, [pubkey])).get(pubkey)).trim();
  if (name) return name.length > 48 ? `${name.slice(0, 47)}…` : name;
  const npub = nip19.npubEncode(pubkey);
  return `${npub.slice(0, 12)}…`;
}

export function dmMessage(sender: string, name: string): PushMessage {
  const npub = nip19.npubEncode(sender);
  return {
    type: 'dm',
    title: fill(harmony(name) === 'back' ? TEXTS.dmFrom_back : TEXTS.dmFrom_front, { name }),
    body: TEXTS.dmBody,
    url: `/dms/${npub}`,
    tag: `dm:${sender}`,
  };
}

/** A stored notification (its content object) of `source` as a push, or null for types that are not pushed. */
export function notificationMessage(notification: Record<string, unknown>, source: NostrEvent, name: string): PushMessage | null {
  const type = PUSHED_TYPES.get(Number(notification.type));
  if (!type) return null;
  if (type === 'zap') {
    const sats = Number(notification.satszapped ?? 0);
    const message = typeof notification.message === 'string' ? notification.message : '';
    return { type, title: fill(TEXTS.zap, { name, sats }), body: excerpt(message), url: '/notifications', tag: `zap:${source.id}` };
  }
  const title = type === 'reply' ? TEXTS.reply : Number(notification.type) === N.POST_MENTIONED ? TEXTS.mentionPost : TEXTS.mention;
  return { type, title: fill(title, { name }), body: excerpt(source.content), url: `/e/${nip19.noteEncode(source.id)}`, tag: `${type}:${source.id}` };
}

/** Who the notification names as its initiator (the zapper, the replier, the mentioner). */
export function initiatorOf(notification: Record<string, unknown>, source: NostrEvent): string {
  for (const k of ['who_zapped_it', 'who_replied_to_it', 'you_were_mentioned_by', 'your_post_was_mentioned_by']) {
    const v = notification[k];
    if (typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)) return v;
  }
  return source.pubkey;
}
