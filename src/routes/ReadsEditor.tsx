import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { naddrEncode } from 'nostr-tools/nip19';
import type { AccountRecord, NostrEvent } from '../../core/types';
import { isNostrEvent } from '../../core/bundle';
import { EditorForm } from '../components/readsEditor/EditorForm';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { SignInPrompt } from '../components/SignInPrompt';
import { StatusMessage, RetryMessage } from '../components/StatusMessage';
import { registerNamespace } from '../i18n';
import { useAccount } from '../lib/account';
import { articleToInput, draftKey, editTarget, emptyDraft, parseDraft, randomSuffix, type ArticleAddress, type ArticleDraft } from '../lib/article';
import { usePageTitle } from '../lib/hooks';
import { useWorkerRequest } from '../lib/useWorkerRequest';
import hu from '../../locales/hu/editor.json';
import en from '../../locales/en/editor.json';
import readsHu from '../../locales/hu/reads.json';
import readsEn from '../../locales/en/reads.json';
import '../styles/modal.css';
import '../styles/reads.css';
import '../styles/reads-editor.css';
import '../styles/reads-editor-wide.css';

registerNamespace('editor', { hu, en });
// The preview draws the body with the article page's ArticleBody, which speaks 'reads'.
registerNamespace('reads', { hu: readsHu, en: readsEn });

type Loaded = { status: 'loading' } | { status: 'error' } | { status: 'notFound' } | { status: 'ready'; event: NostrEvent };
const LOADING: Loaded = { status: 'loading' };
const ERROR: Loaded = { status: 'error' };

/** The newest stored version of the article at `target`, from the cache server. */
function useArticleEvent(target: ArticleAddress | null): { state: Loaded; retry: () => void } {
  const key = target ? `${target.kind}:${target.pubkey}:${target.identifier}` : '';
  // `key` names the address; the object is rebuilt on every render.
  const { data, error, loading, reload } = useWorkerRequest(
    target
      ? (api) =>
          api
            .request('parametrized_replaceable_events', {
              events: [{ pubkey: target.pubkey, kind: target.kind, identifier: target.identifier }],
              extended_response: false,
            })
            .then((reply): Loaded => {
              const events = (reply.events as unknown[]).filter(isNostrEvent);
              const found = events
                .filter((e) => e.kind === target.kind && e.pubkey === target.pubkey && e.tags.some((t) => t[0] === 'd' && t[1] === target.identifier))
                .sort((a, b) => b.created_at - a.created_at)[0];
              return found ? { status: 'ready', event: found } : reply.notice !== undefined ? { status: 'error' } : { status: 'notFound' };
            })
      : null,
    [key],
  );
  const state: Loaded = error !== undefined ? ERROR : loading || !data ? LOADING : data;
  return { state, retry: reload };
}

function storedDraft(account: AccountRecord, key: string): ArticleDraft | null {
  return parseDraft(account.noteDraft[key]);
}

function EditExisting({ target, pubkey, account }: { target: ArticleAddress; pubkey: string; account: AccountRecord }) {
  const { t } = useTranslation('editor');
  const { state, retry } = useArticleEvent(target);
  const key = draftKey(target.identifier);
  const setup = useMemo(() => {
    if (state.status !== 'ready') return null;
    const base: ArticleDraft = { ...articleToInput(state.event), identifier: target.identifier, suffix: '', savedAt: 0 };
    const stored = storedDraft(account, key);
    // A stored draft is the person's unpublished work: it wins, with a way back to the published text.
    return stored ? { base, initial: { ...stored, identifier: target.identifier, publishedAt: base.publishedAt }, restored: true } : { base, initial: base, restored: false };
    // The account changes with every draft save; the form is set up once per loaded article.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);

  if (state.status === 'loading') return <FeedSkeleton label={t('edit.loading')} />;
  if (state.status === 'error') {
    return (
      <RetryMessage title={t('edit.error')} retryLabel={t('edit.retry')} onRetry={retry}>
        {t('edit.errorHint')}
      </RetryMessage>
    );
  }
  if (state.status === 'notFound' || !setup) {
    return (
      <StatusMessage title={t('edit.notFound')} action={<Link href="/reads/edit" className="button">{t('edit.newArticle')}</Link>}>
        {t('edit.notFoundText')}
      </StatusMessage>
    );
  }
  return <EditorForm key={key} pubkey={pubkey} draftKey={key} initial={setup.initial} base={setup.base} restored={setup.restored} />;
}

function NewArticle({ pubkey, account }: { pubkey: string; account: AccountRecord }) {
  const key = draftKey();
  const setup = useMemo(() => {
    const stored = storedDraft(account, key);
    return stored ? { initial: stored, restored: true } : { initial: emptyDraft(randomSuffix()), restored: false };
    // Set up once per visit: later account snapshots are this form's own saves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pubkey]);
  return <EditorForm key={`${pubkey}:${key}`} pubkey={pubkey} draftKey={key} initial={setup.initial} base={null} restored={setup.restored} />;
}

function EditorSignIn({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation('editor');
  return (
    <SignInPrompt
      title={t(readOnly ? 'guest.readOnlyTitle' : 'guest.title')}
      text={t(readOnly ? 'guest.readOnlyText' : 'guest.text')}
      login={t('guest.login')}
    />
  );
}

/** /reads/edit (new article) and /reads/edit?naddr=… or ?a=kind:pubkey:d (edit one of your own). */
export default function ReadsEditor() {
  const { t } = useTranslation('editor');
  const search = useSearch();
  const params = new URLSearchParams(search);
  const wantsEdit = params.has('naddr') || params.has('a');
  const target = useMemo(() => editTarget(search), [search]);
  usePageTitle(wantsEdit ? t('editTitle') : t('title'));
  const snapshot = useAccount();
  const login = snapshot?.login;
  const account = snapshot?.account;
  const pubkey = login?.pubkey;

  let body;
  if (!login || login.state === 'booting' || login.state === 'detecting' || login.state === 'busy' || login.state === 'unlocking') {
    body = <FeedSkeleton label={t('edit.loading')} />;
  } else if (login.state !== 'signedIn' || !pubkey) {
    body = <EditorSignIn readOnly={login.state === 'readOnly'} />;
  } else if (!account || account.pubkey !== pubkey) {
    body = <FeedSkeleton label={t('edit.loading')} />;
  } else if (wantsEdit && !target) {
    body = (
      <StatusMessage title={t('edit.notFound')} action={<Link href="/reads/edit" className="button">{t('edit.newArticle')}</Link>}>
        {t('edit.notFoundText')}
      </StatusMessage>
    );
  } else if (target && target.pubkey !== pubkey) {
    const naddr = naddrEncode({ kind: target.kind, pubkey: target.pubkey, identifier: target.identifier });
    body = (
      <StatusMessage
        title={t('edit.notOwn')}
        action={
          <span className="editor-not-own-actions">
            <Link href={`/a/${naddr}`} className="button button-secondary">
              {t('edit.open')}
            </Link>
            <Link href="/reads/edit" className="button">
              {t('edit.newArticle')}
            </Link>
          </span>
        }
      >
        {t('edit.notOwnText')}
      </StatusMessage>
    );
  } else if (target) {
    body = <EditExisting target={target} pubkey={pubkey} account={account} />;
  } else {
    body = <NewArticle pubkey={pubkey} account={account} />;
  }

  return (
    <div className="page page-reads-editor">
      <header className="page-header editor-header">
        <h1 className="page-title">{wantsEdit ? t('editTitle') : t('title')}</h1>
        <p className="editor-intro">{t('intro')}</p>
      </header>
      {body}
    </div>
  );
}
