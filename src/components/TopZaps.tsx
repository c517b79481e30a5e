import type { Profile, TopZap } from '../../core/types';
import { displayName, emptyProfile } from '../../core/profile';
import { formatCount } from '../lib/format';
import { NOTE_NS, useCardT } from '../lib/noteI18n';
import { Avatar } from './Avatar';
import { ZapIcon } from './Icons';

/** The biggest zap with its message, then a few smaller ones as avatars. */
const SMALL_ZAPS = 4;

/** The top zaps row: largest first; the whole row opens the zaps tab of the reactions modal. */
export function TopZaps({ zaps, profiles, onOpen }: { zaps: TopZap[]; profiles: Record<string, Profile>; onOpen?: () => void }) {
  const { t, i18n } = useCardT(NOTE_NS);
  if (zaps.length === 0) return null;
  const locale = i18n.resolvedLanguage;
  const [top, ...rest] = zaps;
  const person = (z: TopZap) => profiles[z.pubkey] ?? emptyProfile(z.pubkey);
  const topName = displayName(person(top));
  return (
    <div className="note-topzaps">
      <span className="visually-hidden">{t('zaps.label')}</span>
      <ol className="note-topzaps-list">
        <li className="note-topzap note-topzap-first" title={t('zaps.item', { name: topName, amount: formatCount(top.amount, { locale }) })}>
          <Avatar profile={person(top)} name={topName} size={20} />
          <ZapIcon size={14} />
          <span className="note-topzap-amount">{formatCount(top.amount, { locale })}</span>
          {top.message && <span className="note-topzap-message">{top.message}</span>}
          <span className="visually-hidden">{t('zaps.item', { name: topName, amount: formatCount(top.amount, { locale }) })}</span>
        </li>
        {rest.slice(0, SMALL_ZAPS).map((z) => {
          const name = displayName(person(z));
          const label = t('zaps.item', { name, amount: formatCount(z.amount, { locale }) });
          return (
            <li key={z.id} className="note-topzap" title={label}>
              <Avatar profile={person(z)} name={name} size={20} />
              <span className="note-topzap-amount">{formatCount(z.amount, { locale })}</span>
              <span className="visually-hidden">{label}</span>
            </li>
          );
        })}
      </ol>
      {onOpen && (
        <button type="button" className="note-topzaps-more" onClick={onOpen} aria-haspopup="dialog">
          {t('zaps.more')}
        </button>
      )}
    </div>
  );
}
