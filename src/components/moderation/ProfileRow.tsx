import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { displayName, shortNpub, toNpub } from '../../../core/profile';
import type { Profile } from '../../../core/types';
import { Avatar } from '../Avatar';

/** One person in a settings list: avatar, name and short npub (linking to the profile), then the row's actions. */
export function ProfileRow({ profile, label, children }: { profile: Profile; label?: string; children?: ReactNode }) {
  const npub = profile.npub || toNpub(profile.pubkey);
  const name = label ?? displayName(profile);
  return (
    <li className="mod-row" data-pubkey={profile.pubkey}>
      <Link href={`/p/${npub}`} className="mod-person">
        <Avatar profile={profile} name={name} size={40} />
        <span className="mod-person-text">
          <span className="mod-person-name">{name}</span>
          <span className="mod-person-npub">{shortNpub(npub)}</span>
        </span>
      </Link>
      {children && <div className="mod-row-actions">{children}</div>}
    </li>
  );
}
