/** /search/{query}: the users whose names match on top, then the notes of the advanced search. */
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { displayName } from '../../../core/profile';
import { formatCount } from '../../lib/format';
import { useFeed } from '../../lib/useFeed';
import { Avatar } from '../Avatar';
import { FollowButton } from '../actions/FollowButton';
import { FeedList } from '../FeedList';
import { FeedSkeleton } from '../NoteSkeleton';
import { StatusMessage, RetryMessage } from '../StatusMessage';
import { nameTerms } from './query';
import { profileHref } from './SearchCombobox';
import { useUserSearch } from './useUserSearch';
import { MemberBadge } from '../MemberBadge';

export function searchSpec(query: string): string {
  return JSON.stringify({ id: 'advsearch', query });
}

export function SearchResults({ query }: { query: string }) {
  const { t } = useTranslation('search');
  const names = nameTerms(query);
  const users = useUserSearch(names, names !== '');
  const { snapshot, loadMore, retry } = useFeed(searchSpec(query));
  const usersSettled = !names || (!users.loading && users.term === names.trim());
  const foundUsers = usersSettled ? users.users : [];
  const notesReady = snapshot?.status === 'ready' || snapshot?.status === 'loadingMore';
  const notes = snapshot?.notes ?? [];

  let body;
  if (snapshot?.status === 'error' && notes.length === 0) {
    body = (
      <RetryMessage title={t('error')} retryLabel={t('retry')} onRetry={retry}>
        {t('errorHint')}
      </RetryMessage>
    );
  } else if (notes.length > 0) {
    body = <FeedList notes={notes} status={snapshot!.status} hasMore={snapshot!.hasMore} onLoadMore={loadMore} />;
  } else if (notesReady && usersSettled) {
    body =
      foundUsers.length > 0 ? (
        <StatusMessage title={t('noNotes')}>{t('noNotesHint')}</StatusMessage>
      ) : (
        <StatusMessage title={t('noResults', { query })}>{t('noResultsHint')}</StatusMessage>
      );
  } else {
    body = <FeedSkeleton label={t('loading')} />;
  }

  return (
    <>
      {foundUsers.length > 0 && (
        <section className="search-users" aria-labelledby="search-users-title">
          <h2 id="search-users-title" className="section-title">
            {t('users')}
          </h2>
          <ul className="search-user-list">
            {foundUsers.map((user) => {
              const name = displayName(user);
              return (
                <li key={user.pubkey} className="search-user-row">
                  <Link href={profileHref(user)} className="search-user">
                    <Avatar profile={user} name={name} size={40} />
                    <span className="search-user-text">
                      <span className="search-user-name">
                        {name}
                        <MemberBadge profile={user} />
                      </span>
                      <span className="search-user-meta">{user.nip05 || (user.name ? `@${user.name}` : '')}</span>
                    </span>
                    {user.followers !== undefined && (
                      <span className="search-user-followers">{t('followers', { formatted: formatCount(user.followers), count: user.followers })}</span>
                    )}
                  </Link>
                  <FollowButton pubkey={user.pubkey} name={name} />
                </li>
              );
            })}
          </ul>
        </section>
      )}
      <section className="search-notes" aria-labelledby="search-notes-title">
        <h2 id="search-notes-title" className="section-title">
          {t('notes')}
        </h2>
        {body}
      </section>
    </>
  );
}
