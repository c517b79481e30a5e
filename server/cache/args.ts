/**
 * Keyword-argument checking for cache commands. Every failure throws a CommandError whose
 * message goes back to the client verbatim in a NOTICE, so messages are short and specific.
 */

export class CommandError extends Error {}

/** Above this a request is a mistake or an attack rather than a big page. */
const ABSURD_LIMIT = 10_000;
const HEX64 = /^[0-9a-fA-F]{64}$/;

export type Kwargs = Record<string, unknown>;

export function isHex64(v: unknown): v is string {
  return typeof v === 'string' && HEX64.test(v);
}

export class Args {
  constructor(readonly raw: Kwargs) {}

  has(name: string): boolean {
    return this.raw[name] !== undefined && this.raw[name] !== null;
  }

  /** A 64-hex id or pubkey, lowercased. */
  hex(name: string): string {
    const v = this.raw[name];
    if (v === undefined || v === null) throw new CommandError(`missing ${name}`);
    if (!isHex64(v)) throw new CommandError(`invalid ${name}: expected 64 hex characters`);
    return v.toLowerCase();
  }

  optHex(name: string): string | undefined {
    const v = this.raw[name];
    // Clients send "" for "nobody" as often as they omit the key.
    if (v === undefined || v === null || v === '') return undefined;
    return this.hex(name);
  }

  hexList(name: string, max = 1000): string[] {
    const v = this.raw[name];
    if (v === undefined || v === null) throw new CommandError(`missing ${name}`);
    if (!Array.isArray(v)) throw new CommandError(`invalid ${name}: expected an array`);
    if (v.length > max) throw new CommandError(`too many ${name}`);
    const out = new Set<string>();
    for (const item of v) {
      if (!isHex64(item)) throw new CommandError(`invalid ${name}: expected 64 hex characters`);
      out.add(item.toLowerCase());
    }
    return [...out];
  }

  optInt(name: string): number | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new CommandError(`invalid ${name}: expected a number`);
    return Math.trunc(v);
  }

  int(name: string, fallback: number): number {
    return this.optInt(name) ?? fallback;
  }

  /** Unix seconds or a sort-key bound; negative values are nonsense for both. */
  optBound(name: string): number | undefined {
    const v = this.optInt(name);
    if (v !== undefined && v < 0) throw new CommandError(`invalid ${name}: must not be negative`);
    return v;
  }

  offset(): number {
    const v = this.int('offset', 0);
    if (v < 0) throw new CommandError('invalid offset: must not be negative');
    if (v > 100_000) throw new CommandError('offset too big');
    return v;
  }

  /** Pages are capped quietly; only absurd sizes are refused, as clients ask for "a lot" freely. */
  limit(fallback: number, cap = 1000): number {
    const v = this.raw.limit;
    if (v === undefined || v === null) return Math.min(fallback, cap);
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new CommandError('invalid limit: expected a number');
    if (v > ABSURD_LIMIT) throw new CommandError('limit too big');
    if (v < 0) throw new CommandError('invalid limit: must not be negative');
    return Math.min(Math.trunc(v), cap);
  }

  optStr(name: string): string | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new CommandError(`invalid ${name}: expected a string`);
    return v;
  }

  str(name: string, fallback: string): string {
    return this.optStr(name) ?? fallback;
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.raw[name];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') throw new CommandError(`invalid ${name}: expected true or false`);
    return v;
  }

  optKinds(name = 'kinds'): number[] | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v) || v.length > 50 || !v.every((k) => Number.isInteger(k) && k >= 0 && k <= 65535)) {
      throw new CommandError(`invalid ${name}: expected an array of kind numbers`);
    }
    return v as number[];
  }
}
