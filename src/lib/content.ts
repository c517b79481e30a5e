import { decode } from 'nostr-tools/nip19';

/** A piece of note text, in reading order. Line breaks stay inside text pieces. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'link'; url: string }
  | { type: 'image'; url: string }
  | { type: 'hashtag'; tag: string }
  | { type: 'mention'; pubkey: string; bech32: string }
  | { type: 'event'; bech32: string };

const IMAGE_HOSTS = new Set(['media.strucc.test']);
const IMAGE_EXT = /\.(?:jpe?g|png|gif|webp|avif|svg)$/i;

export function isImageUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return IMAGE_HOSTS.has(url.hostname) || IMAGE_EXT.test(url.pathname);
  } catch {
    return false;
  }
}

// One pass over the text; the alternation order decides which pattern wins at a position.
const TOKEN = new RegExp(
  [
    String.raw`(?<url>https?:\/\/[^\s<>"]+)`,
    String.raw`(?<nostr>nostr:(?:npub1|nprofile1|note1|nevent1|naddr1)[02-9ac-hj-np-z]+)`,
    String.raw`(?<![\p{L}\p{N}_&/#])#(?<tag>[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)`,
  ].join('|'),
  'gu',
);

// Sentence punctuation right after a URL belongs to the sentence, not to the link.
const TRAILING = /[.,;:!?'")\]}]+$/;

function trimUrl(url: string): { url: string; rest: string } {
  const match = TRAILING.exec(url);
  if (!match) return { url, rest: '' };
  let cut = match[0];
  // Keep a closing parenthesis that balances one inside the URL (wiki-style links).
  if (cut.startsWith(')') && (url.match(/\(/g)?.length ?? 0) >= (url.match(/\)/g)?.length ?? 0)) {
    cut = cut.slice(1);
  }
  return cut ? { url: url.slice(0, -cut.length), rest: cut } : { url, rest: '' };
}

function nostrPart(ref: string): ContentPart {
  const bech32 = ref.slice('nostr:'.length);
  try {
    const decoded = decode(bech32);
    if (decoded.type === 'npub') return { type: 'mention', pubkey: decoded.data, bech32 };
    if (decoded.type === 'nprofile') return { type: 'mention', pubkey: decoded.data.pubkey, bech32 };
    return { type: 'event', bech32 };
  } catch {
    // An identifier with a bad checksum is shown as the text the author typed.
    return { type: 'text', text: ref };
  }
}

export function parseContent(content: string): ContentPart[] {
  const parts: ContentPart[] = [];
  const pushText = (text: string) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.type === 'text') last.text += text;
    else parts.push({ type: 'text', text });
  };
  let cursor = 0;
  for (const match of content.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    pushText(content.slice(cursor, index));
    cursor = index + match[0].length;
    const groups = match.groups ?? {};
    if (groups.url) {
      const { url, rest } = trimUrl(groups.url);
      parts.push(isImageUrl(url) ? { type: 'image', url } : { type: 'link', url });
      pushText(rest);
    } else if (groups.nostr) {
      const part = nostrPart(groups.nostr);
      if (part.type === 'text') pushText(part.text);
      else parts.push(part);
    } else if (groups.tag) {
      parts.push({ type: 'hashtag', tag: groups.tag });
    }
  }
  pushText(content.slice(cursor));
  return parts;
}
