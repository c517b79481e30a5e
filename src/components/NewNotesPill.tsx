import { useFixedT } from '../i18n';
import type { Profile } from '../../core/types';
import { displayName } from '../../core/profile';
import { formatBadgeCount } from '../lib/format';
import { Avatar } from './Avatar';
import { ArrowUpIcon } from './Icons';

const MAX_FACES = 3;

export function NewNotesPill({ count, authors, onShow }: { count: number; authors: Profile[]; onShow: () => void }) {
  const { t } = useFixedT();
  if (count <= 0) return null;
  const shown = formatBadgeCount(count);
  return (
    <div className="pill-anchor">
      <button type="button" className="new-notes-pill" onClick={onShow}>
        <ArrowUpIcon size={16} />
        <span className="pill-faces" aria-hidden="true">
          {authors.slice(0, MAX_FACES).map((author) => (
            <Avatar key={author.pubkey} profile={author} name={displayName(author)} size={24} />
          ))}
        </span>
        <span>{t('feed.newNotes', { count: Math.min(count, 100), shown })}</span>
      </button>
    </div>
  );
}
