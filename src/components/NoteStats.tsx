import type { ComponentType } from 'react';
import type { FeedNote, NoteActions, NoteStats as Stats, ReactionTab } from '../../core/types';
import { formatCount } from '../lib/format';
import { NOTE_NS, useCardT } from '../lib/noteI18n';
import { LikeIcon, ReplyIcon, RepostIcon, ZapIcon } from './Icons';
import { NoteActionBar } from './actions/NoteActionBar';

type StatKind = 'replies' | 'likes' | 'reposts' | 'zaps';

interface StatItem {
  kind: StatKind;
  value: number;
  active: boolean;
  Icon: ComponentType<{ size?: number }>;
}

/** The modal tab each count opens; replies live in the thread, not in the modal. */
const TAB_OF: Partial<Record<StatKind, ReactionTab>> = { likes: 'reactions', reposts: 'reposts', zaps: 'zaps' };

/**
 * The counts row. Likes, reposts and zaps open the reactions modal on their tab; the viewer's
 * own actions are marked in text as well as colour. Without `onOpen` the row is a read-only list;
 * with `note` as well it is the action bar (reply, repost, like, bookmark beside the counts).
 */
export function NoteStats({
  stats,
  actions,
  onOpen,
  note,
}: {
  stats: Stats;
  actions?: NoteActions;
  onOpen?: (tab: ReactionTab) => void;
  note?: FeedNote;
}) {
  if (note && onOpen) return <NoteActionBar note={note} onOpen={onOpen} />;
  return <StatsList stats={stats} actions={actions} onOpen={onOpen} />;
}

function StatsList({ stats, actions, onOpen }: { stats: Stats; actions?: NoteActions; onOpen?: (tab: ReactionTab) => void }) {
  const { t, i18n } = useCardT();
  const { t: tn } = useCardT(NOTE_NS);
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
        const fullLabel = `${label}${active ? ` ${t(`note.stats.own.${kind}`)}` : ''}`;
        const tab = TAB_OF[kind];
        const inner = (
          <>
            <Icon size={18} />
            <span aria-hidden="true">{value > 0 ? formatted : ''}</span>
          </>
        );
        return (
          <li key={kind} className={`note-stat note-stat-${kind}${active ? ' is-active' : ''}`} title={label} data-count={value}>
            {onOpen && tab ? (
              <button type="button" className="note-stat-button" aria-label={tn('stats.open', { label: fullLabel })} aria-haspopup="dialog" onClick={() => onOpen(tab)}>
                {inner}
              </button>
            ) : (
              <>
                {inner}
                <span className="visually-hidden">{fullLabel}</span>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
