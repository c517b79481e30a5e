import { useTranslation } from 'react-i18next';
import { Redirect, useParams } from 'wouter';
import hu from '../../locales/hu/thread.json';
import en from '../../locales/en/thread.json';
import { registerNamespace } from '../i18n';
import { usePageTitle } from '../lib/hooks';
import { RESERVED_SEGMENTS } from '../lib/routes';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { StatusMessage } from '../components/StatusMessage';
import { useVanityName } from '../components/profile/vanity';
import { parseThreadId, vanityTarget } from '../components/thread/ids';
import { ThreadView } from '../components/thread/ThreadView';
import { NotFound } from './PageIntro';
import '../styles/thread.css';

registerNamespace('thread', { hu, en });

function ThreadPage({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation('thread');
  usePageTitle(t('title'));
  return (
    <div className="page page-thread">
      <header className="page-header">
        <h1 className="page-title">{t('title')}</h1>
      </header>
      {children}
    </div>
  );
}

function BadId() {
  const { t } = useTranslation('thread');
  return (
    <StatusMessage tone="error" title={t('invalid.title')}>
      {t('invalid.text')}
    </StatusMessage>
  );
}

/** /thread/{id} and /e/{id}: hex, note1 or nevent1; an naddr is an article and goes to /a/. */
export default function ThreadRoute() {
  const { id = '' } = useParams<{ id: string }>();
  const parsed = parseThreadId(decodeURIComponent(id));
  if (parsed.type === 'article') return <Redirect to={`/a/${parsed.naddr}`} replace />;
  return <ThreadPage>{parsed.type === 'note' ? <ThreadView id={parsed.id} /> : <BadId />}</ThreadPage>;
}

/** /{vanityName}/{identifier}: a note of that user by id, or their article by its identifier. */
export function VanityThread() {
  const { vanityName, identifier } = useParams<{ vanityName: string; identifier: string }>();
  const { t } = useTranslation('thread');
  const vanity = useVanityName(RESERVED_SEGMENTS.has(vanityName) ? undefined : vanityName);
  if (RESERVED_SEGMENTS.has(vanityName)) return <NotFound />;
  if (vanity.status === 'loading') {
    return (
      <ThreadPage>
        <FeedSkeleton label={t('loading')} />
      </ThreadPage>
    );
  }
  if (vanity.status !== 'found') {
    return (
      <ThreadPage>
        <StatusMessage tone={vanity.status === 'error' ? 'error' : 'info'} title={t('vanity.missing', { name: vanityName })}>
          {t(vanity.status === 'error' ? 'vanity.error' : 'vanity.missingText')}
        </StatusMessage>
      </ThreadPage>
    );
  }
  const target = vanityTarget(vanity.pubkey, decodeURIComponent(identifier));
  if (target.type === 'article') return <Redirect to={`/a/${target.naddr}`} replace />;
  return (
    <ThreadPage>
      <ThreadView id={target.id} />
    </ThreadPage>
  );
}
