/**
 * The note card's action row: reply, repost or quote, like, zap count and bookmark. Each icon
 * acts; each count beside it opens the reactions modal on its tab, as the read-only counts do.
 * The viewer's own actions are highlighted and counted at once; guests get the login modal.
 */
import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { displayName } from '../../../core/profile';
import type { FeedNote, ReactionTab } from '../../../core/types';
import { useActingPubkey } from '../../lib/account';
import { formatCount } from '../../lib/format';
import { NOTE_NS, useCardT } from '../../lib/noteI18n';
import { openComposer, openLogin } from '../../lib/overlays';
import { BookmarkIcon, LikeIcon, ReplyIcon, RepostIcon } from '../Icons';
import { ACTIONS_NS, likeNote, noteZapTarget, toggleBookmark, useNoteViewer } from './state';
import { ZapButton } from './ZapButton';
import '../../styles/actions.css';

const RepostMenu = lazy(() => import('./RepostMenu'));

type CountKind = 'likes' | 'reposts' | 'zaps';
const TAB_OF: Record<CountKind, ReactionTab> = { likes: 'reactions', reposts: 'reposts', zaps: 'zaps' };

export function NoteActionBar({ note, onOpen }: { note: FeedNote; onOpen: (tab: ReactionTab) => void }) {
  const { t, i18n } = useCardT();
  const { t: tn } = useCardT(NOTE_NS);
  const { t: ta } = useCardT(ACTIONS_NS);
  const acting = useActingPubkey();
  const viewer = useNoteViewer(note);
  const { stats } = viewer;
  const [repostOpen, setRepostOpen] = useState(false);
  const repostButton = useRef<HTMLButtonElement>(null);
  const locale = i18n.resolvedLanguage;

  /** Spec §6: a visitor can browse but not act. */
  const act = (run: () => void) => () => (acting ? run() : openLogin());

  const labelOf = (kind: CountKind | 'replies', active: boolean) => {
    const value = kind === 'zaps' ? stats.satszapped : stats[kind];
    const formatted = formatCount(value, { locale });
    const label =
      kind === 'zaps'
        ? t('note.stats.zaps', { count: stats.zaps, sats: formatted, formatted: formatCount(stats.zaps) })
        : t(`note.stats.${kind}`, { count: value, formatted });
    return { value, formatted, label, full: `${label}${active ? ` ${t(`note.stats.own.${kind}`)}` : ''}` };
  };

  const count = (kind: CountKind, active: boolean, icon?: ReactNode) => {
    const { value, formatted, label, full } = labelOf(kind, active);
    // A zero count has nothing to list; the icon beside it stays the way to act.
    if (value <= 0 && !icon) return <span className={`note-stat note-stat-${kind}${active ? ' is-active' : ''}`} data-count={value} />;
    return (
      <span className={`note-stat note-stat-${kind}${active ? ' is-active' : ''}`} data-count={value} title={label}>
        <button type="button" className="note-stat-button" aria-label={tn('stats.open', { label: full })} aria-haspopup="dialog" onClick={() => onOpen(TAB_OF[kind])}>
          {icon}
          <span aria-hidden="true">{value > 0 ? formatted : ''}</span>
        </button>
      </span>
    );
  };

  const replies = labelOf('replies', viewer.replied);
  return (
    <ul className="note-stats note-bar" aria-label={ta('bar.label')}>
      <li className={`note-bar-item note-stat note-stat-replies${viewer.replied ? ' is-active' : ''}`} data-count={stats.replies}>
        <button
          type="button"
          className="note-act note-act-reply"
          aria-label={stats.replies > 0 ? ta('bar.replyWithCount', { label: replies.full }) : ta('bar.reply')}
          title={ta('bar.reply')}
          aria-haspopup="dialog"
          onClick={act(() => openComposer({ replyTo: note }))}
        >
          <ReplyIcon size={18} />
          <span aria-hidden="true">{stats.replies > 0 ? replies.formatted : ''}</span>
        </button>
      </li>
      <li className={`note-bar-item note-bar-reposts${viewer.reposted ? ' is-active' : ''}`}>
        <button
          ref={repostButton}
          type="button"
          className="note-act note-act-repost"
          aria-label={ta('bar.repost')}
          title={ta('bar.repost')}
          aria-haspopup="menu"
          aria-expanded={repostOpen}
          onClick={act(() => setRepostOpen((o) => !o))}
        >
          <RepostIcon size={18} />
        </button>
        {count('reposts', viewer.reposted)}
        {repostOpen && (
          <Suspense fallback={null}>
            <RepostMenu note={note} anchor={repostButton} onClose={() => setRepostOpen(false)} />
          </Suspense>
        )}
      </li>
      <li className={`note-bar-item note-bar-likes${viewer.liked ? ' is-active' : ''}`}>
        <button
          type="button"
          className="note-act note-act-like"
          aria-label={ta('bar.like')}
          title={ta('bar.like')}
          aria-pressed={viewer.liked}
          onClick={act(() => void likeNote(note, viewer.liked))}
        >
          <LikeIcon size={18} />
        </button>
        {count('likes', viewer.liked)}
      </li>
      <li className={`note-bar-item note-bar-zaps${viewer.zapped ? ' is-active' : ''}`}>
        <ZapButton target={noteZapTarget(note)} name={displayName(note.author)} />
        {count('zaps', viewer.zapped)}
      </li>
      <li className={`note-bar-item note-bar-bookmark${viewer.bookmarked ? ' is-active' : ''}`}>
        <button
          type="button"
          className="note-act note-act-bookmark"
          aria-label={ta('bar.bookmark')}
          title={viewer.bookmarked ? ta('bar.bookmarkRemove') : ta('bar.bookmarkAdd')}
          aria-pressed={viewer.bookmarked}
          onClick={act(() => void toggleBookmark(note, viewer.bookmarked))}
        >
          <BookmarkIcon size={18} />
        </button>
      </li>
    </ul>
  );
}
