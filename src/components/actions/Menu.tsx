/**
 * A small popup menu (WAI-ARIA menu button pattern): focus moves into it on open, arrow keys,
 * Home and End move between the items, Escape closes and gives focus back to the button, Tab
 * or a click elsewhere closes it.
 */
import { useEffect, useRef, type ComponentType, type KeyboardEvent, type RefObject } from 'react';
import '../../styles/action-menu.css';

export interface MenuItem {
  key: string;
  label: string;
  Icon?: ComponentType<{ size?: number }>;
  danger?: boolean;
  onSelect: () => void;
}

export interface MenuProps {
  label: string;
  items: MenuItem[];
  /** The button that opened the menu: focus returns there, and clicks on it do not count as outside. */
  anchor: RefObject<HTMLElement | null>;
  onClose: () => void;
  className?: string;
}

export function Menu({ label, items, anchor, onClose, className }: MenuProps) {
  const ref = useRef<HTMLDivElement>(null);

  // The latest onClose without re-running the effects: a re-render must not move focus back to the top.
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (ref.current?.contains(target) || anchor.current?.contains(target)) return;
      close.current();
    };
    document.addEventListener('pointerdown', onPointer, true);
    return () => document.removeEventListener('pointerdown', onPointer, true);
  }, [anchor]);

  const move = (e: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    let next = -1;
    if (e.key === 'ArrowDown') next = (at + 1) % buttons.length;
    else if (e.key === 'ArrowUp') next = (at - 1 + buttons.length) % buttons.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = buttons.length - 1;
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
      anchor.current?.focus();
      return;
    } else if (e.key === 'Tab') {
      onClose();
      return;
    }
    if (next >= 0) {
      e.preventDefault();
      buttons[next]?.focus();
    }
  };

  return (
    <div ref={ref} role="menu" aria-label={label} className={`action-menu${className ? ` ${className}` : ''}`} onKeyDown={move}>
      {items.map(({ key, label: text, Icon, danger, onSelect }) => (
        <button
          key={key}
          type="button"
          role="menuitem"
          tabIndex={-1}
          data-item={key}
          className={`action-menu-item${danger ? ' is-danger' : ''}`}
          onClick={() => {
            onClose();
            anchor.current?.focus();
            onSelect();
          }}
        >
          {Icon && <Icon size={18} />}
          <span>{text}</span>
        </button>
      ))}
    </div>
  );
}
