import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { neventEncode } from 'nostr-tools/nip19';
import type { CacheObject, NostrEvent, Profile } from '../../core/types';
import { displayName, emptyProfile, parseProfile } from '../../core/profile';
import { connect } from '../worker-client';
import { Avatar } from './Avatar';
import { TrendingIcon } from './Icons';

const SHOWN = 5;
const SNIPPET_MAX = 140;

interface TrendingItem {
  event: NostrEvent;
  author: Profile;
}

type State = { status: 'loading' } | { status: 'ready'; items: TrendingItem[] } | { status: 'error' };

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

function href(event: NostrEvent): string {
  try {
    return `/e/${neventEncode({ id: event.id, author: event.pubkey })}`;
  } catch {
    return `/e/${event.id}`;
  }
}

export default function Trending() {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    connect()
      .then((api) => api.request('scored', { selector: 'trending_24h' }))
      .then((reply) => {
        if (!live) return;
        // A NOTICE answer carries no notes; it reads as an empty list, never as a retry trigger.
        setState({ status: 'ready', items: reply.notice ? [] : toItems(reply.events) });
      })
      .catch(() => {
        if (live) setState({ status: 'error' });
      });
    return () => {
      live = false;
    };
  }, []);

  return (
    <section className="sidebar-card" aria-labelledby="trending-title">
      <h2 id="trending-title" className="sidebar-title">
        <TrendingIcon size={20} />
        {t('trending.title')}
      </h2>
      <p className="sidebar-subtitle">{t('trending.subtitle')}</p>
      {state.status === 'loading' && (
        <p className="sidebar-muted" role="status">
          {t('trending.loading')}
        </p>
      )}
      {state.status === 'error' && <p className="sidebar-muted">{t('trending.error')}</p>}
      {state.status === 'ready' && state.items.length === 0 && <p className="sidebar-muted">{t('trending.empty')}</p>}
      {state.status === 'ready' && state.items.length > 0 && (
        <ol className="trending-list">
          {state.items.map(({ event, author }) => {
            const name = displayName(author);
            const text = snippet(event.content);
            return (
              <li key={event.id}>
                <Link href={href(event)} className="trending-item">
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
