/**
 * The mute and filter pages' pure logic: what a typed word, hashtag or account means, the mute
 * list split into its four sections, and the Hungarian text of an action's failure.
 */
import { decode } from 'nostr-tools/nip19';
import type { AccountRecord, ActionResult } from '../../../core/types';

const HEX64 = /^[0-9a-f]{64}$/i;
/** The server ignores longer words (server/moderation/rules.ts MAX_WORD_CHARS). */
export const MAX_WORD_CHARS = 100;

export type InputCheck = { ok: true; value: string } | { ok: false; error: 'empty' | 'tooLong' | 'invalid' };

/** A muted word or phrase: trimmed, inner whitespace collapsed, case kept as typed. */
export function checkWord(raw: string): InputCheck {
  const value = raw.trim().replace(/\s+/g, ' ');
  if (!value) return { ok: false, error: 'empty' };
  if (value.length > MAX_WORD_CHARS) return { ok: false, error: 'tooLong' };
  return { ok: true, value };
}

/** A hashtag without its #: letters, digits, _ and - only (as note texts write them), lower case. */
export function checkHashtag(raw: string): InputCheck {
  const value = raw.trim().replace(/^#+/, '');
  if (!value) return { ok: false, error: 'empty' };
  if (!/^[\p{L}\p{N}_-]+$/u.test(value)) return { ok: false, error: 'invalid' };
  if (value.length > MAX_WORD_CHARS) return { ok: false, error: 'tooLong' };
  return { ok: true, value: value.toLocaleLowerCase('hu') };
}

/** The hex pubkey of an npub, nprofile (with or without nostr:) or a 64-digit hex key; undefined otherwise. */
export function pubkeyFromInput(raw: string): string | undefined {
  const text = raw.trim().replace(/^nostr:/i, '');
  if (HEX64.test(text)) return text.toLowerCase();
  if (!/^(npub|nprofile)1/i.test(text)) return undefined;
  try {
    const decoded = decode(text.toLowerCase());
    if (decoded.type === 'npub') return decoded.data;
    if (decoded.type === 'nprofile') return decoded.data.pubkey;
  } catch {
    return undefined;
  }
  return undefined;
}

/** Whether the text looks like a key the person meant to paste (so a failed decode is an error, not a name). */
export function looksLikeKey(raw: string): boolean {
  return /^(nostr:)?(npub|nprofile)1/i.test(raw.trim()) || HEX64.test(raw.trim());
}

export interface MutedSections {
  users: string[];
  words: string[];
  hashtags: string[];
  threads: string[];
}

/** Public and private entries of the account's mute list, each once, in list order. */
export function mutedSections(record: Pick<AccountRecord, 'muted' | 'mutedTags' | 'mutedPrivateTags'> | undefined): MutedSections {
  const out: MutedSections = { users: [], words: [], hashtags: [], threads: [] };
  if (!record) return out;
  const push = (list: string[], value: string, caseless: boolean) => {
    const key = caseless ? value.toLocaleLowerCase('hu') : value;
    if (!list.some((v) => (caseless ? v.toLocaleLowerCase('hu') : v) === key)) list.push(value);
  };
  for (const tag of [...record.mutedTags, ...(record.mutedPrivateTags ?? [])]) {
    const value = tag[1];
    if (typeof value !== 'string' || value === '') continue;
    if (tag[0] === 'word') push(out.words, value, true);
    else if (tag[0] === 't') push(out.hashtags, value.replace(/^#/, ''), true);
    else if (tag[0] === 'e') push(out.threads, value, false);
  }
  for (const pubkey of record.muted) push(out.users, pubkey, false);
  return out;
}

/** Translation key (moderation namespace) of a failed account action; undefined when it did not fail. */
export function actionErrorKey(result: ActionResult): string | undefined {
  if (result.ok) return undefined;
  switch (result.code) {
    case 'no-pubkey':
      return 'errors.signIn';
    case 'sign-no-nsec':
    case 'no_nostr_extension':
    case 'event_not_signed':
      return 'errors.noSigner';
    case 'decrypt-no-nsec':
      return 'errors.decrypt';
    case 'publish-failed':
      return 'errors.publish';
    default:
      return 'errors.generic';
  }
}
