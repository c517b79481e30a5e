import { useCallback, useEffect, useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import type { FeedNote, ReactionCounts, ReactionEntry, ReactionTab } from '../../core/types';
import { displayName } from '../../core/profile';
import { formatCount, formatRelativeTime } from '../lib/format';
import { useNow } from '../lib/hooks';
import { mediaUrl } from '../lib/media';
import { NOTE_NS } from '../lib/noteI18n';
import { connect } from '../worker-client';
import { useWorkerRequest } from '../lib/useWorkerRequest';
import { FollowButton } from './actions/FollowButton';
import { Avatar } from './Avatar';
import { Modal } from './Modal';
import { LikeIcon, RepostIcon, ZapIcon } from './Icons';
import { NoteCard } from './NoteCard';
import { TabStrip } from './TabStrip';
import '../styles/note-reactions.css';
import { profileHref } from '../lib/links';
import { MemberBadge } from './MemberBadge';

const TABS: ReactionTab[] = ['reactions', 'likes', 'zaps', 'reposts', 'quotes'];

interface TabState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  items: ReactionEntry[];
  notes: FeedNote[];
  offset: number;
  hasMore: boolean;
}

const EMPTY: TabState = { status: 'idle', items: [], notes: [], offset: 0, hasMore: true };

/** Counts the stats already know, refined by the worker's count of likes and quotes. */
function tabCounts(note: FeedNote, extra: ReactionCounts | null): Partial<Record<ReactionTab, number>> {
  const quotes = extra?.quotes;
  return {
    reactions: extra?.complete ? extra.reactions : note.stats.likes,
    likes: extra?.likes,
    zaps: note.stats.zaps,
    // The server counts a quote as a repost as well.
    reposts: quotes === undefined ? undefined : Math.max(0, note.stats.reposts - quotes),
    quotes,
  };
}

function ReactionGlyph({ entry }: { entry: ReactionEntry }) {
  const { t } = useTranslation(NOTE_NS);
  if (entry.emojiUrl) return <img className="reaction-emoji-image" src={mediaUrl(entry.emojiUrl, 's')} alt={entry.content} width={22} height={22} />;
  if (entry.content === '+' || entry.content === '') {
    return (
      <span className="reaction-like" title={t('reactions.like')}>
        <LikeIcon size={18} />
        <span className="visually-hidden">{t('reactions.like')}</span>
      </span>
    );
  }
  // A reaction is one emoji; anything longer is cut so a hostile reaction cannot fill the row.
  return <span className="reaction-emoji">{Array.from(entry.content).slice(0, 4).join('')}</span>;
}

function EntryRow({ entry, tab }: { entry: ReactionEntry; tab: ReactionTab }) {
  const { t, i18n } = useTranslation(NOTE_NS);
  const now = useNow();
  const name = displayName(entry.profile);
  const locale = i18n.resolvedLanguage ?? 'hu';
  return (
    <li className="reaction-row" data-pubkey={entry.pubkey}>
      <Avatar profile={entry.profile} name={name} size={36} />
      <span className="reaction-who">
        <Link className="reaction-name" href={profileHref({ pubkey: entry.pubkey, npub: entry.profile.npub })}>
          {name}
        </Link>
        <MemberBadge profile={entry.profile} />
        {tab === 'zaps' && entry.content && <span className="reaction-message">{entry.content}</span>}
        {tab !== 'zaps' && entry.created_at > 0 && <span className="reaction-time">{formatRelativeTime(entry.created_at, now, locale)}</span>}
      </span>
      <span className="reaction-what">
        {tab === 'zaps' ? (
          <span className="reaction-zap">
            <ZapIcon size={16} />
            {t('reactions.sats', { amount: formatCount(entry.amount ?? 0, { locale }) })}
          </span>
        ) : tab === 'reposts' ? (
          <RepostIcon size={18} />
        ) : (
          <ReactionGlyph entry={entry} />
        )}
      </span>
      <FollowButton pubkey={entry.pubkey} name={name} className="reaction-follow" />
    </li>
  );
}

/** Who reacted, liked, zapped, reposted and quoted one note; a modal dialog with a paged list per tab. */
export default function ReactionsModal({ note, initialTab, onClose }: { note: FeedNote; initialTab: ReactionTab; onClose: () => void }) {
  const { t } = useTranslation(NOTE_NS);
  const ids = useId();
  const [tab, setTab] = useState<ReactionTab>(initialTab);
  const [tabs, setTabs] = useState<Partial<Record<ReactionTab, TabState>>>({});
  const eventId = note.event.id;
  const extra = useWorkerRequest((api) => api.reactionCounts(eventId), [eventId]).data ?? null;
  const counts = tabCounts(note, extra);

  const load = useCallback(
    (which: ReactionTab, offset: number) => {
      setTabs((prev) => ({ ...prev, [which]: { ...(prev[which] ?? EMPTY), status: 'loading' } }));
      connect()
        .then((api) => api.loadReactions(eventId, which, offset))
        .then((page) => {
          setTabs((prev) => {
            const before = offset === 0 ? EMPTY : (prev[which] ?? EMPTY);
            return {
              ...prev,
              [which]: {
                status: 'ready',
                items: [...before.items, ...page.items],
                notes: [...before.notes, ...page.notes],
                offset: page.nextOffset,
                hasMore: page.hasMore,
              },
            };
          });
        })
        .catch(() => setTabs((prev) => ({ ...prev, [which]: { ...(prev[which] ?? EMPTY), status: 'error' } })));
    },
    [eventId],
  );

  const current = tabs[tab] ?? EMPTY;
  useEffect(() => {
    if (!tabs[tab]) load(tab, 0);
  }, [tab, tabs, load]);

  const empty = current.status === 'ready' && !current.hasMore && current.items.length === 0 && current.notes.length === 0;
  return createPortal(
    <Modal
      title={t('reactions.title')}
      onClose={onClose}
      className="reactions-modal"
      toolbar={
        <TabStrip
          tabs={TABS}
          selected={tab}
          onSelect={setTab}
          label={t('reactions.title')}
          className="reactions-tabs"
          tabClassName="tab reactions-tab"
          tabId={(name) => `${ids}-tab-${name}`}
          panelId={() => `${ids}-panel`}
        >
          {(name) => (
            <>
              {t(`reactions.tabs.${name}`)}
              {counts[name] !== undefined && <span className="reactions-count">{formatCount(counts[name] ?? 0)}</span>}
            </>
          )}
        </TabStrip>
      }
    >
      <div className="reactions-body" role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-tab-${tab}`} aria-busy={current.status === 'loading'}>
        {tab === 'quotes' ? (
          <div className="reactions-quotes">
            {current.notes.map((n) => (
              <NoteCard key={n.key} note={n} />
            ))}
          </div>
        ) : (
          current.items.length > 0 && (
            <ul className="reactions-list" aria-label={t('reactions.listLabel', { tab: t(`reactions.tabs.${tab}`) })}>
              {current.items.map((entry) => (
                <EntryRow key={entry.id} entry={entry} tab={tab} />
              ))}
            </ul>
          )
        )}
        {empty && <p className="reactions-state">{t(`reactions.empty.${tab}`)}</p>}
        {current.status === 'loading' && (
          <p className="reactions-state" role="status">
            {t('reactions.loading')}
          </p>
        )}
        {current.status === 'error' && (
          <div className="reactions-state" role="alert">
            <p>{t('reactions.error')}</p>
            <button type="button" className="reactions-more" onClick={() => load(tab, current.offset)}>
              {t('reactions.retry')}
            </button>
          </div>
        )}
        {current.status === 'ready' && current.hasMore && (
          <button type="button" className="reactions-more" onClick={() => load(tab, current.offset)}>
            {t('reactions.more')}
          </button>
        )}
      </div>
    </Modal>,
    document.body,
  );
}
