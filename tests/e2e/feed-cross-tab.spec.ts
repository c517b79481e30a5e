/**
 * One worker decides what every tab's feeds show (worker/feedView.ts): a note or reply written in one
 * tab appears at once in the other tabs of the same browser — the own profile, the "Legújabb" home
 * feed and the thread it answers — marked "Függőben" until a relay accepts it, then as a normal card;
 * a publish every relay refuses takes it away again. The only write relay is a test relay that holds
 * each EVENT until the test answers it, so the pending state is seen for sure, without waiting.
 */
import { expect, test, type Page } from '@playwright/test';
import { neventEncode } from 'nostr-tools/nip19';
import { demoUser } from '../../server/demo/accounts.ts';
import type { RelayInfo } from '../../core/types.ts';
import type { StruccDevtools } from '../../src/lib/devtools.ts';
import { startSlowRelay } from '../support/peer-relay.ts';
import { type Driven, openApp, queryRelay, signIn } from './support/session.ts';
import { toast } from './support/toast.ts';

/** Demo user 31 writes here and nowhere else; demo user 2's note is the one replied to. */
const ME = demoUser(31);
const OTHER = demoUser(2);

const composer = (page: Page) => page.getByRole('dialog', { name: 'Új bejegyzés' });

/** Makes `url` the account's only relay and waits until the worker is connected to it. */
async function onlyRelay(page: Page, url: string): Promise<void> {
  await page.evaluate(async (only) => {
    const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
    // The account's relay list settles after sign-in (a connected relay); one removed before would come back with it.
    const current = await new Promise<RelayInfo[]>(
      (resolve) => void api.watchRelays(tabId, proxy((list: RelayInfo[]) => list.some((r) => r.state === 'connected') && resolve(list))),
    );
    for (const r of current) await api.removeRelay(r.url);
    const added = await api.addRelay(only, { read: true, write: true });
    if (!added.ok) throw new Error(`addRelay failed: ${added.error}`);
    await new Promise<void>((resolve) => {
      void api.watchRelays(
        tabId,
        proxy((list: RelayInfo[]) => {
          if (list.some((r) => r.url === added.url && r.state === 'connected') && list.every((r) => r.url === added.url || !r.write)) resolve();
        }),
      );
    });
  }, url);
}

test('a note and a reply written in one tab show at once in the other tabs, pending until a relay accepts them', async ({ context }) => {
  const relay = await startSlowRelay();
  /** The id of the kind-1 EVENT with this content, once the held relay has it. */
  const heldId = async (content: string): Promise<string> => {
    let id: string | undefined;
    await expect
      .poll(() => {
        const frame = relay.received.find((f) => f[0] === 'EVENT' && (f[1] as { content?: string }).content === content);
        id = (frame?.[1] as { id?: string } | undefined)?.id;
        return id !== undefined;
      })
      .toBe(true);
    return id!;
  };
  try {
    const [target] = await queryRelay({ kinds: [1], authors: [OTHER.pubkey], limit: 1 });
    expect(target.pubkey).toBe(OTHER.pubkey);
    const threadPath = `/e/${neventEncode({ id: target.id, author: OTHER.pubkey })}`;

    const { page: writer } = await signIn(context, ME.secretKey, '/home');
    await onlyRelay(writer, relay.url);

    // Three more tabs of the same browser, so the same SharedWorker: the own profile, Legújabb, the thread.
    const profile = await context.newPage();
    await openApp(profile, '/p');
    await expect(profile.locator('.profile-header')).toBeVisible();
    const home = await context.newPage();
    await openApp(home, '/home');
    await expect(home.getByRole('button', { name: 'Legújabb' })).toHaveAttribute('aria-pressed', 'true');
    const thread = await context.newPage();
    await openApp(thread, threadPath);
    await expect(thread.locator('.thread-focus')).toHaveAttribute('data-focused-note', target.id);

    // A note from the composer: pending in the other tabs before any relay has said yes.
    const text = `Két lapon egyszerre ${Date.now()}`;
    await writer.locator('.side-nav [data-new-note]').click();
    await composer(writer).getByRole('textbox', { name: 'A bejegyzés szövege' }).fill(text);
    await composer(writer).getByRole('button', { name: 'Közzététel' }).click();
    const noteId = await heldId(text);
    for (const tab of [profile, home]) {
      const card = tab.locator(`[data-note-id="${noteId}"]`);
      await expect(card).toContainText(text);
      await expect(card.locator('.note-pending-mark')).toHaveText('Függőben');
    }
    // Confirmed: the same card, no longer marked, on top of the feed.
    expect(relay.answer(noteId, true)).toBe(true);
    await expect(toast(writer, 'Bejegyzés sikeresen közzétéve')).toBeVisible();
    for (const tab of [profile, home]) {
      const card = tab.locator(`[data-note-id="${noteId}"]`);
      await expect(card.locator('.note-pending-mark')).toHaveCount(0);
      await expect(card).toContainText(text);
      await expect(card).toHaveCount(1);
    }
    await expect(home.locator('[data-note-id]').first()).toHaveAttribute('data-note-id', noteId);

    // A reply from the thread page's inline form: at once in the other tab open on that thread.
    await writer.goto(`${new URL(writer.url()).origin}${threadPath}`);
    await writer.getByRole('button', { name: 'Válasz írása erre a bejegyzésre' }).click();
    const replyText = `Válasz egy másik lapról ${Date.now()}`;
    const form = writer.getByRole('region', { name: 'Válasz írása erre a bejegyzésre' });
    await form.getByRole('textbox', { name: 'A bejegyzés szövege' }).fill(replyText);
    await form.getByRole('textbox', { name: 'A bejegyzés szövege' }).press('Control+Enter');
    const replyId = await heldId(replyText);
    const reply = thread.locator(`.thread-replies [data-note-id="${replyId}"]`);
    await expect(reply).toContainText(replyText);
    await expect(reply.locator('.note-pending-mark')).toHaveText('Függőben');
    // A reply is not a note of the own profile's notes tab, nor of Legújabb.
    await expect(profile.locator(`[data-note-id="${replyId}"]`)).toHaveCount(0);
    await expect(home.locator(`[data-note-id="${replyId}"]`)).toHaveCount(0);
    expect(relay.answer(replyId, true)).toBe(true);
    await expect(reply.locator('.note-pending-mark')).toHaveCount(0);
    await expect(reply).toContainText(replyText);

    // Every relay refuses the next one: it leaves the other tabs, and the writer hears why.
    await writer.locator('.side-nav [data-new-note]').click();
    const refused = `Ezt a relé visszautasítja ${Date.now()}`;
    await composer(writer).getByRole('textbox', { name: 'A bejegyzés szövege' }).fill(refused);
    await composer(writer).getByRole('button', { name: 'Közzététel' }).click();
    const refusedId = await heldId(refused);
    await expect(home.locator(`[data-note-id="${refusedId}"] .note-pending-mark`)).toHaveText('Függőben');
    expect(relay.answer(refusedId, false, 'blocked: próba')).toBe(true);
    await expect(toast(writer, 'Nem sikerült közzétenni a bejegyzést')).toBeVisible();
    await expect(home.locator(`[data-note-id="${refusedId}"]`)).toHaveCount(0);
    await expect(profile.locator(`[data-note-id="${refusedId}"]`)).toHaveCount(0);
    // The accepted note stays.
    await expect(profile.locator(`[data-note-id="${noteId}"]`)).toHaveCount(1);
  } finally {
    await relay.close();
  }
});
