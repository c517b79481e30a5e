/**
 * Text normalisation shared by the search indexer and the query side, so both agree on what
 * a term is: lowercase, accents folded (Hungarian "gulyás" and "gulyas" are one term),
 * split on anything that is not a letter or a digit.
 */

/** Longer runs are identifiers (bech32, base64, hashes) rather than words; nobody searches by them. */
export const MAX_TERM_LENGTH = 40;
/** Words of at least this length match as prefixes: Hungarian glues suffixes on ("gulyást", "gulyással"). */
export const PREFIX_MIN = 3;

const MARKS = /\p{M}+/gu;
const SPLIT = /[^\p{L}\p{N}]+/u;

/** Lowercase, without diacritics (ő → o, ű → u, é → e …). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase().normalize('NFC');
}

/** The terms of a text in order; over-long runs are dropped but keep their position, so phrases never jump them. */
export function tokenize(text: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (const raw of fold(text).split(SPLIT)) {
    if (!raw) continue;
    out.push(raw.length > MAX_TERM_LENGTH ? null : raw);
  }
  return out;
}

/** The distinct usable terms of a text. */
export function terms(text: string): string[] {
  return [...new Set(tokenize(text).filter((t): t is string => t !== null))];
}

/** Hashtags of an event: its t tags and #words in the text, folded like terms. */
export function hashtagsOf(tags: string[][], content: string): string[] {
  const out = new Set<string>();
  for (const t of tags) {
    if (t[0] === 't' && typeof t[1] === 'string') {
      const tag = normaliseHashtag(t[1]);
      if (tag) out.add(tag);
    }
  }
  for (const m of content.matchAll(/(?:^|[^\p{L}\p{N}&/#])#([\p{L}\p{N}_]+)/gu)) {
    const tag = normaliseHashtag(m[1]);
    if (tag) out.add(tag);
  }
  return [...out];
}

export function normaliseHashtag(raw: string): string | null {
  // Spaces become '-' as in reads topics (S §3.1), so a tag is one token of a space-separated list.
  const tag = fold(raw.replace(/^#+/, '')).trim().replace(/\s+/g, '-');
  if (!tag || tag.length > 64 || /^\d+$/.test(tag)) return null;
  return tag;
}

const IMAGE_EXT = /\.(?:png|jpe?g|gif|webp|avif|svg|bmp)(?:[?#][^\s]*)?$/i;
const VIDEO_EXT = /\.(?:mp4|mov|m4v|webm|ogv|mkv|m3u8)(?:[?#][^\s]*)?$/i;
const AUDIO_EXT = /\.(?:mp3|m4a|wav|flac|oga|ogg|opus|aac)(?:[?#][^\s]*)?$/i;
const URL = /https?:\/\/[^\s"'<>]+/gi;

export interface MediaFlags {
  image: boolean;
  video: boolean;
  audio: boolean;
  url: boolean;
}

/** What media a post carries, from its kind, its links' file types and NIP-92 imeta mime types. */
export function mediaFlags(kind: number, tags: string[][], content: string): MediaFlags {
  const flags: MediaFlags = { image: kind === 20, video: kind === 21 || kind === 22 || kind === 34235 || kind === 34236, audio: false, url: false };
  for (const m of content.matchAll(URL)) {
    flags.url = true;
    const url = m[0].replace(/[),.!?;:]+$/, '');
    if (IMAGE_EXT.test(url)) flags.image = true;
    else if (VIDEO_EXT.test(url)) flags.video = true;
    else if (AUDIO_EXT.test(url)) flags.audio = true;
  }
  for (const t of tags) {
    if (t[0] !== 'imeta') continue;
    for (const part of t.slice(1)) {
      if (typeof part !== 'string' || !part.startsWith('m ')) continue;
      const mime = part.slice(2).trim();
      if (mime.startsWith('image/')) flags.image = true;
      if (mime.startsWith('video/')) flags.video = true;
      if (mime.startsWith('audio/')) flags.audio = true;
    }
  }
  return flags;
}

/** Bits of the search key below the second: the id's first 20 bits, so events of one second rarely clash. */
const SUBSECOND_BITS = 20;
/** created_at is clamped here so every key stays a safe integer on both stores (year 2223). */
const MAX_KEY_TIME = 8_000_000_000;

/**
 * The search key of an event (search_docs.doc, the FTS rowid): created_at then the id's first 20 bits,
 * so key order is time order. The indexer takes the next free key on the rare clash.
 */
export function docKey(eventId: string, createdAt: number): number {
  const at = Math.min(Math.max(Math.floor(createdAt) || 0, 0), MAX_KEY_TIME);
  return at * 2 ** SUBSECOND_BITS + parseInt(eventId.slice(0, 5), 16);
}

/** The smallest key of the second after `at`: `doc < docKeyAfter(at)` is `created_at <= at`. */
export function docKeyAfter(at: number): number {
  return (Math.min(Math.max(Math.floor(at), -1), MAX_KEY_TIME) + 1) * 2 ** SUBSECOND_BITS;
}

/**
 * Put between two fields of the indexed text: longer than MAX_TERM_LENGTH, so no query can name it,
 * and it keeps a phrase from matching across a title and the text.
 */
export const FIELD_GAP = 'x'.repeat(MAX_TERM_LENGTH + 1);

/** The text handed to the engine: folded terms of each field, fields apart, at most `maxTerms` terms. */
export function indexText(fields: string[], maxTerms: number): string {
  const out: string[] = [];
  for (const field of fields) {
    const words = tokenize(field).filter((t): t is string => t !== null);
    if (!words.length) continue;
    if (out.length) out.push(FIELD_GAP);
    for (const w of words) {
      if (out.length >= maxTerms) return out.join(' ');
      out.push(w);
    }
  }
  return out.join(' ');
}

/**
 * A hashtag as one token of SQLite's unicode61 tokenizer (letters and digits only): a tag with other
 * characters ("a-b", "x_y") is spelt as 'x' and its UTF-8 bytes in hex.
 */
export function tagToken(tag: string): string {
  if (/^[\p{L}\p{N}]+$/u.test(tag)) return tag;
  return `x${[...new TextEncoder().encode(tag)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Whitespace-separated words, counted as the reads pipeline counts them. */
export function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}
