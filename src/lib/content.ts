import { decode } from 'nostr-tools/nip19';
import { embedOf, type Embed } from './embeds';

export type { Embed, EmbedService } from './embeds';
export { embedOf } from './embeds';

/** A piece of note text, in reading order. Line breaks stay inside text pieces. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'link'; url: string }
  | { type: 'image'; url: string }
  | { type: 'video'; url: string }
  | { type: 'embed'; url: string; embed: Embed }
  | { type: 'hashtag'; tag: string }
  | { type: 'mention'; pubkey: string; bech32: string }
  | { type: 'event'; bech32: string; id: string; author?: string }
  | { type: 'address'; bech32: string; coordinate: string; kind: number; pubkey: string; identifier: string }
  | { type: 'invoice'; invoice: string }
  | { type: 'cashu'; token: string }
  | { type: 'emoji'; name: string; url: string };

const IMAGE_HOSTS = new Set(['media.strucc.test']);
const IMAGE_EXT = /\.(?:jpe?g|png|gif|webp|avif|svg)$/i;
const VIDEO_EXT = /\.(?:mp4|ogg|ogv|webm)$/i;

function parsedUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

export function isImageUrl(raw: string): boolean {
  const url = parsedUrl(raw);
  return !!url && (IMAGE_HOSTS.has(url.hostname) || IMAGE_EXT.test(url.pathname));
}

export function isVideoUrl(raw: string): boolean {
  const url = parsedUrl(raw);
  return !!url && VIDEO_EXT.test(url.pathname);
}

/** Bech32 strings longer than this are not identifiers anyone wrote by hand (spec §9). */
const BECH32_MAX = 5000;

// One pass over the text; the alternation order decides which pattern wins at a position.
const TOKEN = new RegExp(
  [
    String.raw`(?<url>https?:\/\/[^\s<>"]+)`,
    String.raw`(?<nostr>nostr:(?:npub1|nprofile1|note1|nevent1|naddr1)[02-9ac-hj-np-z]+)`,
    String.raw`(?<![\p{L}\p{N}_&/#])#(?<tag>[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)`,
    String.raw`(?<![\p{L}\p{N}])(?:lightning:)?(?<invoice>[lL][nN][bB][cC][0-9a-zA-Z]{20,})`,
    String.raw`(?<![\p{L}\p{N}])(?<cashu>cashu[AB][A-Za-z0-9_\-+/]{20,}=*)`,
    String.raw`:(?<emoji>[\w-]{1,64}):`,
  ].join('|'),
  'gu',
);

// Sentence punctuation right after a URL belongs to the sentence, not to the link.
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', ')', ']', '}']);

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

function trimUrl(raw: string): { url: string; rest: string } {
  let url = raw;
  while (url.length > 0 && TRAILING.has(url[url.length - 1])) {
    // Keep a closing parenthesis that balances one inside the URL (wiki-style links).
    if (url.endsWith(')') && count(url, '(') >= count(url, ')')) break;
    url = url.slice(0, -1);
  }
  return { url, rest: raw.slice(url.length) };
}

function nostrPart(ref: string): ContentPart {
  const bech32 = ref.slice('nostr:'.length);
  if (bech32.length > BECH32_MAX) return { type: 'text', text: ref };
  try {
    const decoded = decode(bech32);
    switch (decoded.type) {
      case 'npub':
        return { type: 'mention', pubkey: decoded.data, bech32 };
      case 'nprofile':
        return { type: 'mention', pubkey: decoded.data.pubkey, bech32 };
      case 'note':
        return { type: 'event', bech32, id: decoded.data };
      case 'nevent':
        return { type: 'event', bech32, id: decoded.data.id, author: decoded.data.author };
      case 'naddr': {
        const { kind, pubkey, identifier } = decoded.data;
        return { type: 'address', bech32, kind, pubkey, identifier, coordinate: `${kind}:${pubkey}:${identifier}` };
      }
      default:
        return { type: 'text', text: ref };
    }
  } catch {
    // An identifier with a bad checksum is shown as the text the author typed.
    return { type: 'text', text: ref };
  }
}

function linkPart(url: string): ContentPart {
  if (isImageUrl(url)) return { type: 'image', url };
  if (isVideoUrl(url)) return { type: 'video', url };
  const embed = embedOf(url);
  return embed ? { type: 'embed', url, embed } : { type: 'link', url };
}

/** NIP-30 custom emoji: the event's ["emoji", shortcode, image URL] tags, https images only. */
export function emojiMap(tags: readonly string[][] | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  for (const t of tags ?? []) {
    if (t[0] !== 'emoji' || !t[1] || !/^[\w-]+$/.test(t[1])) continue;
    if (parsedUrl(t[2] ?? '')?.protocol === 'https:') map[t[1]] = t[2];
  }
  return map;
}

export function parseContent(content: string, emojis: Record<string, string> = {}): ContentPart[] {
  const parts: ContentPart[] = [];
  const pushText = (text: string) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.type === 'text') last.text += text;
    else parts.push({ type: 'text', text });
  };
  // One shared regex (the parse never re-enters itself): compiling the Unicode-property pattern
  // anew per note showed in the first render.
  const token = TOKEN;
  token.lastIndex = 0;
  let cursor = 0;
  for (let match = token.exec(content); match; match = token.exec(content)) {
    const index = match.index;
    const groups = match.groups ?? {};
    if (groups.emoji !== undefined && !Object.hasOwn(emojis, groups.emoji)) {
      // Not an emoji of this note: the closing colon may open the next one (":a:b:").
      token.lastIndex = index + 1;
      continue;
    }
    pushText(content.slice(cursor, index));
    cursor = index + match[0].length;
    if (groups.url) {
      const { url, rest } = trimUrl(groups.url);
      parts.push(linkPart(url));
      pushText(rest);
    } else if (groups.nostr) {
      const part = nostrPart(groups.nostr);
      if (part.type === 'text') pushText(part.text);
      else parts.push(part);
    } else if (groups.tag) {
      parts.push({ type: 'hashtag', tag: groups.tag });
    } else if (groups.invoice) {
      parts.push({ type: 'invoice', invoice: groups.invoice.toLowerCase() });
    } else if (groups.cashu) {
      parts.push({ type: 'cashu', token: groups.cashu });
    } else if (groups.emoji !== undefined) {
      parts.push({ type: 'emoji', name: groups.emoji, url: emojis[groups.emoji] });
    }
  }
  pushText(content.slice(cursor));
  return parts;
}

export interface CashuSummary {
  amount: number;
  mint: string;
  unit: string;
  memo: string;
}

function base64UrlDecode(text: string): string {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** A cashuA token's total and mint (NUT-00 V3: base64url JSON); null when it does not decode. */
export function decodeCashu(token: string): CashuSummary | null {
  if (!token.startsWith('cashuA')) return null;
  try {
    const json = JSON.parse(base64UrlDecode(token.slice(6))) as { token?: unknown; unit?: unknown; memo?: unknown };
    if (!Array.isArray(json.token) || json.token.length === 0) return null;
    let amount = 0;
    let mint = '';
    for (const entry of json.token as { mint?: unknown; proofs?: unknown }[]) {
      if (typeof entry?.mint === 'string' && !mint) mint = entry.mint;
      if (!Array.isArray(entry?.proofs)) continue;
      for (const proof of entry.proofs as { amount?: unknown }[]) {
        const value = Number(proof?.amount);
        if (Number.isSafeInteger(value) && value > 0) amount += value;
      }
    }
    if (!mint || amount <= 0) return null;
    return {
      amount,
      mint,
      unit: typeof json.unit === 'string' ? json.unit : 'sat',
      memo: typeof json.memo === 'string' ? json.memo : '',
    };
  } catch {
    return null;
  }
}
