/** The people, zaps, media and topics tabs of /explore. */
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { neventEncode } from 'nostr-tools/nip19';
import type { ExplorePerson, ExploreZap, FeedNote, StruccApi } from '../../../core/types';
import { displayName } from '../../../core/profile';
import { formatCount } from '../../lib/format';
import { isImageUrl } from '../../lib/content';
import { mediaUrl } from '../../lib/media';
import { useFeed } from '../../lib/useFeed';
import type { Api } from '../../worker-client';
import { Avatar } from '../Avatar';
import { FollowButton } from '../actions/FollowButton';
import { ZapIcon } from '../Icons';
import { StatusMessage, RetryMessage } from '../StatusMessage';
import { useLoad, usePaged, type Paged } from './useExplore';

type ExploreRemote = Required<Pick<StruccApi, 'explorePeople' | 'exploreZaps' | 'exploreTopics'>>;
const remote = (api: Api) => api as unknown as ExploreRemote;

/** Spec §9: explore people 10 a page, media 20. */
const PEOPLE_PAGE = 10;
const ZAPS_PAGE = 20;

export function noteHref(note: FeedNote): string {
  try {
    return `/e/${neventEncode({ id: note.event.id, author: note.event.pubkey })}`;
  } catch {
    return `/e/${note.event.id}`;
  }
}

function profileHref(p: { npub: string; pubkey: string }): string {
  return `/p/${p.npub || p.pubkey}`;
}

function ListState<T>({ paged, empty, children }: { paged: Paged<T>; empty: string; children: React.ReactNode }) {
  const { t } = useTranslation('explore');
  if (paged.status === 'error' && paged.items.length === 0) {
    return (
      <RetryMessage title={t('listError')} retryLabel={t('retry')} onRetry={paged.retry} />
    );
  }
  if (paged.status === 'loading') {
    return (
      <p className="explore-loading" role="status">
        {t('loading')}
      </p>
    );
  }
  if (paged.items.length === 0) return <StatusMessage title={empty} />;
  return (
    <>
      {children}
      {paged.hasMore && (
        <div className="explore-more">
          <button type="button" className="button button-secondary" onClick={paged.loadMore} disabled={paged.status === 'loadingMore'}>
            {paged.status === 'loadingMore' ? t('loading') : t('more')}
          </button>
        </div>
      )}
    </>
  );
}

export function ExplorePeople({ viewer }: { viewer: string | undefined }) {
  const { t } = useTranslation('explore');
  const paged = usePaged<ExplorePerson>(
    `people:${viewer ?? ''}`,
    PEOPLE_PAGE,
    (api, offset, limit) => remote(api).explorePeople({ offset, limit }, viewer),
    (p) => p.profile.pubkey,
  );
  return (
    <ListState paged={paged} empty={t('people.empty')}>
      <ul className="people-list" aria-label={t('people.label')}>
        {paged.items.map(({ profile, increase, followers }) => {
          const name = displayName(profile);
          return (
            <li key={profile.pubkey} className="person-row" data-pubkey={profile.pubkey}>
              <Link href={profileHref(profile)} className="person-avatar" tabIndex={-1} aria-hidden="true">
                <Avatar profile={profile} name={name} size={48} />
              </Link>
              <div className="person-body">
                <Link href={profileHref(profile)} className="person-name">
                  {name}
                </Link>
                {profile.nip05 && <span className="person-nip05">{profile.nip05}</span>}
                {profile.about && <p className="person-about">{profile.about}</p>}
              </div>
              <div className="person-stats">
                <span className="person-gain">{t('people.gain', { count: increase, formatted: formatCount(increase) })}</span>
                <span className="person-followers">{t('people.followers', { count: followers, formatted: formatCount(followers) })}</span>
              </div>
              <FollowButton pubkey={profile.pubkey} name={name} className="person-follow" />
            </li>
          );
        })}
      </ul>
    </ListState>
  );
}

function excerpt(text: string, max = 180): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function ExploreZaps({ viewer }: { viewer: string | undefined }) {
  const { t } = useTranslation('explore');
  const paged = usePaged<ExploreZap>(`zaps:${viewer ?? ''}`, ZAPS_PAGE, (api, offset, limit) => remote(api).exploreZaps({ offset, limit }, viewer), (z) => z.id);
  return (
    <ListState paged={paged} empty={t('zaps.empty')}>
      <ul className="zap-list" aria-label={t('zaps.label')}>
        {paged.items.map((zap) => {
          const from = displayName(zap.sender);
          const to = displayName(zap.receiver);
          return (
            <li key={zap.id} className="zap-row" data-zap-id={zap.id}>
              <div className="zap-head">
                <Link href={profileHref(zap.sender)} className="zap-person">
                  <Avatar profile={zap.sender} name={from} size={36} />
                  <span>{from}</span>
                </Link>
                <span className="zap-amount">
                  <ZapIcon size={16} />
                  {t('zaps.amount', { formatted: formatCount(zap.amount), count: zap.amount })}
                </span>
                <span className="zap-arrow" aria-hidden="true">
                  →
                </span>
                <Link href={profileHref(zap.receiver)} className="zap-person">
                  <Avatar profile={zap.receiver} name={to} size={28} />
                  <span>{to}</span>
                </Link>
              </div>
              <p className="visually-hidden">{t('zaps.summary', { from, to, formatted: formatCount(zap.amount) })}</p>
              {zap.message && <p className="zap-message">„{zap.message}”</p>}
              {zap.note && (
                <Link href={noteHref(zap.note)} className="zap-note">
                  <span className="visually-hidden">{t('zaps.openNote')}</span>
                  {excerpt(zap.note.event.content.replace(/https?:\/\/\S+/g, "")) || t("zaps.noteWithoutText")}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </ListState>
  );
}

/** The first picture of a note: its imeta url, else the first image link in the text. */
export function firstImage(note: FeedNote): string | undefined {
  for (const tag of note.event.tags) {
    if (tag[0] !== 'imeta') continue;
    const url = tag.find((v) => v.startsWith('url '))?.slice(4);
    if (url && isImageUrl(url)) return url;
  }
  return note.event.content.match(/https?:\/\/[^\s<>"]+/g)?.find(isImageUrl);
}

export const MEDIA_SPEC = JSON.stringify(['explore_media', {}]);

export function ExploreMedia() {
  const { t } = useTranslation('explore');
  const { snapshot, loadMore, retry } = useFeed(MEDIA_SPEC);
  const items = (snapshot?.notes ?? []).map((note) => ({ note, url: firstImage(note) })).filter((i): i is { note: FeedNote; url: string } => !!i.url);
  if (snapshot?.status === 'error' && items.length === 0) {
    return (
      <RetryMessage title={t('listError')} retryLabel={t('retry')} onRetry={retry} />
    );
  }
  if (!snapshot || snapshot.status === 'loading' || snapshot.status === 'idle') {
    return (
      <p className="explore-loading" role="status">
        {t('loading')}
      </p>
    );
  }
  if (items.length === 0) return <StatusMessage title={t('media.empty')} />;
  return (
    <>
      <ul className="media-grid" aria-label={t('media.label')}>
        {items.map(({ note, url }) => {
          const name = displayName(note.author);
          const text = excerpt(note.event.content.replace(/https?:\/\/\S+/g, ''), 120);
          return (
            <li key={note.key} data-note-id={note.event.id}>
              <Link href={noteHref(note)} className="media-tile">
                <img src={mediaUrl(url, 'm')} alt={text ? t('media.altText', { name, text }) : t('media.alt', { name })} loading="lazy" decoding="async" />
              </Link>
            </li>
          );
        })}
      </ul>
      {snapshot.hasMore && (
        <div className="explore-more">
          <button type="button" className="button button-secondary" onClick={loadMore} disabled={snapshot.status === 'loadingMore'}>
            {snapshot.status === 'loadingMore' ? t('loading') : t('more')}
          </button>
        </div>
      )}
    </>
  );
}

export function ExploreTopics() {
  const { t } = useTranslation('explore');
  const { state, retry } = useLoad('topics', (api) => remote(api).exploreTopics());
  if (state.status === 'error') {
    return (
      <RetryMessage title={t('listError')} retryLabel={t('retry')} onRetry={retry} />
    );
  }
  if (state.status === 'loading') {
    return (
      <p className="explore-loading" role="status">
        {t('loading')}
      </p>
    );
  }
  const topics = state.value;
  if (topics.length === 0) return <StatusMessage title={t('topics.empty')} />;
  const max = Math.log(topics[0].count + 1);
  const min = Math.log(topics[topics.length - 1].count + 1);
  return (
    <ul className="topic-cloud" aria-label={t('topics.label')}>
      {topics.map(({ tag, count }) => {
        const weight = max > min ? (Math.log(count + 1) - min) / (max - min) : 1;
        return (
          <li key={tag}>
            <Link
              href={`/search/${encodeURIComponent(`#${tag}`)}`}
              className="topic-chip"
              style={{ fontSize: `${(0.85 + weight * 0.75).toFixed(2)}rem` }}
            >
              #{tag}
              <span className="topic-count" aria-hidden="true">
                {count}
              </span>
              <span className="visually-hidden">{t('topics.count', { count })}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
