import { describe, expect, it } from 'vitest';
import { formatBadgeCount, formatCount, formatFullDate, formatRelativeTime } from '../../../../src/lib/format';

// Hungarian groups thousands with a no-break space.
const NBSP = '\u00a0';

describe('formatCount', () => {
  it('writes small counts in full', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(7)).toBe('7');
    expect(formatCount(999)).toBe('999');
  });

  it('keeps four-digit counts whole, as Hungarian writes them', () => {
    expect(formatCount(1234)).toBe('1234');
    expect(formatCount(9999)).toBe('9999');
  });

  it('switches to k from 10,000 with a decimal comma', () => {
    expect(formatCount(10_000)).toBe('10k');
    expect(formatCount(12_345)).toBe('12,3k');
    expect(formatCount(999_999)).toBe('999,9k');
  });

  it('switches to m from a million', () => {
    expect(formatCount(1_000_000)).toBe('1m');
    expect(formatCount(2_560_000)).toBe('2,5m');
    expect(formatCount(12_345_678_901)).toBe(`12${NBSP}345,6m`);
  });

  it('starts suffixes at 1,000 in compact mode', () => {
    expect(formatCount(999, { compact: true })).toBe('999');
    expect(formatCount(1_500, { compact: true })).toBe('1,5k');
  });

  it('treats missing or negative values as zero and drops fractions', () => {
    expect(formatCount(Number.NaN)).toBe('0');
    expect(formatCount(-5)).toBe('0');
    expect(formatCount(42.9)).toBe('42');
  });

  it('follows the locale passed in', () => {
    expect(formatCount(12_345, { locale: 'en' })).toBe('12.3k');
    expect(formatCount(1_234, { locale: 'en' })).toBe('1,234');
  });
});

describe('formatBadgeCount', () => {
  it('caps at 99+', () => {
    expect(formatBadgeCount(5)).toBe('5');
    expect(formatBadgeCount(99)).toBe('99');
    expect(formatBadgeCount(100)).toBe('99+');
  });
});

describe('formatRelativeTime', () => {
  const now = 1_700_000_000;

  it('reads as just now under a minute, also for a clock ahead of ours', () => {
    expect(formatRelativeTime(now - 20, now)).toBe('most');
    expect(formatRelativeTime(now + 30, now)).toBe('most');
  });

  it('uses the short Hungarian past forms', () => {
    expect(formatRelativeTime(now - 5 * 60, now)).toBe('5 perce');
    expect(formatRelativeTime(now - 2 * 3600, now)).toBe('2 órája');
    expect(formatRelativeTime(now - 3 * 86_400, now)).toBe('3 napja');
    expect(formatRelativeTime(now - 14 * 86_400, now)).toBe('2 hete');
    expect(formatRelativeTime(now - 3 * 365 * 86_400, now)).toBe('3 éve');
  });
});

describe('formatFullDate', () => {
  it('spells the month in Hungarian', () => {
    expect(formatFullDate(Date.UTC(2025, 2, 3, 12, 0) / 1000)).toMatch(/^2025\. március 3\./);
  });
});
