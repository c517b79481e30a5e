/**
 * /settings/home_feeds and /settings/reads_feeds: the user's feed list. Every change goes through
 * settingsAction, which applies it at once in every tab and saves it to the server (retrying when
 * the save fails).
 */
import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedDefinition, FeedList } from '../../../core/types';
import { settingsAction } from '../../lib/account';
import { confirmDialog, openLogin, openOverlay } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { StatusMessage } from '../StatusMessage';
import { dropTarget, stepTarget } from './feedModel';
import { FeedRow } from './FeedRow';
import { useUserFeeds } from './useUserFeeds';
import './i18n';
import '../../styles/feeds.css';
import '../../styles/marketplace.css';

const SAVE_FAILED = 'Failed to save settings';
const LOAD_FAILED = 'settings-offline';

interface Drag {
  from: number;
  to: number;
  pointerId: number;
  rows: { top: number; height: number }[];
}

function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

export function FeedSettings({ list }: { list: FeedList }) {
  const { t } = useTranslation('feeds');
  const { canEdit, readOnly, feeds, loading, warning } = useUserFeeds(list);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  /** After a keyboard move the row is re-rendered elsewhere; focus follows it there. */
  const pendingFocus = useRef<{ spec: string; control: string } | null>(null);

  useEffect(() => {
    const pending = pendingFocus.current;
    if (!pending || !listRef.current) return;
    const row = [...listRef.current.querySelectorAll<HTMLElement>('li[data-spec]')].find((li) => li.dataset.spec === pending.spec);
    if (!row) return;
    pendingFocus.current = null;
    const target = row.querySelector<HTMLButtonElement>(`[data-control="${pending.control}"]:not(:disabled)`) ?? row.querySelector<HTMLElement>('[data-control="handle"]');
    target?.focus();
  }, [feeds]);

  const shown = useMemo(() => (feeds && drag && drag.to !== drag.from ? moved(feeds, drag.from, drag.to) : feeds), [feeds, drag]);

  if (!canEdit) {
    return (
      <StatusMessage
        title={readOnly ? t('settings.readOnly') : t('settings.signedOut')}
        action={
          readOnly ? undefined : (
            <button type="button" className="button" onClick={openLogin}>
              {t('settings.signIn')}
            </button>
          )
        }
      />
    );
  }
  if (loading || !feeds || !shown) {
    return (
      <p className="settings-loading feed-settings-loading" role="status" aria-busy="true">
        {t('settings.loading')}
      </p>
    );
  }

  const announceMove = (feed: FeedDefinition, to: number) =>
    setAnnouncement(t('settings.moved', { name: feed.name, position: to + 1, count: feeds.length }));

  const move = (index: number, delta: -1 | 1, control: string) => {
    const to = stepTarget(index, delta, feeds.length);
    if (to === undefined) return;
    const feed = feeds[index];
    pendingFocus.current = { spec: feed.spec, control };
    void settingsAction({ type: 'moveFeed', list, from: index, to });
    announceMove(feed, to);
  };

  const startDrag = (index: number, e: PointerEvent<HTMLButtonElement>) => {
    if (e.button !== 0 || !listRef.current) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    const rows = [...listRef.current.querySelectorAll<HTMLElement>('li[data-spec]')].map((li) => {
      const r = li.getBoundingClientRect();
      return { top: r.top, height: r.height };
    });
    setDrag({ from: index, to: index, pointerId: e.pointerId, rows });
  };

  const onPointerMove = (e: PointerEvent) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const to = dropTarget(drag.from, e.clientY, drag.rows);
    if (to !== drag.to) setDrag({ ...drag, to });
  };

  const endDrag = (e: PointerEvent, cancelled: boolean) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    setDrag(null);
    if (cancelled || drag.to === drag.from) return;
    const feed = feeds[drag.from];
    void settingsAction({ type: 'moveFeed', list, from: drag.from, to: drag.to });
    announceMove(feed, drag.to);
  };

  const remove = async (feed: FeedDefinition) => {
    const ok = await confirmDialog({
      title: t('settings.removeTitle'),
      message: t(list === 'home' ? 'settings.removeHome' : 'settings.removeReads', { name: feed.name }),
      confirmLabel: t('settings.remove'),
      danger: true,
    });
    if (!ok) return;
    const result = await settingsAction({ type: 'removeFeed', list, spec: feed.spec });
    if (result.ok) toastSuccess(t(list === 'home' ? 'toast.removedHome' : 'toast.removedReads'));
    else toastError(t('toast.failed'));
  };

  const restore = async () => {
    const ok = await confirmDialog({
      title: t('settings.restoreTitle'),
      message: t(list === 'home' ? 'settings.restoreHome' : 'settings.restoreReads'),
      confirmLabel: t('settings.restoreConfirm'),
      danger: true,
    });
    if (!ok) return;
    const result = await settingsAction({ type: 'restoreDefaultFeeds', list });
    // A save that is still being retried is not a failed restore: the defaults are in place here.
    if (result.ok || result.code === SAVE_FAILED) toastSuccess(t('settings.restored'));
    else toastError(t('settings.restoreFailed'));
  };

  const dragged = drag ? feeds[drag.from] : undefined;

  return (
    <section className="feed-settings" aria-labelledby="feed-settings-title">
      <h2 id="feed-settings-title" className="visually-hidden">
        {t(`lists.${list}`)}
      </h2>
      <p className="feed-settings-intro">{t('settings.intro')}</p>
      {warning === SAVE_FAILED && (
        <p className="feed-settings-warning" role="status">
          {t('settings.saveFailed')}
        </p>
      )}
      {warning === LOAD_FAILED && (
        <p className="feed-settings-warning" role="status">
          {t('settings.offline')}
        </p>
      )}
      <div className="feed-settings-toolbar">
        <button type="button" className="button" onClick={() => openOverlay({ kind: 'marketplace', list })}>
          {t('settings.add')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => void restore()}>
          {t('settings.restore')}
        </button>
      </div>
      {shown.length === 0 ? (
        <StatusMessage title={t('settings.empty')}>{t('settings.emptyHint')}</StatusMessage>
      ) : (
        <ol
          ref={listRef}
          className={`feedset-rows${drag ? ' is-sorting' : ''}`}
          aria-label={t('settings.listLabel')}
          onPointerMove={onPointerMove}
          onPointerUp={(e) => endDrag(e, false)}
          onPointerCancel={(e) => endDrag(e, true)}
        >
          {shown.map((feed, i) => {
            const index = feeds.indexOf(feed);
            return (
              <FeedRow
                key={feed.spec}
                feed={feed}
                index={i}
                count={shown.length}
                dragging={feed === dragged}
                onToggle={(enabled) => void settingsAction({ type: 'enableFeed', list, spec: feed.spec, enabled })}
                onRename={(name) => void settingsAction({ type: 'renameFeed', list, spec: feed.spec, name })}
                onRemove={() => void remove(feed)}
                onMove={(delta, control) => move(index, delta, control)}
                onDragStart={(e) => startDrag(index, e)}
              />
            );
          })}
        </ol>
      )}
      <p className="visually-hidden" aria-live="polite" role="status">
        {announcement}
      </p>
    </section>
  );
}
