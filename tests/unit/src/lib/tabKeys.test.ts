import { describe, expect, it } from 'vitest';
import { nextTabIndex } from '../../../../src/lib/tabKeys';

describe('tab strip keys', () => {
  it('steps with the arrows, wrapping at both ends', () => {
    expect(nextTabIndex(4, 1, 'ArrowRight')).toBe(2);
    expect(nextTabIndex(4, 3, 'ArrowRight')).toBe(0);
    expect(nextTabIndex(4, 0, 'ArrowLeft')).toBe(3);
  });

  it('jumps to the ends with Home and End, and ignores other keys', () => {
    expect(nextTabIndex(4, 2, 'Home')).toBe(0);
    expect(nextTabIndex(4, 0, 'End')).toBe(3);
    expect(nextTabIndex(4, 2, 'Enter')).toBeUndefined();
    expect(nextTabIndex(0, 0, 'ArrowRight')).toBeUndefined();
  });
});
