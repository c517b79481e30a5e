/**
 * /premium/{step?} (spec: find name, subscription, support, legend, relay, media management,
 * contacts recovery, content backup, OG), /premiums and /legends. One lazy chunk; each step is
 * its own small module under components/premium.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { SignInPrompt } from '../components/SignInPrompt';
import { StatusMessage, RetryMessage } from '../components/StatusMessage';
import { useMembershipStatus, type MembershipStatus } from '../components/premium/membership';
import { registerNamespace } from '../i18n';
import { useAccount } from '../lib/account';
import { usePageTitle } from '../lib/hooks';
import hu from '../../locales/hu/premium.json';
import en from '../../locales/en/premium.json';
import '../styles/modal.css';
import '../styles/premium.css';

registerNamespace('premium', { hu, en });

const NameStep = lazy(() => import('../components/premium/NameStep'));
const SubscriptionStep = lazy(() => import('../components/premium/SubscriptionStep'));
const ManagePanel = lazy(() => import('../components/premium/ManagePanel'));
const SupportStep = lazy(() => import('../components/premium/SupportStep'));
const LegendStep = lazy(() => import('../components/premium/LegendStep'));
const RelayStep = lazy(() => import('../components/premium/RelayStep'));
const MediaStep = lazy(() => import('../components/premium/MediaStep'));
const RecoveryStep = lazy(() => import('../components/premium/RecoveryStep'));
const BackupStep = lazy(() => import('../components/premium/BackupStep'));
const OgStep = lazy(() => import('../components/premium/OgStep'));
const Leaderboard = lazy(() => import('../components/premium/Leaderboard'));

export const STEPS = ['name', 'subscription', 'support', 'legend', 'relay', 'media', 'recovery', 'backup', 'og'] as const;
type Step = (typeof STEPS)[number];
/** Tools that only a member can use; others see why and the way to become one. */
const MEMBER_STEPS = new Set<Step>(['relay', 'media', 'recovery', 'backup']);

function StepNav({ step }: { step: Step | null }) {
  const { t } = useTranslation('premium');
  return (
    <nav className="premium-steps" aria-label={t('steps.label')}>
      <ol>
        {STEPS.map((s) => (
          <li key={s}>
            <Link href={`/premium/${s}`} aria-current={s === step ? 'page' : undefined}>
              {t(`steps.${s}`)}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function MembersOnly() {
  const { t } = useTranslation('premium');
  return (
    <StatusMessage
      title={t('membersOnly')}
      action={
        <Link href="/premium/name" className="button">
          {t('becomeMember')}
        </Link>
      }
    />
  );
}

function StepBody({ step, pubkey, status, reload }: { step: Step | null; pubkey: string; status: MembershipStatus; reload: () => void }) {
  const member = status.tier !== 'none';
  if (step && MEMBER_STEPS.has(step) && !member) return <MembersOnly />;
  switch (step) {
    case null:
      return member || status.premiumSince ? <ManagePanel pubkey={pubkey} status={status} onChange={reload} /> : <NameStep pubkey={pubkey} />;
    case 'name':
      return <NameStep pubkey={pubkey} />;
    case 'subscription':
      return <SubscriptionStep pubkey={pubkey} status={status} />;
    case 'support':
      return <SupportStep pubkey={pubkey} status={status} />;
    case 'legend':
      return <LegendStep pubkey={pubkey} status={status} />;
    case 'relay':
      return <RelayStep />;
    case 'media':
      return <MediaStep />;
    case 'recovery':
      return <RecoveryStep />;
    case 'backup':
      return <BackupStep />;
    case 'og':
      return <OgStep status={status} />;
  }
}

function Page({ children }: { children: ReactNode }) {
  const { t } = useTranslation('premium');
  usePageTitle(t('title'));
  return (
    <div className="page premium-page">
      <header className="page-header">
        <h1 className="page-title">{t('title')}</h1>
      </header>
      {children}
    </div>
  );
}

export default function Premium() {
  const { t } = useTranslation('premium');
  const raw = useParams<{ step?: string }>().step;
  const step = (STEPS as readonly string[]).includes(raw ?? '') ? (raw as Step) : null;
  const account = useAccount();
  const signedIn = account?.login.state === 'signedIn' ? account.login.pubkey : undefined;
  const tier = account?.account?.membershipTier;
  const { status, error, loading, reload } = useMembershipStatus(signedIn, tier);

  if (!account) return <Page>{null}</Page>;
  if (!signedIn) {
    return (
      <Page>
        <p className="premium-intro">{t('intro')}</p>
        {account.login.state === 'readOnly' ? <p role="alert">{t('readOnly')}</p> : <SignInPrompt title={t('signIn.title')} text={t('signIn.text')} login={t('signIn.login')} />}
      </Page>
    );
  }
  return (
    <Page>
      <StepNav step={step} />
      {error && !status ? (
        <RetryMessage title={t('loadFailed')} retryLabel={t('retry')} onRetry={reload}>
          {error}
        </RetryMessage>
      ) : !status && loading ? (
        <p className="premium-muted" role="status">
          {t('loading')}
        </p>
      ) : status ? (
        <Suspense fallback={null}>
          <StepBody step={step} pubkey={signedIn} status={status} reload={reload} />
        </Suspense>
      ) : null}
    </Page>
  );
}

/** /premiums: the premium leaderboard. */
export function PremiumsRoute() {
  const { t } = useTranslation('premium');
  usePageTitle(t('boards.premiums'));
  return (
    <Suspense fallback={null}>
      <Leaderboard board="premium" />
    </Suspense>
  );
}

/** /legends: the legend leaderboard and the legend counts of the viewer's network. */
export function LegendsRoute() {
  const { t } = useTranslation('premium');
  usePageTitle(t('boards.legends'));
  return (
    <Suspense fallback={null}>
      <Leaderboard board="legend" />
    </Suspense>
  );
}
