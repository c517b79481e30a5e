import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoteActions, NoteStats as Stats } from '../../worker/types';
import { formatCount } from '../lib/format';
import { LikeIcon, ReplyIcon, RepostIcon, ZapIcon } from './Icons';

interface StatItem {
  kind: 'replies' | 'likes' | 'reposts' | 'zaps';
  value: number;
  active: boolean;
  Icon: ComponentType<{ size?: number }>;
}

/**
 * Read-only counts: a guest cannot act yet, so these are a labelled list rather than
 * buttons that would do nothing. The viewer's own actions are marked in text as well as colour.
 */
export function NoteStats({ stats, actions }: { stats: Stats; actions?: NoteActions }) {
  const { t, i18n } = useTranslation();
  const items: StatItem[] = [
    { kind: 'replies', value: stats.replies, active: !!actions?.replied, Icon: ReplyIcon },
    { kind: 'likes', value: stats.likes, active: !!actions?.liked, Icon: LikeIcon },
    { kind: 'reposts', value: stats.reposts, active: !!actions?.reposted, Icon: RepostIcon },
    { kind: 'zaps', value: stats.satszapped, active: !!actions?.zapped, Icon: ZapIcon },
  ];
  return (
    <ul className="note-stats" aria-label={t('note.stats.label')}>
      {items.map(({ kind, value, active, Icon }) => {
        const formatted = formatCount(value, { locale: i18n.resolvedLanguage });
        const label =
          kind === 'zaps'
            ? t('note.stats.zaps', { count: stats.zaps, sats: formatted, formatted: formatCount(stats.zaps) })
            : t(`note.stats.${kind}`, { count: value, formatted });
        return (
          <li key={kind} className={`note-stat note-stat-${kind}${active ? ' is-active' : ''}`} title={label}>
            <Icon size={18} />
            <span aria-hidden="true">{value > 0 ? formatted : ''}</span>
            <span className="visually-hidden">
              {label}
              {active ? ` ${t(`note.stats.own.${kind}`)}` : ''}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
