/**
 * Premium names (spec §5): at least 3 characters, plain ASCII so they work as NIP-05 names and
 * lightning addresses on our domain, unique among members and among the NIP-05 names that
 * profiles already claim on our domain.
 */
import { CommandError } from '../cache/args.ts';
import type { ServerContext } from '../context.ts';

export const NAME_MIN = 3;
export const NAME_MAX = 32;
export const NAME_TOO_SHORT = 'A névnek legalább 3 karakter hosszúnak kell lennie.';
export const NAME_TOO_LONG = `A név legfeljebb ${NAME_MAX} karakter hosszú lehet.`;
export const NAME_BAD_CHARS = 'Ékezetek, szóközök, speciális karakterek nem használhatók a felhasználónévben.';

/** NIP-05 local parts: a-z, digits, '-', '_' and '.', not starting or ending with punctuation. */
const NAME = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/;

/** Names a member must not get, since they read as the service speaking. */
const RESERVED = new Set(['_', 'admin', 'administrator', 'root', 'support', 'help', 'strucc', 'operator', 'moderator', 'system', 'wallet', 'premium', 'legend']);

/** The lower-cased name, or a CommandError with the Hungarian reason the client shows. */
export function checkName(raw: unknown): string {
  if (typeof raw !== 'string') throw new CommandError('invalid name: expected a string');
  const name = raw.trim().toLowerCase();
  if ([...name].length < NAME_MIN) throw new CommandError(NAME_TOO_SHORT);
  if (name.length > NAME_MAX) throw new CommandError(NAME_TOO_LONG);
  if (!NAME.test(name)) throw new CommandError(NAME_BAD_CHARS);
  return name;
}

/** Pubkeys whose current profile claims name@domain as its NIP-05 identifier. */
async function profileClaimants(ctx: ServerContext, name: string): Promise<Set<string>> {
  const wanted = `${name}@${ctx.config.nip05Domain.toLowerCase()}`;
  // LIKE narrows the scan; the JSON check decides (content is free text and _ is a LIKE wildcard).
  const rows = await ctx.db.all<{ pubkey: string; content: string }>(
    `SELECT e.pubkey, e.content FROM replaceable r JOIN events e ON e.id = r.event_id
     WHERE r.kind = 0 AND lower(e.content) LIKE ? LIMIT 50`,
    [`%${wanted}%`],
  );
  const out = new Set<string>();
  for (const row of rows) {
    try {
      const nip05 = (JSON.parse(row.content) as { nip05?: unknown }).nip05;
      if (typeof nip05 === 'string' && nip05.trim().toLowerCase() === wanted) out.add(row.pubkey);
    } catch {
      // A broken profile claims nothing.
    }
  }
  return out;
}

/**
 * Whether `name` (already checked) can be taken by `forPubkey`: free, or already theirs. A
 * name stays with its member after the plan ends, so they get it back when they renew.
 */
export async function nameAvailable(ctx: ServerContext, name: string, forPubkey?: string): Promise<boolean> {
  if (RESERVED.has(name)) return false;
  const member = await ctx.db.get<{ pubkey: string }>('SELECT pubkey FROM memberships WHERE name = ?', [name]);
  if (member && member.pubkey !== forPubkey) return false;
  const claimants = await profileClaimants(ctx, name);
  for (const pk of claimants) if (pk !== forPubkey) return false;
  return true;
}
