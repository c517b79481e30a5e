/**
 * The send form's optional denominations ("Címletek"): "8x2, 4" asks for two 8-sat proofs and
 * one 4-sat proof first (spec §4 amount preferences); the worker splits the rest by its bits and
 * refuses amounts that are not powers of two with the spec's message.
 */
import type { AmountPreference } from '../../../core/types/ecash.ts';

/** null: the text is not a list of `amount` or `amount×count` items. */
export function parsePreferences(text: string): AmountPreference[] | null {
  const items = text.split(/[,;\s]+/).filter(Boolean);
  const out: AmountPreference[] = [];
  for (const item of items) {
    const m = /^(\d{1,9})(?:[x×*](\d{1,4}))?$/i.exec(item);
    if (!m) return null;
    const count = m[2] === undefined ? 1 : Number(m[2]);
    if (Number(m[1]) <= 0 || count <= 0) return null;
    out.push({ amount: Number(m[1]), count });
  }
  return out;
}
