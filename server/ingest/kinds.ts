/** Kind classification shared by the importer, the relay and the cache endpoint. */

/** Kinds whose newest version replaces the older ones (d = '' for the plain replaceable ones). */
export function isReplaceableKind(kind: number): boolean {
  return kind === 0 || kind === 3 || (kind >= 10000 && kind < 20000);
}

/** Addressable ("parameterized replaceable") kinds, keyed by their d tag. */
export function isAddressableKind(kind: number): boolean {
  return kind >= 30000 && kind < 40000;
}

export function hasPointer(kind: number): boolean {
  return isReplaceableKind(kind) || isAddressableKind(kind);
}

/** Relayed to live subscribers but never stored (NIP-01). */
export function isEphemeralKind(kind: number): boolean {
  return kind >= 20000 && kind < 30000;
}

const LISTED_KINDS = new Set([
  0, 1, 2, 3, 4, 5, 6, 7, 9735, 10000, 10002, 30000, 30023, 10003, 9802, 20, 39089, 1984, 1068, 1018, 6969, 1311, 30311,
  34235, 34236, 1111,
  // NIP-17 private messages: seals and gift wraps (the relay serves wraps only to their recipient).
  13, 1059,
  // NIP-88 subscriptions to an author's tier (7001) and their end (7002), which the profile shows.
  7001, 7002,
]);
const REFUSED_KINDS = new Set([30382, 30383, 29333]);

/** Kinds the importer stores (protocol S §5.2 step 5). */
export function isAcceptedKind(kind: number): boolean {
  if (REFUSED_KINDS.has(kind)) return false;
  return LISTED_KINDS.has(kind) || (kind >= 10000 && kind < 20000) || (kind >= 30000 && kind < 40000);
}

/** Kinds that get a posts row and an event_stats row (S §4.1), reposts included. */
export const POST_KINDS = new Set([1, 6, 20, 1068, 6969, 1111, 34235, 34236, 30023]);

/** Kinds that can be replies (S §4.1, "replies +1"). */
export const REPLY_KINDS = new Set([1, 20, 1068, 6969, 1111]);

/** Only zaps on these kinds are kept (spec: text notes and long-form articles). */
export const ZAPPABLE_KINDS = new Set([1, 30023]);

export function firstTagValue(tags: string[][], name: string): string | undefined {
  for (const t of tags) if (t[0] === name && typeof t[1] === 'string') return t[1];
  return undefined;
}

/** The d value that keys a replaceable or addressable event ('' when absent, NIP-01). */
export function pointerD(kind: number, tags: string[][]): string {
  return isAddressableKind(kind) ? (firstTagValue(tags, 'd') ?? '') : '';
}

export function addressOf(kind: number, pubkey: string, d: string): string {
  return `${kind}:${pubkey}:${d}`;
}

/** Splits "kind:pubkey:d" (d may itself contain colons); null when malformed. */
export function parseAddress(value: string): { kind: number; pubkey: string; d: string } | null {
  const first = value.indexOf(':');
  const second = value.indexOf(':', first + 1);
  if (first <= 0 || second < 0) return null;
  const kind = Number(value.slice(0, first));
  const pubkey = value.slice(first + 1, second);
  if (!Number.isInteger(kind) || kind < 0 || !/^[0-9a-f]{64}$/.test(pubkey)) return null;
  return { kind, pubkey, d: value.slice(second + 1) };
}
