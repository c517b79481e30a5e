/**
 * Spec (Avatar): a picture that fails to load is looked for on the author's other media servers
 * (their kind-10063 list, sent by the cache server with the profile) by HEAD request, then the
 * placeholder is drawn.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { neventEncode } from 'nostr-tools/nip19';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { enableDevMode } from './support/nip07-stub.ts';
import { baseUrl, openApp, publishAccepted } from './support/session.ts';

const now = () => Math.floor(Date.now() / 1000);
// A 1×1 PNG with a colour of its own per run, so the blob is new to the server each time.
function onePixelPng(): Buffer {
  const base = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC', 'base64');
  // Extra bytes after IEND are ignored by decoders but change the hash.
  return Buffer.concat([base, Buffer.from(String(Math.random()))]);
}

async function putBlob(png: Buffer, sk: Uint8Array): Promise<string> {
  const sha = createHash('sha256').update(png).digest('hex');
  const auth = finalizeEvent({ kind: 24242, created_at: now() - 1, content: 'Feltöltés', tags: [['t', 'upload'], ['x', sha], ['expiration', String(now() + 600)]] }, sk);
  const res = await fetch(`${baseUrl()}/upload`, {
    method: 'PUT',
    body: new Uint8Array(png),
    headers: { Authorization: `Nostr ${Buffer.from(JSON.stringify(auth)).toString('base64')}`, 'Content-Type': 'image/png' },
  });
  expect(res.status).toBe(200);
  return sha;
}

async function authorWithPicture(picture: (sha: string) => string, servers: string[]) {
  const sk = generateSecretKey();
  const pubkey = getPublicKey(sk);
  const sha = await putBlob(onePixelPng(), sk);
  await publishAccepted(finalizeEvent({ kind: 0, created_at: now() - 30, tags: [], content: JSON.stringify({ name: `kep_${pubkey.slice(0, 6)}`, picture: picture(sha) }) }, sk));
  if (servers.length > 0) await publishAccepted(finalizeEvent({ kind: 10063, created_at: now() - 30, tags: servers.map((s) => ['server', s]), content: '' }, sk));
  const note = finalizeEvent({ kind: 1, created_at: now() - 10, tags: [], content: `Profilkép próba ${pubkey.slice(0, 8)}` }, sk);
  await publishAccepted(note);
  return { sha, note };
}

test('a broken picture is found on the author’s other media server by HEAD request', async ({ page }) => {
  // The picture's own host is unreachable; the author's Blossom list names this server.
  const { sha, note } = await authorWithPicture((sha) => `http://127.0.0.1:9/${sha}.png`, ['http://127.0.0.1:9/dead', baseUrl()]);
  await enableDevMode(page.context());
  const heads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'HEAD') heads.push(r.url());
  });
  await openApp(page, `/e/${neventEncode({ id: note.id, author: note.pubkey })}`);
  const avatar = page.locator(`article[data-note-id="${note.id}"] img.avatar`).first();
  await expect(avatar).toHaveAttribute('src', `${baseUrl()}/${sha}.png`, { timeout: 20_000 });
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  expect(heads).toContain(`${baseUrl()}/${sha}.png`);
});

test('without a server that has the file, the placeholder is drawn', async ({ page }) => {
  const { note } = await authorWithPicture((sha) => `http://127.0.0.1:9/${sha}.png`, ['http://127.0.0.1:9/dead']);
  await enableDevMode(page.context());
  await openApp(page, `/e/${neventEncode({ id: note.id, author: note.pubkey })}`);
  const card = page.locator(`article[data-note-id="${note.id}"]`).first();
  await expect(card.locator('svg.avatar-generated').first()).toBeVisible({ timeout: 20_000 });
  await expect(card.locator('img.avatar')).toHaveCount(0);
});
