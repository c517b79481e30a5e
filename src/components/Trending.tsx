import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { CacheObject, NostrEvent, Profile } from '../../core/types';
import { displayName, emptyProfile, parseProfile } from '../../core/profile';
import { useWorkerRequest } from '../lib/useWorkerRequest';
import { Avatar } from './Avatar';
import { TrendingIcon } from './Icons';
import { noteHref } from '../lib/links';

const SHOWN = 5;
const SNIPPET_MAX = 140;

interface TrendingItem {
  event: NostrEvent;
  author: Profile;
}

function isEvent(o: CacheObject): o is CacheObject & NostrEvent {
  return typeof o.id === 'string' && typeof o.pubkey === 'string' && typeof o.created_at === 'number' && typeof o.content === 'string';
}

function toItems(objects: CacheObject[]): TrendingItem[] {
  const profiles = new Map<string, Profile>();
  const notes: NostrEvent[] = [];
  for (const o of objects) {
    if (!isEvent(o)) continue;
    if (o.kind === 0) profiles.set(o.pubkey, parseProfile(o));
    else if (o.kind === 1) notes.push(o);
  }
  return notes.slice(0, SHOWN).map((event) => ({ event, author: profiles.get(event.pubkey) ?? emptyProfile(event.pubkey) }));
}

function snippet(content: string): string {
  const text = content
    .replace(/https?:\/\/\S+/g, '')
    .replace(/nostr:\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > SNIPPET_MAX ? `${text.slice(0, SNIPPET_MAX - 1)}…` : text;
}

export default function Trending() {
  const { t } = useTranslation();
  // A NOTICE answer carries no notes; it reads as an empty list, never as a retry trigger.
  const { data: items, error } = useWorkerRequest((api) => api.request('scored', { selector: 'trending_24h' }).then((reply) => (reply.notice ? [] : toItems(reply.events))), []);

  return (
    <section className="sidebar-card" aria-labelledby="trending-title" aria-busy={!items && !error}>
      <h2 id="trending-title" className="sidebar-title">
        <TrendingIcon size={20} />
        {t('trending.title')}
      </h2>
      <p className="sidebar-subtitle">{t('trending.subtitle')}</p>
      {!items && !error && (
        <p className="sidebar-muted" role="status">
          {t('trending.loading')}
        </p>
      )}
      {!!error && <p className="sidebar-muted">{t('trending.error')}</p>}
      {items?.length === 0 && <p className="sidebar-muted">{t('trending.empty')}</p>}
      {items && items.length > 0 && (
        <ol className="trending-list">
          {items.map(({ event, author }) => {
            const name = displayName(author);
            const text = snippet(event.content);
            return (
              <li key={event.id}>
                <Link href={noteHref(event)} className="trending-item">
                  <Avatar profile={author} name={name} size={32} />
                  <span className="trending-body">
                    <span className="trending-name">{name}</span>
                    <span className="trending-text">{text || t('trending.imageOnly')}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
