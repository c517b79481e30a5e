/**
 * Keyboard movement in a tab strip (the WAI-ARIA tabs pattern): the arrows step and wrap around,
 * Home and End jump to the ends, and the tab reached is selected and focused. The handler goes on the
 * role="tablist" element, whose role="tab" children follow the order of `tabs`.
 */
import type { KeyboardEvent } from 'react';

export function nextTabIndex(count: number, current: number, key: string): number | undefined {
  if (count === 0) return undefined;
  const from = current < 0 ? 0 : current;
  if (key === 'ArrowRight') return (from + 1) % count;
  if (key === 'ArrowLeft') return (from - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}

export function tabListKeys<T>(tabs: readonly T[], selected: T, select: (tab: T) => void) {
  return (event: KeyboardEvent<HTMLElement>): void => {
    const next = nextTabIndex(tabs.length, tabs.indexOf(selected), event.key);
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[next]);
    event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };
}
