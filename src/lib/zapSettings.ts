/**
 * The zap part of the server-saved settings (spec §3, §9): the default zap and the six presets,
 * read from whichever form a client stored (zapDefault/zapConfig, or the old numeric
 * defaultZapAmount/zapOptions), validated, and written back in both forms.
 */
import type { AppSettings } from '../../core/types';

export interface ZapOption {
  emoji: string;
  amount: number;
  message: string;
}

export interface ZapForm {
  amount: string;
  message: string;
  presets: { emoji: string; amount: string; message: string }[];
}

export const DEFAULT_ZAP = { amount: 42, message: 'Haladjunk együtt! 🫡' };
export const PRESET_AMOUNTS = [21, 420, 1000, 5000, 10000, 100000] as const;
/** What a zap can carry at most: 21 million bitcoin in sats. */
export const MAX_ZAP_SATS = 2_100_000_000_000_000;
export const MAX_MESSAGE_LENGTH = 280;
export const MAX_EMOJI_LENGTH = 8;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function zapDefaultOf(settings: AppSettings): { amount: number; message: string } {
  const d = settings.zapDefault as { amount?: unknown; message?: unknown } | undefined;
  const amount = num(d?.amount) ?? num(settings.defaultZapAmount) ?? DEFAULT_ZAP.amount;
  const message = d && typeof d.message === 'string' ? d.message : DEFAULT_ZAP.message;
  return { amount, message };
}

/** Always six options; missing ones fall back to the old numeric list, then the spec's amounts. */
export function zapOptionsOf(settings: AppSettings): ZapOption[] {
  const config = Array.isArray(settings.zapConfig) ? settings.zapConfig : [];
  const old = Array.isArray(settings.zapOptions) ? settings.zapOptions : [];
  return PRESET_AMOUNTS.map((fallback, i) => {
    const entry = config[i] as { emoji?: unknown; amount?: unknown; message?: unknown } | undefined;
    return {
      emoji: str(entry?.emoji),
      amount: num(entry?.amount) ?? num(old[i]) ?? fallback,
      message: str(entry?.message),
    };
  });
}

export function zapFormOf(settings: AppSettings): ZapForm {
  const d = zapDefaultOf(settings);
  return {
    amount: String(d.amount),
    message: d.message,
    presets: zapOptionsOf(settings).map((o) => ({ emoji: o.emoji, amount: String(o.amount), message: o.message })),
  };
}

export type AmountProblem = 'required' | 'notWhole' | 'tooSmall' | 'tooBig';

/** Amounts are whole sats, typed possibly with spaces as thousands separators ('10 000'). */
export function parseAmount(text: string): number | AmountProblem {
  const compact = text.replace(/[\s\u00a0]/g, '');
  if (compact === '') return 'required';
  if (!/^\d+$/.test(compact)) return 'notWhole';
  const value = Number(compact);
  if (value < 1) return 'tooSmall';
  if (value > MAX_ZAP_SATS) return 'tooBig';
  return value;
}

export type ZapFormProblems = {
  amount?: AmountProblem;
  message?: 'tooLong';
  presets: { amount?: AmountProblem; message?: 'tooLong'; emoji?: 'tooLong' }[];
};

export function validateZapForm(form: ZapForm): ZapFormProblems {
  const problems: ZapFormProblems = { presets: form.presets.map(() => ({})) };
  const amount = parseAmount(form.amount);
  if (typeof amount === 'string') problems.amount = amount;
  if (form.message.length > MAX_MESSAGE_LENGTH) problems.message = 'tooLong';
  form.presets.forEach((p, i) => {
    const a = parseAmount(p.amount);
    if (typeof a === 'string') problems.presets[i].amount = a;
    if (p.message.length > MAX_MESSAGE_LENGTH) problems.presets[i].message = 'tooLong';
    if ([...p.emoji].length > MAX_EMOJI_LENGTH) problems.presets[i].emoji = 'tooLong';
  });
  return problems;
}

export function zapFormValid(problems: ZapFormProblems): boolean {
  return !problems.amount && !problems.message && problems.presets.every((p) => !p.amount && !p.message && !p.emoji);
}

/** The settings patch for a valid form: the new form and the old numeric one, so older clients agree. */
export function zapPatch(form: ZapForm): AppSettings {
  const amount = parseAmount(form.amount) as number;
  const config = form.presets.map((p) => ({ emoji: p.emoji.trim(), amount: parseAmount(p.amount) as number, message: p.message.trim() }));
  return {
    zapDefault: { amount, message: form.message.trim() },
    defaultZapAmount: amount,
    zapConfig: config,
    zapOptions: config.map((c) => c.amount),
  };
}

export const sameZapForm = (a: ZapForm, b: ZapForm) => JSON.stringify(a) === JSON.stringify(b);
