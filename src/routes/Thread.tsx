import { useParams } from 'wouter';
import { RESERVED_SEGMENTS } from '../lib/routes';
import InfoPage, { NotFound } from './InfoPage';

/** /thread/{id} and /e/{id}. */
export default function ThreadRoute() {
  return <InfoPage page="thread" />;
}

/** /{vanityName}/{identifier}. */
export function VanityThread() {
  const { vanityName } = useParams<{ vanityName: string }>();
  if (RESERVED_SEGMENTS.has(vanityName)) return <NotFound />;
  return <InfoPage page="thread" />;
}
