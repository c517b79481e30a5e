import { describe, expect, it } from 'vitest';
import { parsePreferences } from '../../../../../src/components/ecash/preferences.ts';

describe('the send form denominations', () => {
  it('reads amount×count items separated by commas or spaces', () => {
    expect(parsePreferences('')).toEqual([]);
    expect(parsePreferences('8x2, 4')).toEqual([{ amount: 8, count: 2 }, { amount: 4, count: 1 }]);
    expect(parsePreferences('16×3 2*1')).toEqual([{ amount: 16, count: 3 }, { amount: 2, count: 1 }]);
  });
  it('refuses anything else (powers of two are the wallet’s check, with the spec’s message)', () => {
    expect(parsePreferences('nyolc')).toBeNull();
    expect(parsePreferences('8x')).toBeNull();
    expect(parsePreferences('0x2')).toBeNull();
    expect(parsePreferences('8x0')).toBeNull();
    expect(parsePreferences('6x2')).toEqual([{ amount: 6, count: 2 }]);
  });
});
