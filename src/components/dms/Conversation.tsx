/**
 * The right column: the contact's header, the messages grouped by day and sender (newest at the
 * bottom, older pages loaded when scrolled to the top with the view kept in place), the outbox's
 * pending and failed messages, and the composer.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { DmOutgoing, DmSnapshot, Profile } from '../../../core/types';
import { displayName, toNpub } from '../../../core/profile';
import { formatFullDate } from '../../lib/format';
import { parseContent } from '../../lib/content';
import { useProfiles } from '../moderation/useProfiles';
import { Avatar } from '../Avatar';
import { NoteContent } from '../NoteContent';
import { RetryMessage, StatusMessage } from '../StatusMessage';
import { DmComposer } from './DmComposer';
import { groupMessages, shownMessages, type ShownMessage } from './group';
import { DMS_NS } from './ns';
import { MemberBadge } from '../MemberBadge';

/** Within this many pixels of the top, the next older page is asked for. */
const LOAD_MORE_EDGE = 80;
/** Within this many pixels of the bottom, a new message scrolls into view. */
const STICK_EDGE = 60;

/** A send failure's reason in words: the §8 codes have their own text. */
export function useReasonText(): (reason: string | undefined) => string {
  const { t } = useTranslation(DMS_NS);
  return (reason) => {
    const r = reason ?? '';
    const known = ['encrypt-no-nsec', 'decrypt-no-nsec', 'no_nostr_extension', 'sign-no-nsec', 'timeout', 'no-conversation', 'closed', 'no-inbox-relays', 'nip44-unsupported', 'nip04-unsupported'];
    return known.includes(r) ? t(`errors.${r}`) : t('errors.unknown', { reason: r });
  };
}

function OutgoingStatus({ outgoing, onRetry }: { outgoing: DmOutgoing; onRetry: (id: number) => void }) {
  const { t } = useTranslation(DMS_NS);
  const reasonText = useReasonText();
  if (outgoing.status === 'failed')
    return (
      <span className="dm-status dm-status-failed" role="alert">
        {t('status.failed', { reason: reasonText(outgoing.reason) })}{' '}
        <button type="button" className="dm-retry" onClick={() => onRetry(outgoing.id)}>
          {t('retrySend')}
        </button>
      </span>
    );
  return <span className="dm-status">{t(`status.${outgoing.status}`)}</span>;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

function clockTime(seconds: number, locale: string): string {
  let fmt = timeFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
    timeFormats.set(locale, fmt);
  }
  return fmt.format(new Date(seconds * 1000));
}

/** The people mentioned in the messages, so that mentions show names rather than npubs. */
function useMentioned(shown: ShownMessage[], peer: string, profile: Profile): Record<string, Profile> {
  const pubkeys = useMemo(() => {
    const out = new Set<string>();
    for (const m of shown) {
      if (!m.content.includes('nostr:')) continue;
      for (const part of parseContent(m.content)) if (part.type === 'mention') out.add(part.pubkey);
    }
    out.delete(peer);
    return [...out].sort();
  }, [shown, peer]);
  const profileOf = useProfiles(pubkeys);
  const out: Record<string, Profile> = { [peer]: profile };
  for (const p of pubkeys) out[p] = profileOf(p);
  return out;
}

function Bubble({ message, mine, locale, profiles, onRetry }: { message: ShownMessage; mine: boolean; locale: string; profiles: Record<string, Profile>; onRetry: (id: number) => void }) {
  const { t } = useTranslation(DMS_NS);
  const time = clockTime(message.created_at, locale);
  return (
    <li className={mine ? 'dm-bubble dm-mine' : 'dm-bubble'} data-id={message.key} data-status={message.outgoing?.status} data-private={message.private ? 'true' : undefined}>
      <div className="dm-bubble-text">
        <NoteContent content={message.content} profiles={profiles} />
      </div>
      <span className="dm-bubble-meta">
        <time dateTime={new Date(message.created_at * 1000).toISOString()} title={formatFullDate(message.created_at, locale)}>
          {time}
        </time>
        {message.private && (
          <span className="dm-private-mark" title={t('privateTitle')}>
            {t('privateMark')}
          </span>
        )}
        {message.outgoing && <OutgoingStatus outgoing={message.outgoing} onRetry={onRetry} />}
      </span>
    </li>
  );
}

export interface ConversationProps {
  snapshot: DmSnapshot;
  peer: string;
  profile: Profile;
  me: string;
  canSend: boolean;
  onLoadMore: () => void;
  onRetryLoad: () => void;
  onSend: (text: string) => void;
  onRetrySend: (id: number) => void;
  onBack: () => void;
}

export function Conversation({ snapshot, peer, profile, me, canSend, onLoadMore, onRetryLoad, onSend, onRetrySend, onBack }: ConversationProps) {
  const { t, i18n } = useTranslation(DMS_NS);
  const locale = i18n.resolvedLanguage ?? 'hu';
  const name = displayName(profile);
  const status = snapshot.selected === peer ? snapshot.conversationStatus : 'loading';
  const shown = useMemo(
    () => (snapshot.selected === peer ? shownMessages(snapshot.messages, snapshot.outbox, peer, me) : []),
    [snapshot.selected, snapshot.messages, snapshot.outbox, peer, me],
  );
  const days = useMemo(() => groupMessages(shown), [shown]);
  const reasonText = useReasonText();
  const profiles = useMentioned(shown, peer, profile);
  const decryptError = snapshot.selected === peer ? snapshot.decryptError : undefined;
  const protocol = snapshot.selected === peer ? snapshot.protocol : undefined;
  const dayFormat = useMemo(() => new Intl.DateTimeFormat(locale, { dateStyle: 'long' }), [locale]);

  const box = useRef<HTMLDivElement>(null);
  const seen = useRef<{ first?: string; last?: string; height: number; atBottom: boolean }>({ height: 0, atBottom: true });
  const canLoadMore = status === 'ready' && snapshot.hasMoreMessages;

  // Older messages above: the view keeps its place. A new one at the bottom scrolls into view when
  // the reader was at the bottom already (or wrote it).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const first = shown[0]?.key;
    const last = shown.at(-1)?.key;
    const before = seen.current;
    if (before.first !== undefined && first !== before.first && last === before.last) el.scrollTop += el.scrollHeight - before.height;
    else if (last !== before.last && (before.atBottom || before.last === undefined || shown.at(-1)?.sender === me)) el.scrollTop = el.scrollHeight;
    seen.current = { first, last, height: el.scrollHeight, atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < STICK_EDGE };
  }, [shown, me]);

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    seen.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_EDGE;
    if (el.scrollTop < LOAD_MORE_EDGE && canLoadMore) onLoadMore();
  };

  let body;
  if (status === 'loading' || status === 'idle')
    body = (
      <div className="dm-messages-skeleton" role="status">
        <span className="visually-hidden">{t('loadingMessages')}</span>
        {[0, 1, 2, 3].map((i) => (
          <span key={i} className={i % 2 ? 'sk dm-sk dm-sk-mine' : 'sk dm-sk'} />
        ))}
      </div>
    );
  else if (status === 'error' && shown.length === 0) body = <RetryMessage title={t('messagesError')} retryLabel={t('retry')} onRetry={onRetryLoad} />;
  else if (shown.length === 0) body = decryptError ? null : <StatusMessage title={t('emptyConversation')} />;
  else
    body = (
      <>
        {snapshot.hasMoreMessages ? (
          <button type="button" className="dm-older" onClick={onLoadMore} disabled={!canLoadMore}>
            {status === 'loadingMore' ? t('loadingOlder') : t('loadOlder')}
          </button>
        ) : (
          <p className="dm-start">{t('start')}</p>
        )}
        {days.map((day) => (
          <section key={day.day} className="dm-day" aria-label={dayFormat.format(new Date(`${day.day}T12:00:00`))}>
            <h3 className="dm-day-title">{dayFormat.format(new Date(`${day.day}T12:00:00`))}</h3>
            {day.runs.map((run) => (
              <ol key={run.messages[0].key} className={run.sender === me ? 'dm-run dm-run-mine' : 'dm-run'} data-sender={run.sender}>
                <li className="visually-hidden">{run.sender === me ? t('you') : name}</li>
                {run.messages.map((m) => (
                  <Bubble key={m.key} message={m} mine={run.sender === me} locale={locale} profiles={profiles} onRetry={onRetrySend} />
                ))}
              </ol>
            ))}
          </section>
        ))}
      </>
    );

  return (
    <section className="dm-conversation" aria-label={t('conversationLabel', { name })} data-peer={peer}>
      <header className="dm-conversation-header">
        <button type="button" className="dm-back" onClick={onBack} aria-label={t('back')}>
          ←
        </button>
        <Link href={`/p/${toNpub(peer)}`} className="dm-peer" title={t('openProfile')}>
          <Avatar profile={profile} name={name} size={40} />
          <h2 className="dm-peer-name">
            {name}
            <MemberBadge profile={profile} />
          </h2>
        </Link>
        {protocol && (
          <span className="dm-protocol" data-protocol={protocol} title={t(`protocolHint.${protocol}`)}>
            {t(`protocol.${protocol}`)}
          </span>
        )}
      </header>
      <div
        ref={box}
        className="dm-messages"
        onScroll={onScroll}
        data-status={status}
        data-count={shown.length}
        tabIndex={0}
        role="log"
        aria-label={t('messagesLabel')}
        aria-busy={status === 'loading' || status === 'loadingMore'}
      >
        {decryptError && (
          <p className="dm-decrypt-error" role="status">
            {t('decryptFailed', { reason: reasonText(decryptError) })}
          </p>
        )}
        {body}
      </div>
      <DmComposer key={peer} peer={peer} disabled={!canSend} onSend={onSend} protocol={protocol} />
    </section>
  );
}
