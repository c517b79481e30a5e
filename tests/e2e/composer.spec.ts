/**
 * Writing notes end to end, signed in with a fresh key through the NIP-07 stub: the composer modal
 * (hashtag, @mention from the autocomplete, publish, the kind 1 read back from the server's relay,
 * the note in a second tab), the thread page's inline reply (NIP-10 markers), drafts across a
 * reload and the draft-save question, media upload with progress and cancel, and the §8 toasts.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { neventEncode, npubEncode } from 'nostr-tools/nip19';
import { finalizeEvent, generateSecretKey, getPublicKey, type Event } from 'nostr-tools/pure';
import { demoUser } from '../../server/demo/accounts.ts';
import { displayName, parseProfile } from '../../core/profile.ts';
import type { AccountSnapshot, RelayInfo } from '../../core/types.ts';
import type { StruccDevtools } from '../../src/lib/devtools.ts';
import { type Driven, latestEvent, openApp, publishAccepted, queryRelay, relayUrl, signIn } from './support/session.ts';
import { toast } from './support/toast.ts';

/** Demo user 23 is only mentioned here, never signed in as. */
const MENTIONED = demoUser(23);
const now = () => Math.floor(Date.now() / 1000);

const composer = (page: Page) => page.getByRole('dialog', { name: /Új bejegyzés|Válasz|Idézés/ });
const textArea = (scope: Locator) => scope.getByRole('textbox', { name: 'A bejegyzés szövege' });

async function openComposer(page: Page) {
  await page.locator('.side-nav [data-new-note]').click();
  await expect(composer(page)).toBeVisible();
  return composer(page);
}

/** Resolves once the worker's account record holds `text` as the draft under `parent`. */
async function waitForDraft(page: Page, text: string | undefined, parent = 'root'): Promise<void> {
  await page.evaluate(
    ({ text, parent }) =>
      new Promise<void>((resolve) => {
        const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
        void api.watchAccount(
          tabId,
          proxy((s: AccountSnapshot) => {
            if (s.account?.noteDraft[parent] === text) resolve();
          }),
        );
      }),
    { text, parent },
  );
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A valid greyscale PNG of random pixels; random rows do not compress, so the side sets the size. */
function generatedPng(side = 3): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([head, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8;
  const rows = Buffer.concat(Array.from({ length: side }, () => Buffer.from([0, ...Array.from({ length: side }, () => Math.floor(Math.random() * 256))])));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

test('a note with a hashtag and a mention from the autocomplete is published, tagged and shown in a second tab', async ({ context }) => {
  const key = generateSecretKey();
  const me = getPublicKey(key);
  const [meta] = await queryRelay({ kinds: [0], authors: [MENTIONED.pubkey], limit: 1 });
  const profile = parseProfile(meta);
  const handle = profile.name.replace(/\s.*$/, '');
  expect(handle.length).toBeGreaterThan(1);

  const { page } = await signIn(context, key);
  const since = now() - 5;
  const dialog = await openComposer(page);
  const text = textArea(dialog);
  await expect(text).toBeFocused();
  await text.pressSequentially('Helló #Strucc, ');
  await text.pressSequentially(`@${handle}`);

  const option = dialog.locator(`[role="option"][data-pubkey="${MENTIONED.pubkey}"]`);
  await expect(option).toBeVisible();
  await expect(option).toContainText(displayName(profile));
  const options = dialog.getByRole('option');
  expect(await options.count()).toBeLessThanOrEqual(10);
  // Walk the list with the keyboard to the person and choose with Enter.
  const index = await options.evaluateAll((els, pk) => els.findIndex((e) => e.getAttribute('data-pubkey') === pk), MENTIONED.pubkey);
  for (let i = 0; i < index; i++) await text.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await text.press('Enter');
  const npub = npubEncode(MENTIONED.pubkey);
  await expect(text).toHaveValue(`Helló #Strucc, nostr:${npub} `);
  await expect(dialog.getByRole('listbox')).toHaveCount(0);

  await text.pressSequentially('szia!');
  await expect(dialog.getByText(`${'Helló #Strucc, '.length + 'nostr:'.length + npub.length + ' szia!'.length} karakter`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Közzététel' }).click();
  await expect(toast(page, 'Bejegyzés sikeresen közzétéve')).toHaveText('Bejegyzés sikeresen közzétéve');
  await expect(composer(page)).toHaveCount(0);

  const note = await latestEvent(me, 1, since);
  expect(note.content).toBe(`Helló #Strucc, nostr:${npub} szia!`);
  expect(note.tags).toContainEqual(['t', 'strucc']);
  expect(note.tags).toContainEqual(['p', MENTIONED.pubkey, '', 'mention']);

  // The same worker, another tab: the note's own page shows it.
  const second = await context.newPage();
  await openApp(second, `/e/${neventEncode({ id: note.id, author: me })}`);
  await expect(second.locator('.thread-focus')).toHaveAttribute('data-focused-note', note.id);
  await expect(second.locator('.thread-focus .note-content')).toContainText('Helló');
});

test("the thread page's inline reply carries the root and reply markers and the author's p tag", async ({ context }) => {
  const other = generateSecretKey();
  const otherPk = getPublicKey(other);
  const root = finalizeEvent({ kind: 1, created_at: now() - 60, tags: [], content: 'Gyökér bejegyzés a választeszthez' }, other);
  await publishAccepted(root);
  const parent = finalizeEvent(
    { kind: 1, created_at: now() - 30, tags: [['e', root.id, '', 'root', otherPk], ['p', otherPk]], content: 'Köztes válasz a gyökérre' },
    other,
  );
  await publishAccepted(parent);

  const key = generateSecretKey();
  const me = getPublicKey(key);
  const { page } = await signIn(context, key, `/e/${neventEncode({ id: parent.id, author: otherPk })}`);
  await expect(page.locator('.thread-focus')).toHaveAttribute('data-focused-note', parent.id);
  const since = now() - 5;

  await page.getByRole('button', { name: 'Válasz írása erre a bejegyzésre' }).click();
  const form = page.getByRole('region', { name: 'Válasz írása erre a bejegyzésre' });
  const text = textArea(form);
  await expect(text).toBeFocused();
  await text.fill('Egyetértek, jó gondolat');
  await text.press('Control+Enter');
  await expect(toast(page, 'Bejegyzés sikeresen közzétéve')).toBeVisible();

  const reply = await latestEvent(me, 1, since);
  expect(reply.content).toBe('Egyetértek, jó gondolat');
  // Relay hints (index 2) depend on where the cache saw the notes; ids, markers and pubkeys do not.
  const eTags = reply.tags.filter((t) => t[0] === 'e');
  expect(eTags.map((t) => [t[1], t[3], t[4]])).toEqual([
    [root.id, 'root', otherPk],
    [parent.id, 'reply', otherPk],
  ]);
  expect(reply.tags.filter((t) => t[0] === 'p').map((t) => t[1])).toEqual([otherPk]);
  // The form folds back and the reply joins the thread.
  await expect(page.getByRole('button', { name: 'Válasz írása erre a bejegyzésre' })).toBeVisible();
  await expect(page.locator(`.thread-replies [data-note-id="${reply.id}"]`)).toBeVisible();
});

test('a draft survives a reload; closing with text asks to save, discard or go back', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey());
  let dialog = await openComposer(page);
  await textArea(dialog).fill('Félkész gondolat a piszkozatba');
  await waitForDraft(page, 'Félkész gondolat a piszkozatba');

  await page.reload();
  await page.waitForFunction(() => window.strucc !== undefined);
  dialog = await openComposer(page);
  await expect(textArea(dialog)).toHaveValue('Félkész gondolat a piszkozatba');

  // Escape with text: the question, and "Mégse" goes back to the text.
  await page.keyboard.press('Escape');
  const ask = page.getByRole('dialog', { name: 'Menti a piszkozatot?' });
  await expect(ask).toBeVisible();
  for (const name of ['Mentés', 'Elvetés', 'Mégse']) await expect(ask.getByRole('button', { name, exact: true })).toBeVisible();
  await ask.getByRole('button', { name: 'Mégse' }).click();
  await expect(ask).toHaveCount(0);
  await expect(textArea(dialog)).toHaveValue('Félkész gondolat a piszkozatba');

  // "Mentés" keeps it for the next time.
  await textArea(dialog).fill('Második változat');
  await dialog.getByRole('button', { name: 'Bezárás' }).click();
  await ask.getByRole('button', { name: 'Mentés' }).click();
  await expect(composer(page)).toHaveCount(0);
  dialog = await openComposer(page);
  await expect(textArea(dialog)).toHaveValue('Második változat');

  // "Elvetés" forgets it.
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Elvetés' }).click();
  await expect(composer(page)).toHaveCount(0);
  await waitForDraft(page, undefined);
  dialog = await openComposer(page);
  await expect(textArea(dialog)).toHaveValue('');
  // An empty form closes without asking.
  await page.keyboard.press('Escape');
  await expect(composer(page)).toHaveCount(0);
  await expect(ask).toHaveCount(0);
});

test('an uploaded PNG goes up in signed chunks with progress and lands in the text; cancel stops one; a text file is refused', async ({ context }) => {
  const { page, stub } = await signIn(context, generateSecretKey());
  const dialog = await openComposer(page);
  await textArea(dialog).fill('Nézd ezt:');
  const file = dialog.locator('input[type="file"][data-composer-file]');

  // Hold the upload socket's frames so the progress row can be seen, then let them through.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let heldSince: number | undefined;
  await page.routeWebSocket(/\/upload$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage(async (message) => {
      heldSince ??= Date.now();
      await held;
      server.send(message);
    });
  });
  const png = generatedPng(1100);
  expect(png.length).toBeGreaterThan(2 * 512 * 1024);
  await file.setInputFiles({ name: 'kep.png', mimeType: 'image/png', buffer: png });
  const row = dialog.locator('[data-upload="kep.png"]');
  const bar = row.getByRole('progressbar', { name: /kep\.png feltöltése, \d+%/ });
  await expect(bar).toBeVisible();
  await expect(row.getByRole('button', { name: 'Feltöltés megszakítása: kep.png' })).toBeVisible();
  // While the first chunk waits for its answer the bar moves by the expected chunk time, short of done.
  const percent = async () => Number(/(\d+)%/.exec((await bar.getAttribute('aria-label')) ?? '')?.[1] ?? -1);
  await expect.poll(percent).toBeGreaterThan(0);
  // Held beyond its expected 250 ms, it creeps to 90% of the first step and stops there, short of the
  // step's end (3 chunks of 250 + 100 ms expected: 0.9 × 250 / 850 = 26%); uploadTime.test.ts proves it stays.
  await expect.poll(percent).toBe(26);
  // A slow network, not a wait for nothing: the first chunk's answer comes 1.5 s after it was sent, so the
  // time the account learns for this size class (checked at the end) is well above the expected 250 ms.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, (heldSince ?? Date.now()) + 1500 - Date.now())));
  release();
  await expect(row).toHaveCount(0, { timeout: 20_000 });
  await expect(textArea(dialog)).toHaveValue(/^Nézd ezt:\nhttps?:\/\/\S+$/);
  const url = (await textArea(dialog).inputValue()).split('\n')[1];
  await expect(dialog.getByRole('list', { name: 'Csatolt média' }).locator(`img[src="${url}"]`)).toBeVisible();

  // Spec §4: signed kind-10000135 chunks at their offsets, then the total length and the sha256.
  const uploads = stub.signed.filter((e) => e.kind === 10000135).map((e) => JSON.parse(e.content) as Record<string, unknown>);
  const chunks = uploads.filter((c) => typeof c.data === 'string');
  expect(chunks.map((c) => c.offset)).toEqual([0, 524288, 1048576]);
  expect(chunks.every((c) => c.file_length === png.length && String(c.data).startsWith('data:image/png;base64,'))).toBe(true);
  const sha256 = createHash('sha256').update(png).digest('hex');
  expect(uploads.at(-1)).toEqual({ upload_id: chunks[0].upload_id, file_length: png.length, sha256 });
  expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(png)).toBe(true);
  await page.unrouteAll();

  // A second upload cancelled on its way leaves the text as it was and tells the server.
  let releaseSecond: () => void = () => undefined;
  const heldSecond = new Promise<void>((resolve) => (releaseSecond = resolve));
  const sentOnSocket: string[] = [];
  await page.routeWebSocket(/\/upload$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage(async (message) => {
      sentOnSocket.push(String(message));
      await heldSecond;
      server.send(message);
    });
  });
  const chunkCount = () => stub.signed.filter((e) => e.kind === 10000135 && e.content.includes('"data"')).length;
  await file.setInputFiles({ name: 'masik.png', mimeType: 'image/png', buffer: generatedPng(800) });
  await expect.poll(chunkCount).toBe(4);
  await dialog.getByRole('button', { name: 'Feltöltés megszakítása: masik.png' }).click();
  await expect(dialog.locator('[data-upload="masik.png"]')).toHaveCount(0);
  releaseSecond();
  await expect(textArea(dialog)).toHaveValue(`Nézd ezt:\n${url}`);
  // The cancel goes out on the upload's own socket before it closes: an upload_chunk naming only the upload.
  const contentOf = (frame: string) => JSON.parse((JSON.parse(frame) as [string, string, { cache: [string, { event_from_user: Event }] }])[2].cache[1].event_from_user.content) as Record<string, unknown>;
  await expect.poll(() => sentOnSocket.map(contentOf).at(-1)).toEqual({ upload_id: expect.any(String) });
  expect(sentOnSocket.map(contentOf)[0]).toMatchObject({ offset: 0 });
  await page.unrouteAll();

  await file.setInputFiles({ name: 'jegyzet.txt', mimeType: 'text/plain', buffer: Buffer.from('nem kép') });
  await expect(toast(page, 'Nem támogatott fájltípus')).toBeVisible();
  await expect(textArea(dialog)).toHaveValue(`Nézd ezt:\n${url}`);

  // The finished upload's times are kept in the account record (uploadTime) for the next one of its size class.
  const uploadTime = await page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve) => {
        const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
        void api.watchAccount(
          tabId,
          proxy((s: AccountSnapshot) => {
            if (s.account && s.account.uploadTime.medium !== 250) resolve(s.account.uploadTime);
          }),
        );
      }),
  );
  // The first chunk alone was held 1.5 s: the medium class's time moves halfway from 250 ms towards the measured mean.
  expect(uploadTime.medium).toBeGreaterThan(300);
  expect(uploadTime).toMatchObject({ small: 250, large: 250, huge: 250 });
});

test('a cache server without the upload socket gets the file through Blossom instead', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey());
  const dialog = await openComposer(page);
  // Another implementation's socket: it knows no upload commands.
  await page.routeWebSocket(/\/upload$/, (ws) => {
    ws.onMessage((message) => {
      const subid = (JSON.parse(String(message)) as string[])[1];
      ws.send(JSON.stringify(['NOTICE', subid, 'unknown api request']));
    });
  });
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith('/upload')) puts.push(r.headers().authorization ?? '');
  });
  await dialog.locator('input[type="file"][data-composer-file]').setInputFiles({ name: 'tartalek.png', mimeType: 'image/png', buffer: generatedPng() });
  await expect(textArea(dialog)).toHaveValue(/^https?:\/\/\S+$/);
  expect(puts).toHaveLength(1);
  expect(puts[0]).toMatch(/^Nostr /);
  await page.unrouteAll();
});

test('the emoji panel inserts at the caret and lists what was used under "Legutóbb használt"', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey());
  const dialog = await openComposer(page);
  const text = textArea(dialog);
  await text.fill('Jó reggelt  kávé');
  // The caret between the two spaces.
  await text.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(11, 11));
  await dialog.getByRole('button', { name: 'Emodzsi beszúrása' }).click();
  const panel = dialog.getByRole('dialog', { name: 'Emodzsik' });
  await expect(panel.getByRole('region', { name: 'Arcok' })).toBeVisible();
  await expect(panel.getByRole('region', { name: 'Legutóbb használt' })).toHaveCount(0);
  await panel.getByRole('region', { name: 'Étel és ital' }).getByRole('button', { name: '☕' }).click();
  await expect(panel).toHaveCount(0);
  await expect(text).toHaveValue('Jó reggelt ☕ kávé');

  await dialog.getByRole('button', { name: 'Emodzsi beszúrása' }).click();
  await expect(panel.getByRole('region', { name: 'Legutóbb használt' }).getByRole('button')).toHaveText(['☕']);
  // Escape closes the panel only; the composer stays open.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(composer(page)).toBeVisible();
});

test('with no relay connected publishing says so and keeps the text and the draft', async ({ context }) => {
  const { page } = await signIn(context, generateSecretKey());
  await page.evaluate(async (relay) => {
    const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
    const until = (ok: (list: RelayInfo[]) => boolean) =>
      new Promise<void>((resolve) => void api.watchRelays(tabId, proxy((list: RelayInfo[]) => ok(list) && resolve())));
    // The account's relay list settles after sign-in; a relay removed before that would come back with it.
    await until((list) => list.some((r) => r.url === relay && r.state === 'connected'));
    await api.removeRelay(relay);
    await until((list) => !list.some((r) => r.url === relay));
  }, relayUrl());
  const dialog = await openComposer(page);
  await textArea(dialog).fill('Ez most nem megy ki');
  await dialog.getByRole('button', { name: 'Közzététel' }).click();
  await expect(toast(page, 'Nincs kapcsolódó relé, próbáld újra egy kicsit később')).toBeVisible();
  await expect(composer(page)).toBeVisible();
  await expect(textArea(dialog)).toHaveValue('Ez most nem megy ki');
  await waitForDraft(page, 'Ez most nem megy ki');
});
