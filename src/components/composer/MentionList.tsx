import { useTranslation } from 'react-i18next';
import type { Profile } from '../../../core/types';
import { displayName, shortNpub, toNpub } from '../../../core/profile';
import { Avatar } from '../Avatar';
import type { MentionControls } from './useMention';

export const mentionOptionId = (listId: string, i: number) => `${listId}-opt-${i}`;

/** The people found for '@letters': the textarea keeps focus and points at the active row. */
export function MentionList({ id, mention }: { id: string; mention: MentionControls }) {
  const { t } = useTranslation('composer');
  const { search, active } = mention;
  const users: Profile[] = search.users;
  let status: string | null = null;
  if (search.failed) status = t('mention.failed');
  else if (users.length === 0) status = search.loading || search.term === '' ? t('mention.searching') : t('mention.none');
  return (
    <div className="composer-mentions">
      {status && (
        <p className="composer-mentions-status" role="status">
          {status}
        </p>
      )}
      <ul id={id} role="listbox" aria-label={t('mention.listLabel')} hidden={users.length === 0}>
        {users.map((user, i) => {
          const name = displayName(user);
          return (
            <li
              key={user.pubkey}
              id={mentionOptionId(id, i)}
              role="option"
              aria-selected={i === active}
              className="composer-mention"
              data-pubkey={user.pubkey}
              // mousedown, not click: the textarea must not lose its caret before the choice lands.
              onMouseDown={(e) => {
                e.preventDefault();
                mention.choose(user);
              }}
              onMouseEnter={() => mention.setActive(i)}
            >
              <Avatar profile={user} name={name} size={32} />
              <span className="composer-mention-text">
                <span className="composer-mention-name">{name}</span>
                <span className="composer-mention-sub">{user.nip05 || shortNpub(user.npub || toNpub(user.pubkey))}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
