/** One feed of the settings list: show/hide switch, inline rename, move buttons, drag handle, remove. */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedDefinition } from '../../../core/types';
import { checkFeedName, MAX_FEED_NAME, type NameError } from './feedModel';

export interface FeedRowProps {
  feed: FeedDefinition;
  index: number;
  count: number;
  dragging: boolean;
  onToggle: (enabled: boolean) => void;
  onRename: (name: string) => void;
  onRemove: () => void;
  onMove: (delta: -1 | 1, control: string) => void;
  onDragStart: (e: PointerEvent<HTMLButtonElement>) => void;
}

function HandleIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
      {[6, 12, 18].flatMap((y) => [9, 15].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.6" />))}
    </svg>
  );
}

function Arrow({ up }: { up: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={up ? 'M12 19V5M5 12l7-7 7 7' : 'M12 5v14M5 12l7 7 7-7'} />
    </svg>
  );
}

function PencilIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
    </svg>
  );
}

export function FeedRow({ feed, index, count, dragging, onToggle, onRename, onRemove, onMove, onDragStart }: FeedRowProps) {
  const { t } = useTranslation('feeds');
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<NameError | null>(null);
  const inputId = useId();
  const errorId = useId();
  const hintId = useId();
  const name = feed.name;
  const renameRef = useRef<HTMLButtonElement>(null);
  const [refocus, setRefocus] = useState(false);

  // Leaving the field must not drop focus onto the page: it goes back to the rename button.
  useEffect(() => {
    if (!refocus || draft !== null) return;
    renameRef.current?.focus();
    setRefocus(false);
  }, [refocus, draft]);

  const startEdit = () => {
    setDraft(name);
    setError(null);
  };
  const cancel = () => {
    setDraft(null);
    setError(null);
    setRefocus(true);
  };
  const save = () => {
    if (draft === null) return;
    const checked = checkFeedName(draft);
    // The typed text stays in the field so nothing is lost; only the message explains.
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    if (checked.name !== name) onRename(checked.name);
    cancel();
  };

  const onRowKey = (e: KeyboardEvent) => {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    const control = (e.target as HTMLElement).closest<HTMLElement>('[data-control]')?.dataset.control ?? 'handle';
    onMove(e.key === 'ArrowUp' ? -1 : 1, control);
  };

  return (
    <li className={`feedset-row${dragging ? ' is-dragging' : ''}${feed.enabled ? '' : ' is-off'}`} data-spec={feed.spec} onKeyDown={onRowKey}>
      <button
        type="button"
        className="feedset-row-handle"
        data-control="handle"
        aria-label={t('settings.dragLabel', { name })}
        title={t('settings.dragLabel', { name })}
        onPointerDown={onDragStart}
      >
        <HandleIcon />
      </button>
      <label className="feedset-toggle">
        <input type="checkbox" role="switch" data-control="toggle" checked={feed.enabled} onChange={(e) => onToggle(e.target.checked)} aria-label={t('settings.enabled', { name })} />
        <span className="feedset-toggle-track" aria-hidden="true" />
      </label>
      <div className="feedset-row-main">
        {draft === null ? (
          <>
            <span className="feedset-row-name">{name}</span>
            {!feed.enabled && <span className="feedset-row-badge">{t('settings.off')}</span>}
            {feed.description && <span className="feedset-row-desc">{feed.description}</span>}
          </>
        ) : (
          <div className="feedset-rename">
            <label htmlFor={inputId} className="visually-hidden">
              {t('settings.renameLabel', { name })}
            </label>
            <input
              id={inputId}
              className="form-input"
              value={draft}
              maxLength={MAX_FEED_NAME * 2}
              autoFocus
              aria-invalid={error !== null}
              aria-describedby={error ? `${errorId} ${hintId}` : hintId}
              onChange={(e) => {
                setDraft(e.target.value);
                if (error) setError(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  save();
                } else if (e.key === 'Escape') {
                  e.preventDefault();
                  e.stopPropagation();
                  cancel();
                }
              }}
            />
            <span id={hintId} className="form-hint">
              {t('settings.renameHint')}
            </span>
            {error && (
              <p id={errorId} className="form-error" role="alert">
                {error === 'empty' ? t('settings.nameEmpty') : t('settings.nameTooLong', { max: MAX_FEED_NAME })}
              </p>
            )}
            <div className="feedset-rename-actions">
              <button type="button" className="button" onClick={save}>
                {t('settings.save')}
              </button>
              <button type="button" className="button button-secondary" onClick={cancel}>
                {t('settings.cancel')}
              </button>
            </div>
          </div>
        )}
      </div>
      {draft === null && (
        <div className="feedset-row-actions">
          <button type="button" className="feedset-icon-button" data-control="up" disabled={index === 0} onClick={() => onMove(-1, 'up')} aria-label={t('settings.moveUpLabel', { name })} title={t('settings.moveUp')}>
            <Arrow up />
          </button>
          <button
            type="button"
            className="feedset-icon-button"
            data-control="down"
            disabled={index === count - 1}
            onClick={() => onMove(1, 'down')}
            aria-label={t('settings.moveDownLabel', { name })}
            title={t('settings.moveDown')}
          >
            <Arrow up={false} />
          </button>
          <button ref={renameRef} type="button" className="feedset-icon-button" data-control="rename" onClick={startEdit} aria-label={t('settings.renameAction', { name })} title={t('settings.rename')}>
            <PencilIcon />
          </button>
          <button type="button" className="feedset-icon-button feedset-danger" data-control="remove" onClick={onRemove} aria-label={t('settings.removeLabel', { name })} title={t('settings.remove')}>
            <TrashIcon />
          </button>
        </div>
      )}
    </li>
  );
}
