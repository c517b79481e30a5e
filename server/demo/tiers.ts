/**
 * Paid tiers (NIP-88 kind 37001, listed by a kind-17000 tier list) of one demo creator, so the
 * author-subscribe modal has something to offer on a fresh install. Imported like any event.
 */
import type { ServerContext } from '../context.ts';
import { demoUser } from './accounts.ts';
import { demoSigner } from './sign.ts';

/** Demo user 2, a legend who writes a lot. */
export const TIER_CREATOR = 2;

const TIERS = [
  { d: 'tamogato', title: 'Támogató', content: 'Köszönöm, hogy olvasol! Havonta egy kávé ára.', sats: 2100, perks: ['Név szerinti köszönet havonta'] },
  { d: 'baratom', title: 'Barát', content: 'Elsőként olvasod az új cikkeimet.', sats: 10000, perks: ['Cikkek egy héttel korábban', 'Havi kérdezz-felelek'] },
];

export async function seedDemoTiers(ctx: ServerContext, now: number): Promise<void> {
  const sign = await demoSigner();
  const creator = demoUser(TIER_CREATOR);
  const tiers = TIERS.map((t, i) =>
    sign(
      {
        kind: 37001,
        created_at: now - 3600 + i,
        tags: [['d', t.d], ['title', t.title], ['amount', String(t.sats * 1000), 'msats', 'monthly'], ...t.perks.map((p) => ['perk', p])],
        content: t.content,
      },
      creator.secretKey,
    ),
  );
  const list = sign(
    { kind: 17000, created_at: now - 3500, tags: tiers.map((_, i) => ['a', `37001:${creator.pubkey}:${TIERS[i].d}`]), content: '' },
    creator.secretKey,
  );
  await ctx.importer.importEvents([...tiers, list], 'demo');
}
