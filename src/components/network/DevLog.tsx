import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { LogEntry } from '../../../core/types';
import { copyText } from './copy';

const time = (at: number) => new Date(at).toLocaleTimeString('hu-HU', { hour12: false });

export function logText(entries: LogEntry[]): string {
  return entries.map((e) => `${new Date(e.at).toISOString()} ${e.level} [${e.source}] ${e.message}`).join('\n');
}

/** A line in the reader's language; states and outcomes are named, relays' own messages stay as they came. */
export function logLineText(e: LogEntry, t: TFunction<'network'>): string {
  if (!e.key || !e.params) return e.message;
  const p = e.params;
  const relayState = (v: string | number) => t(`state.${v}`, { defaultValue: String(v) });
  switch (e.key) {
    case 'socketState':
      return t('log.socketState', { state: t(`log.socket.${p.state}`, { defaultValue: String(p.state) }), url: p.url });
    case 'relayAdded':
      return t('log.relayAdded', { url: p.url, state: relayState(p.state) });
    case 'relayChanged': {
      const line = t('log.relayChanged', { url: p.url, from: relayState(p.from), to: relayState(p.to) });
      return p.error ? `${line} (${p.error})` : line;
    }
    case 'publish': {
      const line = t('log.publish', { kind: p.kind, id: p.id, outcome: t(`log.outcome.${p.outcome}`, { defaultValue: String(p.outcome) }) });
      return p.reasons ? `${line} — ${p.reasons}` : line;
    }
    default:
      return t(`log.${e.key}`, { url: p.url });
  }
}

/** The worker's recent log, newest last, scrollable and copyable. */
export function DevLog({ entries }: { entries: LogEntry[] | undefined }) {
  const { t } = useTranslation('network');
  return (
    <section className="mod-section" aria-labelledby="dev-logs">
      <div className="dev-block-head">
        <h2 id="dev-logs" className="mod-section-title">
          {t('devtools.logsTitle')}
        </h2>
        <button type="button" className="button button-secondary" disabled={!entries?.length} onClick={() => void copyText(logText(entries ?? []))}>
          {t('devtools.copyLogs')}
        </button>
      </div>
      <p className="mod-section-intro">{t('devtools.logsIntro')}</p>
      {!entries ? (
        <p className="mod-empty" aria-busy="true">
          {t('loading')}
        </p>
      ) : entries.length === 0 ? (
        <p className="mod-empty">{t('devtools.logsEmpty')}</p>
      ) : (
        <ol className="dev-log" aria-label={t('devtools.logsTitle')} tabIndex={0} data-testid="dev-log">
          {entries.map((e, i) => (
            <li key={`${e.at}-${i}`}>
              <time className="dev-log-time" dateTime={new Date(e.at).toISOString()}>
                {time(e.at)}
              </time>
              <span className="dev-log-level" data-level={e.level}>
                {t(`devtools.level.${e.level}`)}
              </span>
              <span className="dev-log-source">{e.source}</span>
              <span className="dev-log-message">{logLineText(e, t)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
