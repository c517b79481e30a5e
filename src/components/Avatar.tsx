import { useState } from 'react';
import type { Profile } from '../../core/types';
import { mediaUrl } from '../lib/media';
import { findOnMediaServers } from '../lib/mediaFallback';
import { legendClass } from './MemberBadge';

function hue(pubkey: string): number {
  let h = 0;
  for (let i = 0; i < Math.min(pubkey.length, 16); i++) h = (h * 31 + pubkey.charCodeAt(i)) % 360;
  return h;
}

/** Drawn locally from the pubkey, so a missing or broken picture still gives each author a stable look. */
function GeneratedAvatar({ pubkey, initial, size, extra = '' }: { pubkey: string; initial: string; size: number; extra?: string }) {
  const h = hue(pubkey);
  return (
    <svg className={`avatar avatar-generated${extra}`} width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={`g${pubkey.slice(0, 12)}`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={`hsl(${h} 70% 62%)`} />
          <stop offset="1" stopColor={`hsl(${(h + 40) % 360} 65% 48%)`} />
        </linearGradient>
      </defs>
      <rect width="40" height="40" fill={`url(#g${pubkey.slice(0, 12)})`} />
      <text x="20" y="26" textAnchor="middle" fontSize="17" fontWeight="600" fill="#fff" fontFamily="inherit">
        {initial}
      </text>
    </svg>
  );
}

export function Avatar({ profile, name, size = 44 }: { profile: Profile; name: string; size?: number }) {
  const picture = profile.picture?.trim();
  // What failed and what replaced it are kept per picture, so a changed profile starts afresh.
  const [failed, setFailed] = useState<{ picture: string; fallback?: string; done?: boolean } | null>(null);
  const initial = (Array.from(name.trim())[0] ?? '?').toLocaleUpperCase('hu');
  const state = failed?.picture === picture ? failed : null;
  // A legend who chose the glow gets it wherever their avatar is drawn.
  const glow = profile.membership?.glow && profile.membership.tier === 'premium-legend' ? ` legend-glow ${legendClass(profile)}` : '';
  if (!picture || state?.done) return <GeneratedAvatar pubkey={profile.pubkey} initial={initial} size={size} extra={glow} />;

  const onError = () => {
    if (state?.fallback) {
      setFailed({ picture, done: true });
      return;
    }
    setFailed({ picture });
    void findOnMediaServers(picture, profile.mediaServers ?? []).then((url) =>
      setFailed(url ? { picture, fallback: url } : { picture, done: true }),
    );
  };
  // Until a fallback is found the placeholder shows, rather than the broken image.
  if (state && !state.fallback) return <GeneratedAvatar pubkey={profile.pubkey} initial={initial} size={size} extra={glow} />;
  return (
    <img
      className={`avatar${glow}`}
      src={state?.fallback ?? mediaUrl(picture, 's')}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={onError}
    />
  );
}
