/**
 * Number and time display rules of spec §9. Pure functions with the locale as a parameter,
 * so the same rules serve both catalogues and the unit tests.
 */

const intFormats = new Map<string, Intl.NumberFormat>();
const decimalFormats = new Map<string, Intl.NumberFormat>();

function cached(map: Map<string, Intl.NumberFormat>, locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let fmt = map.get(locale);
  if (!fmt) {
    fmt = new Intl.NumberFormat(locale, options);
    map.set(locale, fmt);
  }
  return fmt;
}

/**
 * What Intl.NumberFormat writes for numbers too small to group (Hungarian groups from 10,000 on,
 * English from 1,000), or null: the page's first NumberFormat loads its locale data for 10-20 ms of
 * the first render (seen in its CPU profile), and a card's counts are mostly such numbers.
 */
function plainNumber(x: number, locale: string): string | null {
  if (locale === 'hu') return x < 10_000 ? String(x).replace('.', ',') : null;
  if (locale === 'en') return x < 1_000 ? String(x) : null;
  return null;
}

export interface CountOptions {
  /** Compact places (narrow rows) switch to suffixes from 1,000 instead of 10,000. */
  compact?: boolean;
  locale?: string;
}

/**
 * Counts below the threshold are written in full with the locale's grouping; above it
 * one truncated decimal and a k or m suffix. Truncating, not rounding, keeps 999,999
 * from reading as 1000k.
 */
export function formatCount(value: number, options: CountOptions = {}): string {
  const locale = options.locale ?? 'hu';
  const n = Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
  const threshold = options.compact ? 1_000 : 10_000;
  if (n < threshold) return plainNumber(n, locale) ?? cached(intFormats, locale, { maximumFractionDigits: 0 }).format(n);
  const decimal = (x: number) => plainNumber(x, locale) ?? cached(decimalFormats, locale, { maximumFractionDigits: 1 }).format(x);
  if (n < 1_000_000) return `${decimal(Math.floor(n / 100) / 10)}k`;
  return `${decimal(Math.floor(n / 100_000) / 10)}m`;
}

/** The new-notes pill and badges stop counting at 99. */
export function formatBadgeCount(value: number): string {
  return value > 99 ? '99+' : String(Math.max(0, Math.floor(value)));
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

type PastUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';
interface PastFormat {
  format(value: number, unit: PastUnit): string;
}

/**
 * What Intl.RelativeTimeFormat('hu', narrow, numeric auto) writes for the past, spelled out: the
 * page's first RelativeTimeFormat loads its locale data for some 25 ms of the first render (seen in
 * its CPU profile), for a handful of fixed words. tests/unit/src/lib/format.test.ts holds it to Intl.
 */
const HU_PAST: Record<PastUnit, { suffix: string; named: string[] }> = {
  second: { suffix: 'másodperce', named: ['most'] },
  minute: { suffix: 'perce', named: [] },
  hour: { suffix: 'órája', named: [] },
  day: { suffix: 'napja', named: ['', 'tegnap', 'tegnapelőtt'] },
  week: { suffix: 'hete', named: ['', 'előző hét'] },
  month: { suffix: 'hónapja', named: ['', 'előző hónap'] },
  year: { suffix: 'éve', named: ['', 'előző év'] },
};

export const huPast: PastFormat = {
  format(value, unit) {
    const n = -value;
    const { suffix, named } = HU_PAST[unit];
    if (named[n]) return named[n];
    // Grouped numbers (from 1,000 years on) are left to Intl.
    if (n >= 1_000) return relativeFormat('hu').format(value, unit);
    return `${n} ${suffix}`;
  },
};

function relativeFormat(locale: string): Intl.RelativeTimeFormat {
  let fmt = relativeFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.RelativeTimeFormat(locale, { style: 'narrow', numeric: 'auto' });
    relativeFormats.set(locale, fmt);
  }
  return fmt;
}

/** Short past-tense age of a timestamp in seconds: '5 perce', '2 órája', 'tegnap'. */
export function formatRelativeTime(createdAt: number, nowSeconds: number, locale = 'hu'): string {
  const fmt: PastFormat = locale === 'hu' ? huPast : relativeFormat(locale);
  // Clock skew can put a note slightly in the future; it still reads as just now.
  const age = Math.max(0, nowSeconds - createdAt);
  if (age < MINUTE) return fmt.format(0, 'second');
  if (age < HOUR) return fmt.format(-Math.floor(age / MINUTE), 'minute');
  if (age < DAY) return fmt.format(-Math.floor(age / HOUR), 'hour');
  if (age < WEEK) return fmt.format(-Math.floor(age / DAY), 'day');
  if (age < MONTH) return fmt.format(-Math.floor(age / WEEK), 'week');
  if (age < YEAR) return fmt.format(-Math.floor(age / MONTH), 'month');
  return fmt.format(-Math.floor(age / YEAR), 'year');
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Full date and time for tooltips, e.g. '2025. március 3. 14:05'. */
export function formatFullDate(createdAt: number, locale = 'hu'): string {
  let fmt = dateFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' });
    dateFormats.set(locale, fmt);
  }
  return fmt.format(new Date(createdAt * 1000));
}

/**
 * A note time link's handler that writes the full date as its <time>'s tooltip when the link is
 * first pointed at or focused: the first Intl.DateTimeFormat a page makes costs its first render
 * some 10–60 ms, for tooltips nobody has asked for yet. The <time> carries data-locale.
 */
export function fullDateTitle(e: { currentTarget: HTMLElement }): void {
  const time = e.currentTarget.querySelector('time');
  if (!time || time.title) return;
  time.title = formatFullDate(Date.parse(time.dateTime) / 1000, time.dataset.locale);
}
