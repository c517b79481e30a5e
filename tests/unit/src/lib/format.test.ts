import { describe, expect, it } from 'vitest';
import { formatBadgeCount, formatCount, formatFullDate, formatRelativeTime, huPast } from '../../../../src/lib/format';

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

describe('the spelled-out Hungarian past forms', () => {
  it('write what Intl.RelativeTimeFormat writes, for every value formatRelativeTime asks for', () => {
    const intl = new Intl.RelativeTimeFormat('hu', { style: 'narrow', numeric: 'auto' });
    const asked: [number, 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year'][] = [[0, 'second']];
    for (let n = 1; n < 60; n++) asked.push([-n, 'minute']);
    for (let n = 1; n < 24; n++) asked.push([-n, 'hour']);
    for (let n = 1; n < 7; n++) asked.push([-n, 'day']);
    for (let n = 1; n <= 4; n++) asked.push([-n, 'week']);
    for (let n = 1; n <= 12; n++) asked.push([-n, 'month']);
    for (const n of [1, 2, 3, 10, 56, 999, 1000, 12345]) asked.push([-n, 'year']);
    for (const [value, unit] of asked) expect([value, unit, huPast.format(value, unit)]).toEqual([value, unit, intl.format(value, unit)]);
  });

  it('leave other locales to Intl', () => {
    const now = 1_700_000_000;
    expect(formatRelativeTime(now - 5 * 60, now, 'en')).toBe(new Intl.RelativeTimeFormat('en', { style: 'narrow', numeric: 'auto' }).format(-5, 'minute'));
  });
});

describe('formatCount without Intl', () => {
  it('writes what Intl.NumberFormat writes in both catalogues, suffixed counts included', () => {
    for (const locale of ['hu', 'en']) {
      const int = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
      const dec = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
      for (const n of [0, 1, 7, 42, 999, 1000, 1234, 9999]) expect(formatCount(n, { locale })).toBe(int.format(n));
      for (const n of [1000, 1234, 9999]) expect(formatCount(n, { locale, compact: true })).toBe(`${dec.format(Math.floor(n / 100) / 10)}k`);
      for (const n of [10_000, 21_345, 999_999]) expect(formatCount(n, { locale })).toBe(`${dec.format(Math.floor(n / 100) / 10)}k`);
      for (const n of [1_000_000, 2_150_000, 123_456_789, 99_999_999_999]) expect(formatCount(n, { locale })).toBe(`${dec.format(Math.floor(n / 100_000) / 10)}m`);
    }
  });
});

describe('formatFullDate', () => {
  it('spells the month in Hungarian', () => {
    expect(formatFullDate(Date.UTC(2025, 2, 3, 12, 0) / 1000)).toMatch(/^2025\. március 3\./);
  });
});
