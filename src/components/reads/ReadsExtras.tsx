import { useMemo } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { isNostrEvent, parseBundle } from '../../../core/bundle';
import { displayName, emptyProfile, parseProfile, toNpub } from '../../../core/profile';
import type { Profile } from '../../../core/types';
import { Avatar } from '../Avatar';
import { articleHref, articleInfo, parseStrings, parseTopPicks, syntheticContent } from './articleMeta';
import { readyEvents, useCacheRequest } from './useCache';
import { CacheKind } from '../../../core/kinds';

const FEATURED_ARTICLES = 3;
const DAY = 86_400;

/** get_reads_topics as chips; each opens /reads/{topic}. */
export function TopicChips({ current }: { current?: string }) {
  const { t } = useTranslation('reads');
  const { state } = useCacheRequest('get_reads_topics', undefined, 'topics');
  const topics = parseStrings(syntheticContent(readyEvents(state), CacheKind.READS_TOPICS));
  if (topics.length === 0) return null;
  return (
    <nav className="reads-topics" aria-label={t('topics.label')}>
      <ul>
        {topics.map((topic) => (
          <li key={topic}>
            <Link href={`/reads/${encodeURIComponent(topic)}`} className="chip reads-topic" aria-current={topic === current ? 'page' : undefined}>
              #{topic}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** get_recommended_reads: three picks of the day. */
export function TopPicks() {
  const { t } = useTranslation('reads');
  const { state } = useCacheRequest('get_recommended_reads', undefined, 'picks');
  const picks = parseTopPicks(syntheticContent(readyEvents(state), CacheKind.RECOMMENDED_READS));
  if (picks.length === 0) return null;
  return (
    <section className="reads-box reads-picks" aria-labelledby="reads-picks-title">
      <h2 className="reads-box-title" id="reads-picks-title">
        {t('picks.title')}
      </h2>
      <ol>
        {picks.map((p) => (
          <li key={p.naddr}>
            <Link href={`/a/${p.naddr}`}>{p.title || t('untitled')}</Link>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** One of get_featured_authors, a different one each day, with their latest articles. */
export function FeaturedAuthor() {
  const { t } = useTranslation('reads');
  const { state } = useCacheRequest('get_featured_authors', undefined, 'featured');
  const events = readyEvents(state);
  const authors = parseStrings(syntheticContent(events, CacheKind.FEATURED_AUTHORS));
  const pubkey = authors.length > 0 ? authors[Math.floor(Date.now() / 1000 / DAY) % authors.length] : undefined;
  const profile: Profile | undefined = useMemo(() => {
    if (!pubkey) return undefined;
    const ev = events.find((e) => isNostrEvent(e) && e.kind === 0 && e.pubkey === pubkey);
    return ev && isNostrEvent(ev) ? parseProfile(ev) : emptyProfile(pubkey);
  }, [events, pubkey]);
  const latest = useCacheRequest(
    pubkey ? 'long_form_content_feed' : null,
    pubkey ? { pubkey, notes: 'authored', limit: FEATURED_ARTICLES } : undefined,
    pubkey ?? '',
  ).state;
  const articles = useMemo(() => parseBundle(readyEvents(latest)).notes.slice(0, FEATURED_ARTICLES), [latest]);
  if (!profile) return null;
  const name = displayName(profile);
  const npub = profile.npub || toNpub(profile.pubkey);
  return (
    <section className="reads-box reads-featured" aria-labelledby="reads-featured-title">
      <h2 className="reads-box-title" id="reads-featured-title">
        {t('featured.title')}
      </h2>
      <Link href={`/p/${npub}`} className="reads-featured-author">
        <Avatar profile={profile} name={name} size={48} />
        <span className="reads-featured-name">{name}</span>
      </Link>
      {profile.about && <p className="reads-featured-about">{profile.about}</p>}
      {articles.length > 0 && (
        <>
          <h3 className="reads-featured-sub">{t('featured.latest')}</h3>
          <ul className="reads-featured-articles">
            {articles.map((a) => {
              const info = articleInfo(a);
              return (
                <li key={a.key}>
                  <Link href={articleHref(a)}>{info.title || t('untitled')}</Link>
                  <span className="reads-muted"> · {t('readingTime', { count: info.minutes })}</span>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
