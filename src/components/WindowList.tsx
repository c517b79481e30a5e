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

const TOPS_KEY = 'strucc:listTops';
/** A vanity address is a screen of its own here: past this many the kept tops start over. */
const MAX_TOPS = 24;
let keptTops: Record<string, number> | undefined;

/**
 * Where each screen's list last started on the page (its scroll margin), kept across visits: the
 * first render can then draw the rows on screen at once, instead of drawing none until a layout
 * effect has measured the list (a forced layout of the shell, then the rows in a second pass).
 */
function tops(): Record<string, number> {
  if (keptTops) return keptTops;
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(TOPS_KEY) ?? '{}');
    keptTops = parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    keptTops = {};
  }
  return keptTops;
}

function keepTop(key: string, top: number): void {
  const all = tops();
  if (all[key] === top) return;
  if (!(key in all) && Object.keys(all).length >= MAX_TOPS) {
    keptTops = {};
    return keepTop(key, top);
  }
  all[key] = top;
  try {
    localStorage.setItem(TOPS_KEY, JSON.stringify(all));
  } catch {
    // Only the next first render's estimate is lost.
  }
}

/** Each screen's list, by the first part of its address and the list's class. */
const topKey = (className: string) => `${location.pathname.split('/')[1] ?? ''}|${className}`;

export function WindowList<T>({ items, itemKey, renderItem, estimateSize, overscan = 4, className, rowClassName, label, busy, onNearEnd, prefetchDistance = 6 }: WindowListProps<T>) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(() => {
    const kept = tops()[topKey(className)];
    return typeof kept === 'number' && Number.isFinite(kept) ? kept : 0;
  });
  // The window's size is known before anything is laid out; the virtualiser's own start (0×0)
  // would draw no rows until its layout effect has read it.
  const [initialRect] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
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
    const key = topKey(className);
    const measure = () => {
      const top = Math.round(el.getBoundingClientRect().top + window.scrollY);
      setScrollMargin(top);
      keepTop(key, top);
    };
    measure();
    const observer = new ResizeObserver(measure);
    if (el.parentElement) observer.observe(el.parentElement);
    return () => observer.disconnect();
  }, [className]);

  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => estimateSize,
    overscan: painted ? overscan : 0,
    scrollMargin,
    initialRect,
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
