import { describe, expect, it } from 'vitest';
import { learnUploadTime, sizeClass, timingFor, UploadProgressEstimate } from '../../../../src/lib/uploadTime';

const MB = 1024 * 1024;
const DEFAULTS = { small: 250, medium: 250, large: 250, huge: 250, final: 100 };

describe('upload time settings', () => {
  it('puts a file in its size class', () => {
    expect(sizeClass(0)).toBe('small');
    expect(sizeClass(MB - 1)).toBe('small');
    expect(sizeClass(MB)).toBe('medium');
    expect(sizeClass(10 * MB)).toBe('large');
    expect(sizeClass(100 * MB)).toBe('huge');
  });

  it("reads the record's times for the class, the spec's defaults where one is missing or broken", () => {
    expect(timingFor(DEFAULTS, 5 * MB)).toEqual({ chunkMs: 250, finalMs: 100 });
    expect(timingFor({ ...DEFAULTS, medium: 900, final: 40 }, 5 * MB)).toEqual({ chunkMs: 900, finalMs: 40 });
    expect(timingFor(undefined, 10)).toEqual({ chunkMs: 250, finalMs: 100 });
    expect(timingFor({ small: -3, final: Number.NaN }, 10)).toEqual({ chunkMs: 250, finalMs: 100 });
  });

  it('moves the class and the final time halfway to what an upload measured, within bounds', () => {
    const next = learnUploadTime(DEFAULTS, 20 * MB, { chunkMs: 1250, finalMs: 300 });
    expect(next).toEqual({ ...DEFAULTS, large: 750, final: 200 });
    const stalled = learnUploadTime(DEFAULTS, 10, { chunkMs: 10_000_000, finalMs: 0 });
    expect(stalled.small).toBe(120_000);
    expect(stalled.final).toBe(50);
  });
});

describe('upload progress estimate', () => {
  it('creeps through a step by its expected time, never past 90% of it, and never backwards', () => {
    let t = 0;
    const p = new UploadProgressEstimate(2, { chunkMs: 200, finalMs: 100 }, () => t);
    expect(p.fraction()).toBe(0);
    t = 100;
    expect(p.fraction()).toBeCloseTo(100 / 500);
    t = 10_000; // a slow chunk: the bar waits at 90% of the step
    expect(p.fraction()).toBeCloseTo(180 / 500);
    p.chunkDone();
    expect(p.fraction()).toBeCloseTo(200 / 500);
    t = 10_050;
    expect(p.fraction()).toBeCloseTo(250 / 500);
    p.chunkDone(); // into the closing step
    t = 10_500;
    expect(p.fraction()).toBeCloseTo(490 / 500);
    const measured = p.finish();
    expect(p.fraction()).toBe(1);
    expect(measured).toEqual({ chunkMs: 10_050 / 2, finalMs: 450 });
  });

  it('a fast server never makes the bar go back', () => {
    let t = 0;
    const p = new UploadProgressEstimate(1, { chunkMs: 1000, finalMs: 1000 }, () => t);
    t = 900;
    const before = p.fraction();
    p.chunkDone();
    expect(p.fraction()).toBeGreaterThanOrEqual(before);
  });
});
