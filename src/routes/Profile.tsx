import { useParams } from 'wouter';
import { RESERVED_SEGMENTS } from '../lib/routes';
import InfoPage, { NotFound } from './InfoPage';

/** /profile/{npub?}, /p/{npub?}, /p/{nprofile}. */
export default function ProfileRoute() {
  return <InfoPage page="profile" />;
}

/** /{vanityName}. */
export function VanityProfile() {
  const { vanityName } = useParams<{ vanityName: string }>();
  if (RESERVED_SEGMENTS.has(vanityName)) return <NotFound />;
  return <InfoPage page="profile" />;
}
