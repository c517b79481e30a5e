/**
 * Memberships of the demo network: a few legends with different looks and some premium members,
 * each with paid orders and a few stored files, so the leaderboards, the legend looks and the
 * premium tools have something to show on a fresh install. The demo login account (user 1) is
 * left out on purpose: a visitor signed in with it can buy a membership.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import type { ServerContext } from '../context.ts';
import { blobDir, blobPath } from '../upload/blobs.ts';
import { addMonths, PRODUCTS, usdCentsToSats } from '../membership/products.ts';
import { membershipConfig } from '../membership/config.ts';
import { replaceableOf } from '../cache/data.ts';
import { demoUser } from './accounts.ts';

const DAY = 24 * 3600;
/** Users 2–5 are legends (one style each), 6–11 premium; smaller networks get what exists. */
const LEGENDS: { user: number; style: string; donatedSats: number; glow: boolean; badge: boolean }[] = [
  { user: 2, style: 'GOLD', donatedSats: 1_200_000, glow: true, badge: true },
  { user: 3, style: 'AQUA', donatedSats: 650_000, glow: true, badge: true },
  { user: 4, style: 'PURPLEHAZE', donatedSats: 420_000, glow: true, badge: false },
  { user: 5, style: 'SUNFIRE', donatedSats: 300_000, glow: false, badge: true },
];
const PREMIUM_USERS = [6, 7, 8, 9, 10, 11];

/** The local part of the profile's NIP-05 on our domain, which the demo generator gives everyone. */
function nameOf(content: string, domain: string): string | null {
  try {
    const nip05 = (JSON.parse(content) as { nip05?: unknown }).nip05;
    if (typeof nip05 !== 'string') return null;
    const [local, host] = nip05.toLowerCase().split('@');
    return host === domain.toLowerCase() && /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/.test(local) && local.length >= 3 ? local : null;
  } catch {
    return null;
  }
}

/** A small picture, different for each member and index, stored as a real blob. */
function demoPicture(seed: string, i: number): Buffer {
  const hue = (parseInt(seed.slice(0, 4), 16) + i * 47) % 360;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">` +
      `<rect width="400" height="300" fill="hsl(${hue},60%,55%)"/><circle cx="${120 + i * 40}" cy="150" r="70" fill="hsl(${(hue + 180) % 360},70%,70%)"/></svg>`,
  );
}

async function addOrder(ctx: ServerContext, pubkey: string, productId: string, cents: number, paidAt: number, n: number): Promise<void> {
  const sats = usdCentsToSats(cents, membershipConfig(ctx).exchangeRates);
  await ctx.db.run(
    `INSERT INTO membership_quotes (id, payer, receiver, product_id, name, amount_sats, amount_usd_cents, invoice, status, created_at, expires_at, paid_at)
     VALUES (?, ?, ?, ?, NULL, ?, ?, '', 'paid', ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    [`demo-${pubkey.slice(0, 16)}-${n}`, pubkey, pubkey, productId, sats, cents, paidAt - 60, paidAt + 540, paidAt],
  );
}

async function addMedia(ctx: ServerContext, pubkey: string, count: number, now: number): Promise<void> {
  await mkdir(blobDir(ctx), { recursive: true });
  for (let i = 0; i < count; i++) {
    const body = demoPicture(pubkey, i);
    const sha256 = createHash('sha256').update(body).digest('hex');
    await writeFile(blobPath(ctx, sha256), body);
    await ctx.db.run('INSERT INTO blobs (sha256, size, type, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING', [
      sha256,
      body.length,
      'image/svg+xml',
      now - i * DAY,
    ]);
    await ctx.db.run('INSERT INTO blob_owners (sha256, pubkey, uploaded) VALUES (?, ?, ?) ON CONFLICT (sha256, pubkey) DO NOTHING', [sha256, pubkey, now - i * DAY]);
  }
}

export async function seedDemoMemberships(ctx: ServerContext, now: number): Promise<void> {
  const users = [...LEGENDS.map((l) => l.user), ...PREMIUM_USERS];
  const accounts = new Map(users.map((i) => [i, demoUser(i).pubkey]));
  const profiles = await replaceableOf(ctx.db, 0, accounts.values());
  const domain = ctx.config.nip05Domain;
  const premium3 = PRODUCTS.get('3-months-premium')?.priceUsdCents ?? 2100;
  const premium12 = PRODUCTS.get('12-months-premium')?.priceUsdCents ?? 7200;
  for (const [order, i] of users.entries()) {
    const pubkey = accounts.get(i) as string;
    const profile = profiles.get(pubkey);
    if (!profile) continue;
    const name = nameOf(profile.content, domain);
    const legend = LEGENDS.find((l) => l.user === i);
    const premiumSince = now - (200 - order * 15) * DAY;
    const legendSince = legend ? premiumSince + 30 * DAY : null;
    const expiresOn = legend ? null : addMonths(now, order % 2 === 0 ? 3 : 11);
    await ctx.db.run(
      `INSERT INTO memberships (pubkey, tier, name, premium_since, legend_since, expires_on, donated_sats, last_donation)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (pubkey) DO NOTHING`,
      [pubkey, legend ? 'premium-legend' : 'premium', name, premiumSince, legendSince, expiresOn, legend?.donatedSats ?? 0, legendSince],
    );
    await addOrder(ctx, pubkey, '12-months-premium', premium12, premiumSince, 1);
    if (!legend) await addOrder(ctx, pubkey, '3-months-premium', premium3, now - 20 * DAY, 2);
    if (legend && legendSince) {
      await addOrder(ctx, pubkey, 'legend-premium', Math.round((legend.donatedSats / 1e8) * (membershipConfig(ctx).exchangeRates.USD ?? 100_000) * 100), legendSince, 2);
      await ctx.db.run(
        `INSERT INTO membership_legend_customization (pubkey, style, custom_badge, avatar_glow, in_leaderboard, current_shoutout, updated_at)
         VALUES (?, ?, ?, ?, 1, '', ?) ON CONFLICT (pubkey) DO NOTHING`,
        [pubkey, legend.style, legend.badge ? 1 : 0, legend.glow ? 1 : 0, now],
      );
    }
    // A server without a data directory (in-memory tests) has nowhere to keep files.
    if (ctx.config.dataDir) await addMedia(ctx, pubkey, 3 + (order % 3), now);
  }
}
