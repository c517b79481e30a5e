import { describe, expect, it } from 'vitest';
import { parseAmount, validateZapForm, zapDefaultOf, zapFormOf, zapFormValid, zapOptionsOf, zapPatch } from '../../../../src/lib/zapSettings';

describe('zap settings', () => {
  it('falls back to the spec default zap and preset amounts', () => {
    expect(zapDefaultOf({})).toEqual({ amount: 42, message: 'Haladjunk együtt! 🫡' });
    expect(zapOptionsOf({}).map((o) => o.amount)).toEqual([21, 420, 1000, 5000, 10000, 100000]);
  });

  it('reads the old numeric forms when the new ones are missing', () => {
    expect(zapDefaultOf({ defaultZapAmount: 21 }).amount).toBe(21);
    expect(zapOptionsOf({ zapOptions: [1, 2, 3] }).map((o) => o.amount)).toEqual([1, 2, 3, 5000, 10000, 100000]);
    const config = [{ emoji: '☕', amount: 1000, message: 'Kávé' }];
    expect(zapOptionsOf({ zapConfig: config, zapOptions: [9] })[0]).toEqual(config[0]);
  });

  it('validates amounts as whole positive sats, spaces allowed', () => {
    expect(parseAmount('10 000')).toBe(10000);
    expect(parseAmount('')).toBe('required');
    expect(parseAmount('1.5')).toBe('notWhole');
    expect(parseAmount('-3')).toBe('notWhole');
    expect(parseAmount('abc')).toBe('notWhole');
    expect(parseAmount('0')).toBe('tooSmall');
    expect(parseAmount('99999999999999999')).toBe('tooBig');
  });

  it('writes both forms from a valid form', () => {
    const form = zapFormOf({});
    form.amount = '100';
    form.presets[1] = { emoji: ' 🚀 ', amount: '500', message: ' Hajrá ' };
    const problems = validateZapForm(form);
    expect(zapFormValid(problems)).toBe(true);
    const patch = zapPatch(form);
    expect(patch.zapDefault).toEqual({ amount: 100, message: 'Haladjunk együtt! 🫡' });
    expect(patch.defaultZapAmount).toBe(100);
    expect(patch.zapConfig?.[1]).toEqual({ emoji: '🚀', amount: 500, message: 'Hajrá' });
    expect(patch.zapOptions).toEqual([21, 500, 1000, 5000, 10000, 100000]);
  });

  it('reports each bad preset on its own row', () => {
    const form = zapFormOf({});
    form.presets[3].amount = 'sok';
    const problems = validateZapForm(form);
    expect(zapFormValid(problems)).toBe(false);
    expect(problems.presets[3]).toEqual({ amount: 'notWhole' });
    expect(problems.presets[0]).toEqual({});
  });
});
