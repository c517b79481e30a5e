/**
 * /dms/{contact?}: NIP-04 conversations (spec §4 Direct messages). The contact in the address
 * is the open conversation; without one, the remembered conversation (dmLastConversation) opens
 * and the address follows it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import type { Profile } from '../../core/types';
import { toNpub } from '../../core/profile';
import { useAccount } from '../lib/account';
import { usePageTitle } from '../lib/hooks';
import { toastError, toastSuccess } from '../lib/toast';
import { SignInPrompt } from '../components/SignInPrompt';
import { StatusMessage } from '../components/StatusMessage';
import { ContactList } from '../components/dms/ContactList';
import { Conversation, useReasonText } from '../components/dms/Conversation';
import { useDms } from '../components/dms/useDms';
import { DMS_NS } from '../components/dms/ns';
import { rememberProfile, useProfiles } from '../components/moderation/useProfiles';
import { parseProfileKey } from '../components/thread/ids';
import '../styles/dms.css';

/** Login states in which the worker has not decided yet who is signed in. */
const PENDING = new Set(['booting', 'detecting', 'busy', 'unlocking']);

function GuestPrompt() {
  const { t } = useTranslation(DMS_NS);
  return (
    <div className="dm-guest">
      <SignInPrompt title={t('guest.title')} text={t('guest.text')} login={t('guest.login')} />
    </div>
  );
}

function contactFromParam(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const key = parseProfileKey(decodeURIComponent(raw));
  return key.type === 'pubkey' ? key.pubkey : undefined;
}

function Messages({ me, canSign }: { me: string; canSign: boolean }) {
  const { t } = useTranslation(DMS_NS);
  const reasonText = useReasonText();
  const params = useParams<{ contact?: string }>();
  const [, navigate] = useLocation();
  const wanted = contactFromParam(params.contact);
  const dms = useDms(me);
  const { snapshot, select } = dms;
  const selected = snapshot?.selected;
  const [markingRead, setMarkingRead] = useState(false);

  // The address names the conversation: opening it (again) loads it and resets its count. The
  // conversation the worker opened with the page is not loaded twice.
  const opened = useRef<string | undefined>(undefined);
  const firstOpen = useRef(true);
  const ready = snapshot !== null;
  useEffect(() => {
    if (!ready) return;
    if (!wanted) {
      opened.current = undefined;
      return;
    }
    if (opened.current === wanted) return;
    opened.current = wanted;
    const first = firstOpen.current;
    firstOpen.current = false;
    if (!(first && wanted === selected)) select(wanted);
    // Only the address and the page's arrival decide; the snapshot's own changes do not.
  }, [wanted, ready]);

  // Arriving at /dms without a contact: the remembered conversation (dmLastConversation) opens,
  // once. The worker opens it with the page; a page opened before the account record loaded
  // learns it from the record. Going back to the list later stays on the list.
  const record = useAccount()?.account;
  const remembered = record?.pubkey === me ? record.dmLastConversation : undefined;
  const rememberedRelation = record?.pubkey === me ? record.dmLastRelation : undefined;
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    if (params.contact) {
      restored.current = true;
      return;
    }
    const last = selected ?? remembered;
    if (!last) return;
    restored.current = true;
    navigate(`/dms/${toNpub(last)}`, { replace: true });
  }, [params.contact, selected, remembered, navigate]);
  const relationSynced = useRef(false);
  useEffect(() => {
    if (relationSynced.current || !snapshot || !rememberedRelation) return;
    relationSynced.current = true;
    if (rememberedRelation !== snapshot.relation) dms.setRelation(rememberedRelation);
  }, [snapshot, rememberedRelation, dms]);

  const peer = wanted;
  const inList = snapshot?.contacts.find((c) => c.pubkey === peer)?.user;
  const profileOf = useProfiles(peer && !inList ? [peer] : []);
  const profile = peer ? (inList ?? profileOf(peer)) : undefined;

  const open = useCallback((pubkey: string) => navigate(`/dms/${toNpub(pubkey)}`), [navigate]);
  const pick = useCallback(
    (p: Profile) => {
      rememberProfile(p);
      open(p.pubkey);
    },
    [open],
  );
  const send = useCallback(
    (text: string) => {
      void dms.send(text).then((r) => {
        if (!r.success && r.reasons['*'] === 'closed') toastError(t('status.failed', { reason: reasonText('closed') }));
      });
    },
    [dms, reasonText, t],
  );
  const markAllRead = useCallback(() => {
    setMarkingRead(true);
    dms
      .markAllRead()
      .then((ok) => (ok ? toastSuccess(t('markAllReadDone')) : toastError(t('markAllReadFailed'))))
      .catch(() => toastError(t('markAllReadFailed')))
      .finally(() => setMarkingRead(false));
  }, [dms, t]);

  if (dms.failed) return <StatusMessage title={t('contactsError')} tone="error" />;
  if (!snapshot)
    return (
      <div className="dm-layout" aria-busy="true">
        <p className="visually-hidden" role="status">
          {t('loadingContacts')}
        </p>
      </div>
    );

  return (
    <div className="dm-layout" data-open={peer ? 'conversation' : 'list'}>
      {!canSign && <p className="dm-readonly">{t('readOnly')}</p>}
      <ContactList
        snapshot={snapshot}
        me={me}
        onRelation={dms.setRelation}
        onSelect={open}
        onPick={pick}
        onLoadMore={dms.loadMoreContacts}
        onRetry={dms.loadMoreContacts}
        onMarkAllRead={markAllRead}
        markingRead={markingRead}
      />
      {peer && profile ? (
        <Conversation
          snapshot={snapshot}
          peer={peer}
          profile={profile}
          me={me}
          canSend={canSign}
          onLoadMore={dms.loadMore}
          onRetryLoad={() => select(peer)}
          onSend={send}
          onRetrySend={dms.retry}
          onBack={() => navigate('/dms')}
        />
      ) : (
        <section className="dm-conversation dm-none">
          <StatusMessage title={t('noConversation')} />
        </section>
      )}
    </div>
  );
}

/** /dms and /dms/{npub}. */
export default function DmsRoute() {
  const { t } = useTranslation(DMS_NS);
  usePageTitle(t('title'));
  const account = useAccount();
  const pubkey = account?.login.pubkey;
  const pending = !account || (PENDING.has(account.login.state) && !pubkey);
  return (
    <div className="page dm-page">
      <header className="page-header">
        <h1 className="page-title">{t('title')}</h1>
      </header>
      {pending ? (
        <p className="dm-checking" role="status">
          {t('checking')}
        </p>
      ) : pubkey ? (
        <Messages key={pubkey} me={pubkey} canSign={account.login.state === 'signedIn'} />
      ) : (
        <GuestPrompt />
      )}
    </div>
  );
}
