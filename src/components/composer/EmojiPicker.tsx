/**
 * The emoji button and its panel: "Legutóbb használt" from the account's emoji history (40 at
 * most, kept by the worker), then the curated set by category. A choice goes in at the caret.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmojiUse } from '../../../core/types';
import { useAccount } from '../../lib/account';
import { EMOJI_SET } from './emojiSet';

export function EmojiPicker({ onPick }: { onPick: (emoji: EmojiUse) => void }) {
  const { t } = useTranslation('composer');
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const history = useAccount()?.account?.emojiHistory ?? [];

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const outside = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const pick = (emoji: EmojiUse) => {
    onPick(emoji);
    setOpen(false);
  };

  const button = (emoji: EmojiUse) => (
    <button
      key={`${emoji.name}|${emoji.url ?? ''}`}
      type="button"
      className="composer-emoji"
      onClick={() => pick(emoji)}
      aria-label={emoji.url ? `:${emoji.name}:` : emoji.name}
      title={emoji.url ? `:${emoji.name}:` : undefined}
    >
      {emoji.url ? <img src={emoji.url} alt="" width={22} height={22} /> : emoji.name}
    </button>
  );

  return (
    <div className="composer-emoji-wrap">
      <button
        ref={buttonRef}
        type="button"
        className="composer-icon-button"
        aria-label={t('emoji.button')}
        title={t('emoji.button')}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="9" />
          <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
        </svg>
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          className="composer-emoji-panel"
          role="dialog"
          aria-label={t('emoji.panel')}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              // Only the panel closes, not the composer's dialog around it.
              e.preventDefault();
              e.stopPropagation();
              close();
            }
          }}
        >
          {history.length > 0 && (
            <section aria-label={t('emoji.recent')}>
              <h3 className="composer-emoji-heading">{t('emoji.recent')}</h3>
              <div className="composer-emoji-grid" data-emoji-recent="">
                {history.map(button)}
              </div>
            </section>
          )}
          {EMOJI_SET.map(({ category, emoji }) => (
            <section key={category} aria-label={t(`emoji.${category}`)}>
              <h3 className="composer-emoji-heading">{t(`emoji.${category}`)}</h3>
              <div className="composer-emoji-grid">{emoji.map((name) => button({ name }))}</div>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
