import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { LegendStyle, Profile } from '../../../core/types';
import { emptyProfile } from '../../../core/profile';
import { toastError, toastSuccess } from '../../lib/toast';
import { useRequest } from '../../lib/useWorkerRequest';
import { Avatar } from '../Avatar';
import { MemberBadge } from '../MemberBadge';
import { contentOf, ofKind, signed, type MembershipStatus } from './membership';
import { CacheKind } from '../../../core/kinds';

const STYLES: LegendStyle[] = ['GOLD', 'AQUA', 'SILVER', 'PURPLE', 'PURPLEHAZE', 'TEAL', 'BROWN', 'BLUE', 'SUNFIRE'];

interface Looks {
  style: LegendStyle;
  custom_badge: boolean;
  avatar_glow: boolean;
  in_leaderboard: boolean;
}

const DEFAULT_LOOKS: Looks = { style: '', custom_badge: false, avatar_glow: false, in_leaderboard: true };

function Customize({ pubkey }: { pubkey: string }) {
  const { t } = useTranslation('premium');
  const { data: loaded, error } = useRequest(
    () =>
      signed('membership_legend_customization').then((reply): Looks => {
        const c = contentOf<Record<string, Partial<Looks>>>(ofKind(reply, CacheKind.LEGEND_CUSTOMIZATION))?.[pubkey] ?? {};
        return { style: (c.style ?? '') as LegendStyle, custom_badge: c.custom_badge === true, avatar_glow: c.avatar_glow === true, in_leaderboard: c.in_leaderboard !== false };
      }),
    [pubkey],
  );
  // The person's choices win over the stored ones; without stored ones the defaults are offered.
  const [edited, setLooks] = useState<Looks | null>(null);
  const looks = edited ?? loaded ?? (error !== undefined ? DEFAULT_LOOKS : null);
  const [busy, setBusy] = useState(false);
  if (!looks) return <p role="status">{t('loading')}</p>;
  const save = async () => {
    setBusy(true);
    try {
      await signed('membership_legend_customization', { ...looks });
      toastSuccess(t('legend.saved'));
    } catch (err) {
      toastError(t('legend.saveFailed', { reason: err instanceof Error ? err.message : '' }));
    } finally {
      setBusy(false);
    }
  };
  const preview: Profile = { ...emptyProfile(pubkey), membership: { tier: 'premium-legend', style: looks.style, badge: looks.custom_badge, glow: looks.avatar_glow, since: '' } };
  const flag = (key: 'custom_badge' | 'avatar_glow' | 'in_leaderboard', label: string) => (
    <label className="premium-check">
      <input type="checkbox" checked={looks[key]} onChange={(e) => setLooks({ ...looks, [key]: e.target.checked })} /> {label}
    </label>
  );
  return (
    <form
      className="premium-legend-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3>{t('legend.customize')}</h3>
      <fieldset>
        <legend>{t('legend.style')}</legend>
        <div className="premium-styles">
          {(['', ...STYLES] as LegendStyle[]).map((s) => (
            <label key={s || 'none'} className={`premium-style legend-${s || 'none'}${looks.style === s ? ' is-selected' : ''}`}>
              <input type="radio" name="legend-style" value={s} checked={looks.style === s} onChange={() => setLooks({ ...looks, style: s })} />
              <span className="premium-swatch" aria-hidden="true" />
              {s ? t(`legend.styles.${s}`) : t('legend.styleNone')}
            </label>
          ))}
        </div>
      </fieldset>
      {flag('custom_badge', t('legend.badge'))}
      {flag('avatar_glow', t('legend.glow'))}
      {flag('in_leaderboard', t('legend.leaderboard'))}
      <div className="premium-preview" aria-label={t('legend.preview')}>
        <Avatar profile={preview} name="S" size={48} />
        <MemberBadge profile={preview} />
      </div>
      <button type="submit" className="button" disabled={busy}>
        {t('legend.save')}
      </button>
    </form>
  );
}

/** The legend step: what a legend gets, and for legends the looks they choose. */
export default function LegendStep({ pubkey, status }: { pubkey: string; status: MembershipStatus }) {
  const { t } = useTranslation('premium');
  const legend = status.tier === 'premium-legend';
  return (
    <section className="premium-step" aria-labelledby="premium-legend-heading">
      <h2 id="premium-legend-heading">{t('legend.heading')}</h2>
      <p>{t('legend.text')}</p>
      {legend ? (
        <Customize key={pubkey} pubkey={pubkey} />
      ) : (
        <Link href="/premium/support" className="button">
          {t('legend.become')}
        </Link>
      )}
    </section>
  );
}
