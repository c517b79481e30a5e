import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { noteEncode } from 'nostr-tools/nip19';
import type { NostrEvent } from '../../../core/types';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { profileOf, rememberProfiles } from './useProfiles';
import { displayName } from '../../../core/profile';

const SNIPPET_CHARS = 140;
const NO_NOTES: Record<string, NostrEvent> = {};

/** The muted threads' root notes, fetched once per set of ids; unknown ones show their id. */
function useNotes(ids: string[]): Record<string, NostrEvent> {
  const key = [...ids].sort().join(',');
  const { data } = useWorkerRequest(
    key
      ? (api) =>
          api.request('events', { event_ids: key.split(','), extended_response: true }).then((reply) => {
            rememberProfiles(reply.events);
            const out: Record<string, NostrEvent> = {};
            for (const o of reply.events) {
              if (typeof o.id === 'string' && typeof o.content === 'string' && o.kind !== 0) out[o.id] = o as unknown as NostrEvent;
            }
            return out;
          })
      : null,
    [key],
    // Unmuting one thread asks again; the others keep their text meanwhile instead of flashing ids.
    { keep: true },
  );
  const notes = data ?? NO_NOTES;
  return notes;
}

function noteId(id: string): string {
  try {
    return noteEncode(id);
  } catch {
    return id;
  }
}

export function MutedThreads({ ids, busy, onUnmute }: { ids: string[]; busy: boolean; onUnmute: (id: string) => void }) {
  const { t } = useTranslation('moderation');
  const notes = useNotes(ids);
  if (ids.length === 0) return <p className="mod-empty">{t('threads.empty')}</p>;
  return (
    <ul className="mod-list">
      {ids.map((id) => {
        const note = notes[id];
        const text = note?.content.trim() ?? '';
        return (
          <li key={id} className="mod-row" data-thread={id}>
            <div className="mod-thread">
              {note && <span className="mod-person-name">{displayName(profileOf(note.pubkey))}</span>}
              <span className="mod-thread-text">
                {note ? (text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text) : t('threads.unknown')}
              </span>
              <Link href={`/e/${noteId(id)}`} className="mod-link">
                {t('threads.open')}
              </Link>
            </div>
            <div className="mod-row-actions">
              <button type="button" className="button button-secondary" disabled={busy} onClick={() => onUnmute(id)}>
                {t('unmute')}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
