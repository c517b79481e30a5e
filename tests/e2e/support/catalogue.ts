import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The English UI strings that must never be visible in Hungarian mode: every value of
 * locales/en/*.json whose key the Hungarian catalogue translates differently (or not at
 * all, since a missing Hungarian key falls back to English on screen).
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

type Flat = Map<string, string>;

function flatten(value: unknown, prefix: string, out: Flat): void {
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  }
}

function loadLanguage(lang: string): Flat {
  const dir = join(ROOT, 'locales', lang);
  const out: Flat = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    flatten(JSON.parse(readFileSync(join(dir, file), 'utf8')), file.replace(/\.json$/, ''), out);
  }
  return out;
}

/** Names that read the same in both languages. */
const PROPER_NOUNS = new Set(
  ['Strucc', 'Nostr', 'Bitcoin', 'Lightning', 'Primal', 'GitHub', 'Google', 'Apple', 'Android', 'iOS', 'YouTube', 'Spotify', 'Twitch']
    .map((w) => w.toLowerCase()),
);

const GENERIC_ENGLISH = [
  'Loading',
  'Something went wrong',
  'Try again',
  'Cancel',
  'Submit',
  'Follow',
  'Unfollow',
  'Reply',
  'Replies',
  'Repost',
  'Likes',
  'Followers',
  'Following',
  'No results',
  'Show more',
  'Read more',
  'undefined',
  'NaN',
  '[object Object]',
];

const LETTERS = /\p{L}/gu;

/** Splits a catalogue value into the literal phrases a reader would see (placeholders and markup cut out). */
function phrases(value: string): string[] {
  return value
    .split(/\{\{[^}]*\}\}|\$t\([^)]*\)|<\/?[^>]+>|[\n…:|·•()[\]"„”"]/)
    .map((part) => part.trim().replace(/^[\s,.;!?–—-]+|[\s,.;!?–—-]+$/g, ''))
    .filter((part) => (part.match(LETTERS) ?? []).length >= 4)
    .filter((part) => !part.split(/\s+/).every((word) => PROPER_NOUNS.has(word.toLowerCase())));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A whole-word, case-sensitive match of the phrase (so "Home" does not match "Homeopátia"). */
export function phrasePattern(phrase: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(phrase).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'u');
}

/** Text of the demo network's generated content (notes, articles, profiles): user content, not UI. */
function demoCorpus(): string {
  const dir = join(ROOT, 'server', 'demo');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    // Only the string literals: the generator's comments and names are English source code, not content.
    .flatMap((source) => source.match(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g) ?? [])
    .join('\n');
}

export interface EnglishPhrase {
  phrase: string;
  /** The catalogue key it comes from (namespace.path). */
  key: string;
  pattern: RegExp;
}

let cached: EnglishPhrase[] | undefined;

export function englishOnlyPhrases(): EnglishPhrase[] {
  if (cached) return cached;
  const en = loadLanguage('en');
  const hu = loadLanguage('hu');
  const huText = [...hu.values()].join('\n');
  const corpus = demoCorpus();
  const seen = new Map<string, EnglishPhrase>();
  for (const [key, value] of en) {
    const translated = hu.get(key);
    if (translated !== undefined && translated.trim() === value.trim()) continue;
    for (const phrase of phrases(value)) {
      if (seen.has(phrase)) continue;
      const pattern = phrasePattern(phrase);
      // A phrase Hungarian uses too, or one the demo users write, proves nothing on screen.
      if (pattern.test(huText) || pattern.test(corpus)) continue;
      seen.set(phrase, { phrase, key, pattern });
    }
  }
  // English a screen might hard-code without a catalogue entry, and what a broken template leaves behind.
  for (const phrase of GENERIC_ENGLISH) {
    const pattern = phrasePattern(phrase);
    if (!seen.has(phrase) && !pattern.test(huText) && !pattern.test(corpus)) seen.set(phrase, { phrase, key: '(not in the catalogue)', pattern });
  }
  cached = [...seen.values()];
  return cached;
}

/** The Hungarian catalogue value of a shell key (translation namespace), for locating UI by its label. */
export function hu(key: string): string {
  const value = loadLanguage('hu').get(`translation.${key}`);
  if (value === undefined) throw new Error(`no Hungarian string for ${key}`);
  return value;
}

/** Every English-only catalogue phrase that occurs in the text. */
export function englishIn(text: string): EnglishPhrase[] {
  return englishOnlyPhrases().filter((p) => p.pattern.test(text));
}
