import { useCardT } from '../lib/noteI18n';
import type { Profile } from '../../core/types';
import '../styles/legend.css';

/** The legend's style class for a profile, or '' for everyone else. */
export function legendClass(profile: Profile): string {
  const m = profile.membership;
  return m?.tier === 'premium-legend' ? `legend-${m.style || 'none'}` : '';
}

/**
 * Next to a name: a legend's custom badge in their style, or a small premium mark. The looks
 * come with the profile from the same reply (10000168/10000169), never from a request of its own.
 */
export function MemberBadge({ profile }: { profile: Profile }) {
  const { t } = useCardT();
  const m = profile.membership;
  if (!m) return null;
  if (m.tier === 'premium-legend') {
    if (!m.badge) return null;
    return (
      <span className={`legend-badge ${legendClass(profile)}`} data-testid="legend-badge" data-style={m.style} title={t('member.legendSince', { year: m.since })}>
        {t('member.legend')}
      </span>
    );
  }
  return (
    <span className="premium-badge" data-testid="premium-badge" title={t('member.premiumSince', { year: m.since })}>
      {t('member.premium')}
    </span>
  );
}
