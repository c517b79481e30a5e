/**
 * /mutelist/{npub}: another user's public mute list (the people, words and hashtags in it), and
 * following it: subscribing adds it to the account's mute lists (kind 30000 d=mutelists).
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import '../components/moderation/i18n';
import '../components/moderation/moderation.css';
import { displayName } from '../../core/profile';
import type { CacheObject } from '../../core/types';
import { useWorkerRequest } from '../lib/useWorkerRequest';
import { useAccount } from '../lib/account';
import { PageIntro } from './PageIntro';
import { runAction } from '../components/moderation/actions';
import { mutedSections, pubkeyFromInput, type MutedSections } from '../components/moderation/muted';
import { ProfileRow } from '../components/moderation/ProfileRow';
import { SignInPrompt } from '../components/moderation/SignInPrompt';
import { profileOf, rememberProfiles, useProfiles } from '../components/moderation/useProfiles';

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; found: boolean; sections: MutedSections };

/** The owner's mute list from a mutelist reply: kind 10000 and kind 30000 d=mute together. */
function listOf(pubkey: string, objects: CacheObject[]): { found: boolean; sections: MutedSections } {
  const lists = objects.filter(
    (o) => o.pubkey === pubkey && Array.isArray(o.tags) && (o.kind === 10000 || (o.kind === 30000 && (o.tags as string[][]).some((t) => t[0] === 'd' && t[1] === 'mute'))),
  );
  const tags = lists.flatMap((o) => o.tags as string[][]);
  const users = [...new Set(tags.filter((t) => t[0] === 'p' && typeof t[1] === 'string').map((t) => t[1]))];
  return { found: lists.length > 0, sections: mutedSections({ muted: users, mutedTags: tags }) };
}

function useMuteList(pubkey: string | undefined): [Loaded, () => void] {
  const { data, error, loading, reload } = useWorkerRequest(
    pubkey
      ? (api) =>
          Promise.all([api.request('mutelist', { pubkey, extended_response: true }), api.request('user_infos', { pubkeys: [pubkey] })]).then(([reply, owner]) => {
            if (reply.notice !== undefined) throw new Error(reply.notice);
            rememberProfiles(owner.events);
            rememberProfiles(reply.events);
            return listOf(pubkey, reply.events);
          })
      : null,
    [pubkey],
  );
  const loaded = useMemo((): Loaded => (error !== undefined ? { status: 'failed' } : loading || !data ? { status: 'loading' } : { status: 'ready', ...data }), [data, error, loading]);
  return [loaded, reload];
}

function SubscribeControl({ owner }: { owner: string }) {
  const { t } = useTranslation('moderation');
  const snapshot = useAccount();
  const [busy, setBusy] = useState(false);
  const record = snapshot?.account;
  if (!snapshot) return null;
  if (!record) return <SignInPrompt text={t('muteList.signInToSubscribe')} />;
  if (record.pubkey === owner) {
    return (
      <p className="mod-section-intro">
        {t('muteList.own')}{' '}
        <Link href="/settings/muted" className="mod-link">
          {t('muteList.manageOwn')}
        </Link>
      </p>
    );
  }
  const subscribed = record.mutelists.some((e) => e.pubkey === owner);
  const toggle = async () => {
    setBusy(true);
    try {
      await runAction(
        subscribed ? { type: 'unsubscribeMuteList', pubkey: owner } : { type: 'subscribeMuteList', pubkey: owner },
        t(subscribed ? 'muteList.unsubscribed' : 'muteList.subscribed'),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mod-row-actions">
      <button type="button" className={subscribed ? 'button button-secondary' : 'button'} disabled={busy} aria-pressed={subscribed} onClick={() => void toggle()}>
        {t(subscribed ? 'muteList.unsubscribe' : 'muteList.subscribe')}
      </button>
      {subscribed && (
        <Link href="/settings/filters" className="mod-link">
          {t('muteList.filtersLink')}
        </Link>
      )}
    </div>
  );
}

function TagSection({ id, title, values, prefix = '' }: { id: string; title: string; values: string[]; prefix?: string }) {
  if (values.length === 0) return null;
  return (
    <section className="mod-section" aria-labelledby={id}>
      <h2 id={id} className="mod-section-title">
        {title}
      </h2>
      <ul className="mod-list">
        {values.map((v) => (
          <li key={v} className="mod-row mod-row-tag">
            <span className="mod-tag">
              {prefix}
              {v}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function MuteList() {
  const { t } = useTranslation();
  const { t: tm } = useTranslation('moderation');
  const { npub } = useParams<{ npub: string }>();
  const pubkey = pubkeyFromInput(decodeURIComponent(npub ?? ''));
  const [loaded, retry] = useMuteList(pubkey);
  const users = loaded.status === 'ready' ? loaded.sections.users : [];
  const profile = useProfiles(pubkey ? [pubkey, ...users] : users);

  const body = () => {
    if (!pubkey) return <p className="form-error" role="alert">{tm('muteList.invalid')}</p>;
    const owner = profileOf(pubkey);
    return (
      <div className="mod-page">
        <section className="mod-section" aria-labelledby="mutelist-owner">
          <h2 id="mutelist-owner" className="mod-section-title">
            {tm('muteList.owner', { name: displayName(owner) })}
          </h2>
          <ul className="mod-list">
            <ProfileRow profile={profile(pubkey)} />
          </ul>
          <SubscribeControl owner={pubkey} />
        </section>
        {loaded.status === 'loading' && <p className="mod-empty" aria-busy="true">{tm('loading')}</p>}
        {loaded.status === 'failed' && (
          <div className="mod-signin">
            <p role="alert">{tm('muteList.failed')}</p>
            <button type="button" className="button button-secondary" onClick={retry}>
              {tm('muteList.retry')}
            </button>
          </div>
        )}
        {loaded.status === 'ready' && !loaded.found && <p className="mod-empty">{tm('muteList.none')}</p>}
        {loaded.status === 'ready' && loaded.found && (
          <>
            {users.length + loaded.sections.words.length + loaded.sections.hashtags.length === 0 && <p className="mod-empty">{tm('muteList.empty')}</p>}
            {users.length > 0 && (
              <section className="mod-section" aria-labelledby="mutelist-users">
                <h2 id="mutelist-users" className="mod-section-title">
                  {tm('muteList.users')}
                </h2>
                <ul className="mod-list">
                  {users.map((pk) => (
                    <ProfileRow key={pk} profile={profile(pk)} />
                  ))}
                </ul>
              </section>
            )}
            <TagSection id="mutelist-words" title={tm('muteList.words')} values={loaded.sections.words} />
            <TagSection id="mutelist-hashtags" title={tm('muteList.hashtags')} values={loaded.sections.hashtags} prefix="#" />
          </>
        )}
      </div>
    );
  };

  return (
    <PageIntro title={t('pages.mutelist.title')} description={t('pages.mutelist.description')}>
      {body()}
    </PageIntro>
  );
}
