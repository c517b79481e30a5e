import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { finalizeEvent, type Event } from 'nostr-tools/pure';
import { neventEncode, npubEncode } from 'nostr-tools/nip19';
import { demoUser } from '../../server/demo/accounts.ts';
import { encodeBolt11 } from '../../server/demo/bolt11.ts';
import { publishAccepted, queryRelay } from './support/session.ts';
import { base } from './support/base.ts';


async function cacheApi(command: string, kwargs: Record<string, unknown>): Promise<{ kind: number; content?: string }[]> {
  const res = await fetch(`${base()}/api`, { method: 'POST', body: JSON.stringify([command, kwargs]) });
  return (await res.json()) as { kind: number; content?: string }[];
}

function note(content: string, tags: string[][] = [], label = 3): Event {
  return finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags, content }, demoUser(label).secretKey);
}

async function openNote(page: Page, event: Event) {
  const card = page.locator(`article[data-note-id="${event.id}"]`);
  // The first thread view of a cold run can miss a note published a moment ago; a reload finds it.
  await expect(async () => {
    await page.goto(`${base()}/e/${neventEncode({ id: event.id, author: event.pubkey })}`);
    await expect(card).toBeVisible({ timeout: 15_000 });
  }).toPass({ timeout: 50_000 });
  return card;
}

/** A page with OpenGraph tags on a local port: what the server's link preview reads. */
let site: Server;
let siteUrl = '';
const SITE_TITLE = 'Strucc-tenyésztés a Kiskunságban';
const SITE_DESCRIPTION = 'Hogyan él egy strucc a magyar pusztán, és mit eszik télen?';

test.beforeAll(async () => {
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>x</title><meta property="og:title" content="${SITE_TITLE}">` +
        `<meta property="og:description" content="${SITE_DESCRIPTION}"></head><body>strucc</body></html>`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/cikk/strucc`;
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

test('a note shows its image, link preview, mention, quote, hashtags, player, invoice, ecash and emoji', async ({ page }) => {
  test.setTimeout(90_000);
  const mentioned = demoUser(2);
  const [profileEvent] = await queryRelay({ kinds: [0], authors: [mentioned.pubkey], limit: 1 });
  const profile = JSON.parse(profileEvent.content) as { name?: string; display_name?: string };
  const mentionedName = profile.display_name || profile.name || '';
  // A plain one-line note, so its text shows in the embed exactly as it was written.
  const quoted = (await queryRelay({ kinds: [1], authors: [demoUser(4).pubkey], limit: 50 })).find(
    (e) => !/nostr:|https?:\/\/|\n/.test(e.content) && e.content.trim().length >= 10,
  )!;
  expect(quoted, 'the demo network has a plain note to quote').toBeTruthy();

  const invoice = encodeBolt11({
    amountSats: 2100,
    timestamp: Math.floor(Date.now() / 1000),
    paymentHash: randomBytes(32),
    paymentSecret: randomBytes(32),
    descriptionHash: randomBytes(32),
    expirySeconds: 3600,
    nodeSecretKey: randomBytes(32),
  });
  const cashuJson = { token: [{ mint: 'https://mint.pelda.hu', proofs: [{ amount: 8 }, { amount: 2 }, { amount: 1 }] }], unit: 'sat' };
  const cashu = `cashuA${Buffer.from(JSON.stringify(cashuJson)).toString('base64url')}`;
  const npub = npubEncode(mentioned.pubkey);
  const quote = neventEncode({ id: quoted.id, author: quoted.pubkey });
  const event = note(
    [
      `Szia nostr:${npub}! Nézd ezt a képet :strucc:`,
      'https://media.strucc.test/img/3.svg',
      `Cikk: ${siteUrl}`,
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      `nostr:${quote}`,
      `Számla: ${invoice}`,
      cashu,
      '#strucc #madarak',
    ].join('\n'),
    [
      ['p', mentioned.pubkey],
      ['q', quoted.id],
      ['t', 'strucc'],
      ['t', 'madarak'],
      ['emoji', 'strucc', 'https://media.strucc.test/img/1.svg'],
    ],
  );
  await publishAccepted(event);

  const thirdParty: string[] = [];
  page.on('request', (req) => {
    const host = new URL(req.url()).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost') thirdParty.push(req.url());
  });
  const card = await openNote(page, event);
  const content = card.locator('.note-content').first();

  await expect(content.locator('.note-image img')).toHaveAttribute('src', /\/media-cache\?.*img%2F3\.svg/);
  await expect(content.locator('a.note-mention')).toHaveText(`@${mentionedName}`);
  await expect(content.locator('a.note-mention')).toHaveAttribute('href', `/p/${npub}`);
  await expect(content.locator('img.note-emoji')).toHaveAttribute('alt', ':strucc:');

  const preview = content.locator('a.link-preview');
  await expect(preview).toContainText(SITE_TITLE, { timeout: 15_000 });
  await expect(preview).toContainText(SITE_DESCRIPTION);
  await expect(preview).toContainText('127.0.0.1');
  await expect(preview).toHaveAttribute('target', '_blank');
  await expect(preview).toHaveAttribute('rel', /noopener/);

  const embedded = content.locator(`[data-embedded-note-id="${quoted.id}"]`);
  await expect(embedded).toContainText(quoted.content.slice(0, 30));

  await expect(content.locator('a.note-hashtag', { hasText: '#strucc' })).toHaveAttribute('href', '/search/%23strucc');
  await expect(content.locator('a.note-hashtag', { hasText: '#madarak' })).toBeVisible();

  const invoiceCard = content.locator('.note-card-invoice');
  await expect(invoiceCard).toContainText('Lightning-számla');
  await expect(invoiceCard).toContainText(/2\s?100 sat/);
  await expect(invoiceCard).toContainText('Lejár:');
  const cashuCard = content.locator('.note-card-cashu');
  await expect(cashuCard).toContainText('11 sat');
  await expect(cashuCard).toContainText('mint.pelda.hu');

  // The player loads nothing from YouTube until asked.
  const player = content.locator('.note-player-youtube');
  await expect(player.getByRole('button', { name: /Lejátszó betöltése: YouTube/ })).toBeVisible();
  await expect(player.locator('iframe')).toHaveCount(0);
  expect(thirdParty).toEqual([]);
  await player.getByRole('button').click();
  const frame = player.locator('iframe');
  await expect(frame).toHaveAttribute('src', /^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ/);
  await expect(frame).toHaveAttribute('sandbox', /allow-scripts/);
});

test('a hostile note renders as text and runs nothing', async ({ page }) => {
  const hostile = [
    '<script>window.__pwned = 1</script>',
    '<img src=x onerror="window.__pwned = 2">',
    '[kattints](javascript:window.__pwned=3) javascript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  ].join('\n');
  const event = note(hostile);
  await publishAccepted(event);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const card = await openNote(page, event);
  const content = card.locator('.note-content').first();
  await expect(content).toContainText('<script>window.__pwned = 1</script>');
  await expect(content).toContainText('<img src=x onerror="window.__pwned = 2">');
  await expect(content).toContainText('javascript:alert(1)');
  expect(await content.locator('script, img[src="x"], a[href^="javascript:"], a[href^="data:"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

interface Counts {
  reactions: number;
  likes: number;
  reposts: number;
  zaps: number;
  quotes: number;
}

/** A note's counts straight from the relay (and the quote count from the cache API). */
async function countsOf(id: string): Promise<Counts & { emoji?: string }> {
  // The server counts every reaction but a '-' (a dislike) as a like of the note.
  const onIt = (await queryRelay({ kinds: [7], '#e': [id], limit: 1000 })).filter((r) => r.content.trim() !== '-');
  const reposts = await queryRelay({ kinds: [6], '#e': [id], limit: 1000 });
  const zaps = await queryRelay({ kinds: [9735], '#e': [id], limit: 1000 });
  const [count] = await cacheApi('note_mentions_count', { event_id: id });
  return {
    reactions: onIt.length,
    likes: onIt.filter((r) => r.content === '+' || r.content === '').length,
    reposts: reposts.length,
    zaps: zaps.length,
    quotes: Number((JSON.parse(count?.content ?? '{}') as { count?: number }).count ?? 0),
    emoji: onIt.find((r) => r.content !== '+' && r.content !== '')?.content,
  };
}

/** The demo note with the most reactions. */
async function busiestNote(): Promise<Event> {
  const reactions = await queryRelay({ kinds: [7], limit: 5000 });
  const byTarget = new Map<string, number>();
  for (const r of reactions) {
    const target = r.tags.filter((t) => t[0] === 'e').at(-1)?.[1];
    if (target) byTarget.set(target, (byTarget.get(target) ?? 0) + 1);
  }
  for (const [id] of [...byTarget].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    const [target] = await queryRelay({ ids: [id], kinds: [1] });
    if (target) return target;
  }
  throw new Error('no demo note with reactions');
}

test('the reactions modal shows the right counts and lists for a demo note', async ({ page }) => {
  test.setTimeout(90_000);
  const target = await busiestNote();
  const before = await countsOf(target.id);
  const card = await openNote(page, target);
  await card.locator('.note-stat-likes button').first().click();

  const dialog = page.getByRole('dialog', { name: 'Reakciók' });
  await expect(dialog).toBeVisible();
  const tab = (name: string) => dialog.getByRole('tab', { name: new RegExp(`^${name}`) });
  await expect(tab('Reakciók')).toHaveAttribute('aria-selected', 'true');
  const names: [keyof Counts, string][] = [
    ['reactions', 'Reakciók'],
    ['likes', 'Kedvelések'],
    ['zaps', 'Zapok'],
    ['reposts', 'Megosztások'],
    ['quotes', 'Idézések'],
  ];
  for (const [, name] of names) await expect(tab(name).locator('.reactions-count')).toHaveText(/^\d+$/);
  // The demo network keeps living: a count may only have grown between the two relay reads.
  const after = await countsOf(target.id);
  for (const [key, name] of names) {
    const shown = Number(await tab(name).locator('.reactions-count').textContent());
    expect(shown, name).toBeGreaterThanOrEqual(before[key]);
    expect(shown, name).toBeLessThanOrEqual(after[key]);
  }
  expect(before.reactions).toBeGreaterThan(0);

  // A page is 20; the first page lists min(20, n) people.
  const rows = dialog.locator('.reaction-row');
  await expect(rows).toHaveCount(Math.min(20, before.reactions));
  if (before.emoji) await expect(dialog.locator('.reaction-emoji', { hasText: before.emoji }).first()).toBeVisible();

  await tab('Megosztások').click();
  if (before.reposts > 0) await expect(rows).toHaveCount(Math.min(20, before.reposts));
  else await expect(dialog.getByText('Ezt a bejegyzést még senki sem osztotta meg.')).toBeVisible();

  // Arrow keys move between tabs; Escape closes and gives focus back to the count.
  await tab('Megosztások').press('ArrowRight');
  await expect(tab('Idézések')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(card.locator('.note-stat-likes button').first()).toBeFocused();
});

test('phone layout: inline content stays inside the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const event = note(`Telefonon is jó? ${siteUrl}\nhttps://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC`);
  await publishAccepted(event);
  const card = await openNote(page, event);
  await expect(card.locator('a.link-preview')).toBeVisible({ timeout: 15_000 });
  const player = card.locator('.note-player-spotify');
  await expect(player).toHaveCSS('height', '352px');
  // The whole 352 px is inside the border, where the player's iframe goes.
  expect(await player.evaluate((el) => el.clientHeight)).toBe(352);
  const widths = await card.locator('.link-preview, .note-player').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right));
  for (const right of widths) expect(right).toBeLessThanOrEqual(390);
});
