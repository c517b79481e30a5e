/**
 * A tab strip (the WAI-ARIA tabs pattern): only the selected tab is in the Tab order, the arrows,
 * Home and End move between tabs and select them, and each tab names the panel it controls.
 */
import type { ReactNode } from 'react';
import { tabListKeys } from '../lib/tabKeys';

export interface TabStripProps<T extends string> {
  tabs: readonly T[];
  selected: T;
  onSelect: (tab: T) => void;
  /** The strip's accessible name. */
  label: string;
  className: string;
  tabClassName: string;
  tabId: (tab: T) => string;
  /** The id of the panel a tab controls. */
  panelId: (tab: T) => string;
  /** What a tab shows. */
  children: (tab: T) => ReactNode;
}

export function TabStrip<T extends string>({ tabs, selected, onSelect, label, className, tabClassName, tabId, panelId, children }: TabStripProps<T>) {
  return (
    <div role="tablist" aria-label={label} className={className} onKeyDown={tabListKeys(tabs, selected, onSelect)}>
      {tabs.map((tab) => (
        <button
          key={tab}
          type="button"
          role="tab"
          id={tabId(tab)}
          aria-selected={tab === selected}
          aria-controls={panelId(tab)}
          tabIndex={tab === selected ? 0 : -1}
          className={tabClassName}
          data-tab={tab}
          onClick={() => onSelect(tab)}
        >
          {children(tab)}
        </button>
      ))}
    </div>
  );
}
