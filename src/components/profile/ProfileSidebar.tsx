/**
 * The profile's blocks in the shell's right sidebar (popular notes, latest reads), rendered
 * into its page slot so the shared Sidebar needs no knowledge of profiles.
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { FeedNote } from '../../../core/types';
import { formatCount } from '../../lib/format';
import { LikeIcon, ReadsIcon, ReplyIcon, TrendingIcon, ZapIcon } from '../Icons';
import { articleHref, noteHref } from '../../lib/links';

const SNIPPET_MAX = 150;

function snippet(content: string): string {
  const text = content
    .replace(/https?:\/\/\S+/g, '')
    .replace(/nostr:\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > SNIPPET_MAX ? `${text.slice(0, SNIPPET_MAX - 1)}…` : text;
}


function tag(n: FeedNote, name: string): string {
  return n.event.tags.find((t) => t[0] === name)?.[1]?.trim() ?? '';
}

function usePageSidebarSlot(): HTMLElement | null {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  useEffect(() => setSlot(document.getElementById('page-sidebar')), []);
  return slot;
}

export interface ProfileSidebarProps {
  notes: FeedNote[];
  articles: FeedNote[];
  loadingNotes: boolean;
  loadingArticles: boolean;
}

export function ProfileSidebar({ notes, articles, loadingNotes, loadingArticles }: ProfileSidebarProps) {
  const { t, i18n } = useTranslation('profile');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const slot = usePageSidebarSlot();
  if (!slot) return null;
  return createPortal(
    <>
      <section className="sidebar-card profile-side" aria-labelledby="profile-popular-title" aria-busy={loadingNotes}>
        <h2 id="profile-popular-title" className="sidebar-title">
          <TrendingIcon size={20} />
          {t('sidebar.popular')}
        </h2>
        {notes.length === 0 ? (
          <p className="sidebar-muted" role="status">
            {loadingNotes ? t('sidebar.loading') : t('sidebar.noPopular')}
          </p>
        ) : (
          <ol className="profile-side-list">
            {notes.map((n) => (
              <li key={n.key}>
                <Link href={noteHref(n.event)} className="profile-side-item">
                  <span className="profile-side-text">{snippet(n.event.content) || t('sidebar.mediaOnly')}</span>
                  <span className="profile-side-stats">
                    <span>
                      <ReplyIcon size={14} /> {formatCount(n.stats.replies, { compact: true, locale })}
                    </span>
                    <span>
                      <LikeIcon size={14} /> {formatCount(n.stats.likes, { compact: true, locale })}
                    </span>
                    <span>
                      <ZapIcon size={14} /> {formatCount(n.stats.satszapped, { compact: true, locale })}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section className="sidebar-card profile-side" aria-labelledby="profile-reads-title" aria-busy={loadingArticles}>
        <h2 id="profile-reads-title" className="sidebar-title">
          <ReadsIcon size={20} />
          {t('sidebar.reads')}
        </h2>
        {articles.length === 0 ? (
          <p className="sidebar-muted" role="status">
            {loadingArticles ? t('sidebar.loading') : t('sidebar.noReads')}
          </p>
        ) : (
          <ol className="profile-side-list">
            {articles.map((n) => (
              <li key={n.key}>
                <Link href={articleHref(n.event)} className="profile-side-item">
                  <span className="profile-side-title">{tag(n, 'title') || t('sidebar.untitled')}</span>
                  {tag(n, 'summary') && <span className="profile-side-text">{snippet(tag(n, 'summary'))}</span>}
                </Link>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>,
    slot,
  );
}
