/**
 * A list virtualised against the window: only the rows near the viewport are in the DOM, however
 * far one scrolls. The feeds, reads and notifications all draw their rows through it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';

interface WindowListProps<T> {
  items: T[];
  itemKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  estimateSize: number;
  overscan?: number;
  /** The list element's class; each row gets rowClassName. */
  className: string;
  rowClassName: string;
  label: string;
  busy: boolean;
  /**
   * Asked once per list length when the last rendered row comes within prefetchDistance of the end,
   * so the next page arrives before the reader gets there (and an empty page cannot loop).
   */
  onNearEnd?: () => void;
  prefetchDistance?: number;
}

export function WindowList<T>({ items, itemKey, renderItem, estimateSize, overscan = 4, className, rowClassName, label, busy, onNearEnd, prefetchDistance = 6 }: WindowListProps<T>) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // The first render draws only the rows on screen: the rows below it cost the first paint (a
  // card is a few ms of parsing and formatting) and nobody sees them yet. They follow a frame later.
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setPainted(true));
    return () => cancelAnimationFrame(frame);
  }, []);

  // The list starts below the page header; the virtualiser needs that offset in window coordinates.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const measure = () => setScrollMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    measure();
    const observer = new ResizeObserver(measure);
    if (el.parentElement) observer.observe(el.parentElement);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => estimateSize,
    overscan: painted ? overscan : 0,
    scrollMargin,
    getItemKey: (index) => (items[index] ? itemKey(items[index]) : index),
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows.length > 0 ? rows[rows.length - 1].index : -1;

  const requestedAt = useRef(-1);
  useEffect(() => {
    if (!onNearEnd || items.length === 0) return;
    if (lastIndex < items.length - prefetchDistance) return;
    if (requestedAt.current === items.length) return;
    requestedAt.current = items.length;
    onNearEnd();
  }, [lastIndex, items.length, onNearEnd, prefetchDistance]);

  return (
    <div ref={listRef} role="feed" aria-busy={busy} aria-label={label} className={className} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
      {rows.map((row) => {
        const item = items[row.index];
        if (!item) return null;
        return (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className={rowClassName}
            style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
          >
            {renderItem(item, row.index)}
          </div>
        );
      })}
    </div>
  );
}
