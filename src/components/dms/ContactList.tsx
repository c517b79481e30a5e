/** The left column: relation tabs, mark-all-read, the people search and the paged contact list. */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DmContact, DmRelation, DmSnapshot, Profile } from '../../../core/types';
import { displayName, toNpub } from '../../../core/profile';
import { formatBadgeCount, formatFullDate, formatRelativeTime } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { Avatar } from '../Avatar';
import { TabStrip } from '../TabStrip';
import { RetryMessage, StatusMessage } from '../StatusMessage';
import { useUserSearch } from '../search/useUserSearch';
import { DMS_NS } from './ns';
import { MemberBadge } from '../MemberBadge';

export const RELATIONS: readonly DmRelation[] = ['any', 'follows', 'other'];

/** One line of text for the list: the first line of the message, trimmed. */
function previewText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function ContactRow({ contact, me, selected, onSelect }: { contact: DmContact; me: string; selected: boolean; onSelect: (pubkey: string) => void }) {
  const { t, i18n } = useTranslation(DMS_NS);
  const now = useNow();
  const locale = i18n.resolvedLanguage ?? 'hu';
  const name = displayName(contact.user);
  const cnt = contact.dmInfo.cnt;
  const at = contact.dmInfo.latest_at;
  let preview = t('noPreview');
  if (contact.preview !== undefined) preview = (contact.latestSender ?? contact.latest?.pubkey) === me ? t('youPrefix', { text: previewText(contact.preview) }) : previewText(contact.preview);
  return (
    <li>
      <button
        type="button"
        className="dm-contact"
        data-pubkey={contact.pubkey}
        data-unread={cnt}
        data-private={contact.latestPrivate ? 'true' : undefined}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(contact.pubkey)}
      >
        <Avatar profile={contact.user} name={name} size={44} />
        <span className="dm-contact-main">
          <span className="dm-contact-top">
            <span className="dm-contact-name">
              {name}
              <MemberBadge profile={contact.user} />
            </span>
            {at > 0 && (
              <time className="dm-contact-time" dateTime={new Date(at * 1000).toISOString()} title={formatFullDate(at, locale)}>
                {formatRelativeTime(at, now, locale)}
              </time>
            )}
          </span>
          <span className="dm-contact-bottom">
            <span className="dm-contact-preview">
              {contact.latestPrivate && <span className="visually-hidden">{t('privateMark')}: </span>}
              {preview}
            </span>
            {cnt > 0 && (
              <span className="dm-unread">
                <span aria-hidden="true">{formatBadgeCount(cnt)}</span>
                <span className="visually-hidden">{t('unread', { count: cnt })}</span>
              </span>
            )}
          </span>
        </span>
      </button>
    </li>
  );
}

/** user_search through the worker: choosing someone opens (or starts) the conversation with them. */
export function PeopleSearch({ onPick }: { onPick: (profile: Profile) => void }) {
  const { t } = useTranslation(DMS_NS);
  const id = useId();
  const [query, setQuery] = useState('');
  const search = useUserSearch(query);
  let status: string | null = null;
  if (query.trim() !== '') {
    if (search.failed) status = t('search.failed');
    else if (search.users.length === 0) status = search.loading || search.term === '' ? t('search.searching') : t('search.none');
  }
  return (
    <div className="dm-search">
      <label htmlFor={`${id}-q`} className="visually-hidden">
        {t('search.label')}
      </label>
      <input
        id={`${id}-q`}
        type="search"
        className="form-input dm-search-input"
        placeholder={t('search.placeholder')}
        value={query}
        autoComplete="off"
        onChange={(e) => setQuery(e.target.value)}
      />
      {status && (
        <p className="dm-search-status" role="status">
          {status}
        </p>
      )}
      {query.trim() !== '' && search.users.length > 0 && (
        <ul className="dm-search-results" aria-label={t('search.results')}>
          {search.users.map((user) => {
            const name = displayName(user);
            return (
              <li key={user.pubkey}>
                <button
                  type="button"
                  className="dm-search-result"
                  data-pubkey={user.pubkey}
                  onClick={() => {
                    setQuery('');
                    onPick(user);
                  }}
                >
                  <Avatar profile={user} name={name} size={32} />
                  <span className="dm-contact-name">{name}</span>
                  <span className="dm-search-npub">{toNpub(user.pubkey).slice(0, 16)}…</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

export interface ContactListProps {
  snapshot: DmSnapshot;
  me: string;
  onRelation: (relation: DmRelation) => void;
  onSelect: (pubkey: string) => void;
  onPick: (profile: Profile) => void;
  onLoadMore: () => void;
  onRetry: () => void;
  onMarkAllRead: () => void;
  markingRead: boolean;
}

export function ContactList({ snapshot, me, onRelation, onSelect, onPick, onLoadMore, onRetry, onMarkAllRead, markingRead }: ContactListProps) {
  const { t } = useTranslation(DMS_NS);
  const relation = snapshot.relation;
  const status = snapshot.contactsStatus;
  const anyUnread = snapshot.unreadTotal > 0 || snapshot.contacts.some((c) => c.dmInfo.cnt > 0);

  let body;
  if (status === 'loading' || status === 'idle')
    body = (
      <div className="dm-contacts-skeleton" aria-busy="true" role="status" aria-label={t('loadingContacts')}>
        {[0, 1, 2, 3, 4].map((i) => (
          <div key={i} className="dm-contact dm-contact-skeleton">
            <span className="sk sk-avatar" />
            <span className="dm-contact-main">
              <span className="sk sk-line" />
              <span className="sk sk-line sk-short" />
            </span>
          </div>
        ))}
      </div>
    );
  else if (status === 'error' && snapshot.contacts.length === 0)
    body = <RetryMessage title={t('contactsError')} retryLabel={t('retry')} onRetry={onRetry} />;
  else if (snapshot.contacts.length === 0) body = <StatusMessage title={t(`emptyContacts.${relation}`)}>{t('emptyContactsHint')}</StatusMessage>;
  else
    body = (
      <>
        <ul className="dm-contact-list" aria-label={t('contactsLabel')}>
          {snapshot.contacts.map((c) => (
            <ContactRow key={c.pubkey} contact={c} me={me} selected={c.pubkey === snapshot.selected} onSelect={onSelect} />
          ))}
        </ul>
        {snapshot.hasMoreContacts && (
          <button type="button" className="button dm-more" onClick={onLoadMore} disabled={status === 'loadingMore'}>
            {t('loadMoreContacts')}
          </button>
        )}
      </>
    );

  return (
    <section className="dm-contacts" aria-label={t('contactsLabel')}>
      <PeopleSearch onPick={onPick} />
      <div className="dm-contacts-bar">
        <TabStrip
          tabs={RELATIONS}
          selected={relation}
          onSelect={onRelation}
          label={t('relationLabel')}
          className="dm-tabs"
          tabClassName="tab dm-tab"
          tabId={(r) => `dm-tab-${r}`}
          panelId={() => 'dm-contacts-panel'}
        >
          {(r) => t(`relation.${r}`)}
        </TabStrip>
        <button type="button" className="button dm-mark-read" onClick={onMarkAllRead} disabled={!anyUnread || markingRead}>
          {t('markAllRead')}
        </button>
      </div>
      <div id="dm-contacts-panel" role="tabpanel" aria-labelledby={`dm-tab-${relation}`} className="dm-contacts-panel" data-status={status}>
        {body}
      </div>
    </section>
  );
}
