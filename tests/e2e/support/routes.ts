import { expect, type Page } from '@playwright/test';
import { nip19 } from 'nostr-tools';
import { cacheRequest as request } from './cache-client.ts';
import { base } from './base.ts';

/**
 * Every route of spec §2 with a real path into the running demo network. The ids are
 * looked up through the cache socket (ws://…/v1) so the walks in routes/no-english/a11y
 * specs visit screens that have real data to show, not empty states.
 */

const cacheRequest = (command: string, args: Record<string, unknown>, baseUrl: string) => request<CacheObject>(command, args, baseUrl);

interface CacheObject {
  kind: number;
  id?: string;
  pubkey?: string;
  content: string;
  tags?: string[][];
}

export interface DemoIds {
  /** A kind-1 note with at least one reply. */
  noteId: string;
  nevent: string;
  /** The author of that note. */
  npub: string;
  nprofile: string;
  /** An article (kind 30023) and its author. */
  naddr: string;
  articleIdentifier: string;
  /** One of the article's topics. */
  topic: string;
  /** A word that occurs in the note's text. */
  searchWord: string;
  /** The article author's NIP-05 name on the server's domain (resolves through /.well-known/nostr.json). */
  vanityName: string;
  /** A feed of the explore catalogue. */
  exploreFeedId: string;
}

export interface RouteCase {
  /** Short label for test titles. */
  name: string;
  /** The path, filled with the demo network's ids. */
  path: (ids: DemoIds) => string;
  /** One of the main routes the accessibility check covers. */
  main?: boolean;
}

export const SETTINGS_PAGES = [
  'account',
  'appearance',
  'home_feeds',
  'reads_feeds',
  'notifications',
  'zaps',
  'muted',
  'network',
  'filters',
  'nwc',
  'ecash',
  'devtools',
  'profile',
] as const;

function parse<T>(json: string): T | undefined {
  try {
    return JSON.parse(json) as T;
  } catch {
    return undefined;
  }
}

const tag = (event: CacheObject, name: string) => event.tags?.find((t) => t[0] === name)?.[1];

async function noteWithReplies(baseUrl: string): Promise<CacheObject> {
  const objects = await cacheRequest('explore', { timeframe: 'popular', scope: 'global', limit: 50 }, baseUrl);
  const replies = new Map<string, number>();
  for (const o of objects) {
    if (o.kind !== 10000100) continue;
    const stats = parse<{ event_id: string; replies: number }>(o.content);
    if (stats) replies.set(stats.event_id, stats.replies);
  }
  const notes = objects.filter((o) => o.kind === 1 && o.id && (replies.get(o.id) ?? 0) > 0);
  notes.sort((a, b) => (replies.get(b.id!) ?? 0) - (replies.get(a.id!) ?? 0));
  if (!notes[0]) throw new Error('the demo network has no popular note with replies');
  return notes[0];
}

async function nip05Name(baseUrl: string, pubkey: string): Promise<string | undefined> {
  const profile = (await cacheRequest('user_infos', { pubkeys: [pubkey] }, baseUrl)).find((o) => o.kind === 0);
  const nip05 = profile && parse<{ nip05?: string }>(profile.content)?.nip05;
  const name = nip05?.split('@')[0]?.toLowerCase();
  if (!name) return undefined;
  const res = await fetch(`${baseUrl}/.well-known/nostr.json?name=${encodeURIComponent(name)}`);
  const names = ((await res.json()) as { names?: Record<string, string> }).names ?? {};
  return names[name] === pubkey ? name : undefined;
}

/** A word of at least six letters from the note, so a search for it is meaningful. */
function wordOf(text: string): string {
  const words = text.match(/\p{L}{6,}/gu) ?? [];
  const word = words.find((w) => w === w.toLowerCase()) ?? words[0];
  if (!word) throw new Error(`no searchable word in "${text}"`);
  return word;
}

async function lookUp(baseUrl: string): Promise<DemoIds> {
  const note = await noteWithReplies(baseUrl);
  const articles = (await cacheRequest('long_form_content_feed', { limit: 20 }, baseUrl)).filter((o) => o.kind === 30023);
  // An article with a topic, whose author has a name on the server's NIP-05 domain (for /{vanityName}/{identifier}).
  let article: CacheObject | undefined;
  let vanityName: string | undefined;
  for (const candidate of articles) {
    if (!tag(candidate, 't') || !tag(candidate, 'd')) continue;
    vanityName = await nip05Name(baseUrl, candidate.pubkey!);
    if (vanityName) {
      article = candidate;
      break;
    }
  }
  if (!article || !vanityName) throw new Error('the demo network has no tagged article by an author with a NIP-05 name');
  // The explore catalogue names its advanced feeds by the slug of their name ("Képek" -> "kepek").
  const advanced = (await cacheRequest('get_advanced_feeds', {}, baseUrl)).find((o) => o.kind === 10000150);
  const firstName = parse<{ name: string }[]>(advanced?.content ?? '[]')?.[0]?.name;
  const slug = firstName?.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const exploreFeedId = slug || 'global-trending';
  return {
    noteId: note.id!,
    nevent: nip19.neventEncode({ id: note.id!, author: note.pubkey }),
    npub: nip19.npubEncode(note.pubkey!),
    nprofile: nip19.nprofileEncode({ pubkey: note.pubkey! }),
    naddr: nip19.naddrEncode({ kind: 30023, pubkey: article.pubkey!, identifier: tag(article, 'd')! }),
    articleIdentifier: tag(article, 'd')!,
    topic: tag(article, 't')!,
    searchWord: wordOf(note.content),
    vanityName,
    exploreFeedId,
  };
}

const lookups = new Map<string, Promise<DemoIds>>();

/** The demo ids of the server at baseUrl, looked up once per test worker. */
export function demoIds(baseUrl: string = base()): Promise<DemoIds> {
  let ids = lookups.get(baseUrl);
  if (!ids) {
    ids = lookUp(baseUrl);
    lookups.set(baseUrl, ids);
  }
  return ids;
}

const enc = encodeURIComponent;
const fixed = (path: string) => () => path;

/**
 * Every route of spec §2. The list is static so that specs can declare one test per route at
 * collection time, before the server exists; each test fills the path with demoIds().
 */
export const ROUTES: RouteCase[] = [
  { name: 'home', path: fixed('/home'), main: true },
  { name: 'reads', path: fixed('/reads'), main: true },
  { name: 'reads topic', path: (ids) => `/reads/${enc(ids.topic)}` },
  { name: 'reads edit', path: fixed('/reads/edit') },
  { name: 'thread', path: (ids) => `/thread/${ids.noteId}`, main: true },
  { name: 'thread by nevent', path: (ids) => `/e/${ids.nevent}` },
  { name: 'article', path: (ids) => `/a/${ids.naddr}`, main: true },
  { name: 'explore', path: fixed('/explore'), main: true },
  { name: 'explore feed', path: (ids) => `/explore/feed/${enc(ids.exploreFeedId)}` },
  { name: 'messages', path: fixed('/dms'), main: true },
  { name: 'messages with a contact', path: (ids) => `/dms/${ids.npub}` },
  { name: 'search', path: fixed('/search') },
  { name: 'search results', path: (ids) => `/search/${enc(ids.searchWord)}`, main: true },
  { name: 'feeds', path: fixed('/feeds') },
  { name: 'feed query', path: (ids) => `/feeds/${enc(`kind:1 ${ids.searchWord}`)}` },
  { name: 'notifications', path: fixed('/notifications'), main: true },
  { name: 'downloads', path: fixed('/downloads') },
  { name: 'download redirect', path: fixed('/download') },
  { name: 'settings', path: fixed('/settings'), main: true },
  ...SETTINGS_PAGES.map((page) => ({ name: `settings ${page}`, path: fixed(`/settings/${page}`) })),
  { name: 'bookmarks', path: fixed('/bookmarks') },
  { name: 'profile', path: (ids) => `/profile/${ids.npub}`, main: true },
  { name: 'profile /p', path: (ids) => `/p/${ids.npub}` },
  { name: 'profile by nprofile', path: (ids) => `/p/${ids.nprofile}` },
  { name: 'help', path: fixed('/help'), main: true },
  { name: 'mute list', path: (ids) => `/mutelist/${ids.npub}` },
  { name: 'new account', path: fixed('/new') },
  { name: 'premium', path: fixed('/premium') },
  { name: 'premiums', path: fixed('/premiums') },
  { name: 'legends', path: fixed('/legends') },
  { name: 'app download QR', path: fixed('/app-download-qr') },
  { name: 'terms', path: fixed('/terms') },
  { name: 'CSAE policy', path: fixed('/csae-policy') },
  { name: 'privacy', path: fixed('/privacy') },
  { name: 'support', path: fixed('/support') },
  { name: '404', path: fixed('/404') },
  { name: 'unknown path', path: fixed('/nincs/ilyen/oldal') },
  { name: 'vanity profile', path: (ids) => `/${enc(ids.vanityName)}` },
  { name: 'vanity article', path: (ids) => `/${enc(ids.vanityName)}/${enc(ids.articleIdentifier)}` },
];

export const MAIN_ROUTES = ROUTES.filter((route) => route.main);

/** The route's real path on the server under test. */
export async function routePath(route: RouteCase): Promise<string> {
  return route.path(await demoIds());
}

/**
 * Console errors a page may print without being broken: a refused or failed network
 * request (an offline media host, a relay that is down) is the network's fault, and the
 * screen must show its own Hungarian error state for it instead.
 */
const NETWORK_REFUSAL = /Failed to load resource|net::ERR_|WebSocket connection to .* failed|ERR_CONNECTION_REFUSED|ERR_NAME_NOT_RESOLVED/;

/** Collects uncaught page errors and unexpected console errors from now on. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !NETWORK_REFUSAL.test(msg.text())) errors.push(`console: ${msg.text()}`);
  });
  return errors;
}

/** How long a screen may show a spinner or skeleton before it must have an answer. */
export const SETTLE_TIMEOUT = 15_000;

/** Waits until the page shows a heading and nothing is still loading (no aria-busy=true). */
export async function settle(page: Page): Promise<void> {
  await expect(page.locator('h1').first(), 'the page shows an h1').toBeVisible({ timeout: SETTLE_TIMEOUT });
  await expect(page.locator('[aria-busy="true"]'), 'nothing is still loading').toHaveCount(0, { timeout: SETTLE_TIMEOUT });
  // Screens that mark loading only visually: skeletons and spinners must give way to an answer too.
  const placeholders = page.locator('.feed-skeleton:visible, [class*="spinner"]:visible, [role="progressbar"]:visible');
  await expect(placeholders, 'no skeleton or spinner is left on screen').toHaveCount(0, { timeout: SETTLE_TIMEOUT });
}

/** Opens a route of the demo network in Hungarian and waits for it to settle. */
export async function visit(page: Page, route: RouteCase): Promise<string> {
  const path = await routePath(route);
  await page.goto(`${base()}${path}`);
  await settle(page);
  return path;
}
