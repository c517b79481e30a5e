/**
 * The server-saved app settings (S §3.9): one stored event per user in app_settings. Content
 * moderation and notification generation both read the stored content through here.
 */
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';

/** A stored settings event: the user's signed kind 30078 (content merged) or the stored defaults (10000103). */
export type StoredSettingsEvent = Omit<NostrEvent, 'tags'> & { tags: string[][] };

export async function storedSettingsEvent(db: Queryable, pubkey: string): Promise<StoredSettingsEvent | undefined> {
  const row = await db.get<{ event: string }>('SELECT event FROM app_settings WHERE pubkey = ?', [pubkey]);
  if (!row) return undefined;
  try {
    const ev = JSON.parse(row.event) as StoredSettingsEvent;
    return ev && typeof ev === 'object' && typeof ev.content === 'string' ? ev : undefined;
  } catch {
    // A corrupt row reads as "nothing stored", so the user gets defaults rather than an error.
    return undefined;
  }
}

export function parseSettingsContent(content: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(content);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The user's stored settings JSON, or undefined when the user never stored any (S §3.8: only
 * users with stored settings get notifications). Notification switches are in `notifications`
 * and `notificationsAdditional`.
 */
export async function getUserSettings(db: Queryable, pubkey: string): Promise<Record<string, unknown> | undefined> {
  const ev = await storedSettingsEvent(db, pubkey);
  return ev ? parseSettingsContent(ev.content) : undefined;
}

export async function saveSettingsEvent(db: Queryable, pubkey: string, ev: StoredSettingsEvent, now: number): Promise<void> {
  await db.run(
    `INSERT INTO app_settings (pubkey, event, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (pubkey) DO UPDATE SET event = excluded.event, updated_at = excluded.updated_at`,
    [pubkey, JSON.stringify(ev), now],
  );
}
