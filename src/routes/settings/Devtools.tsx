/**
 * /settings/devtools: the developer mode switch (localStorage devMode, read by the tab at start),
 * the worker's log, and read-only JSON snapshots of its machines.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../components/network/i18n';
import '../../components/moderation/moderation.css';
import '../../components/network/network.css';
import { useAccount } from '../../lib/account';
import { useSocketState } from '../../lib/hooks';
import { config } from '../../worker-client';
import { Switch } from '../../components/moderation/Switch';
import { copyText } from '../../components/network/copy';
import { DevLog } from '../../components/network/DevLog';
import { useActivity, useLogs, useRelays } from '../../components/network/hooks';
import { readStored, writeStored } from '../../components/network/cacheServer';

function JsonBlock({ id, title, value }: { id: string; title: string; value: unknown }) {
  const { t } = useTranslation('network');
  const text = JSON.stringify(value ?? null, null, 2);
  return (
    <div className="dev-block">
      <div className="dev-block-head">
        <h3 id={id}>{title}</h3>
        <button type="button" className="button button-secondary" aria-label={`${t('devtools.copy')}: ${title}`} onClick={() => void copyText(text)}>
          {t('devtools.copy')}
        </button>
      </div>
      <pre className="dev-json" translate="no" aria-labelledby={id} tabIndex={0} data-testid={`dev-json-${id}`}>
        {text}
      </pre>
    </div>
  );
}

export default function DevtoolsSettings() {
  const { t } = useTranslation('network');
  const [devMode, setDevMode] = useState(() => readStored('devMode') === 'true');
  const account = useAccount();
  const { snapshot: socket } = useSocketState();
  const relays = useRelays();
  const activity = useActivity();
  const logs = useLogs();
  const pendingReload = devMode !== config.devMode;

  return (
    <div className="mod-page">
      <section className="mod-section" aria-labelledby="dev-mode">
        <h2 id="dev-mode" className="mod-section-title">
          {t('devtools.modeTitle')}
        </h2>
        <Switch
          label={t('devtools.mode')}
          checked={devMode}
          onChange={(on) => {
            writeStored('devMode', on ? 'true' : null);
            setDevMode(on);
          }}
        />
        <p className="form-hint">{t('devtools.modeHint')}</p>
        {pendingReload && (
          <div className="mod-signin" role="status">
            <p>{t('devtools.reloadNeeded')}</p>
            <button type="button" className="button" onClick={() => location.reload()}>
              {t('devtools.reload')}
            </button>
          </div>
        )}
      </section>
      <DevLog entries={logs} />
      <section className="mod-section" aria-labelledby="dev-state">
        <h2 id="dev-state" className="mod-section-title">
          {t('devtools.stateTitle')}
        </h2>
        <p className="mod-section-intro">{t('devtools.stateIntro')}</p>
        <JsonBlock id="account" title={t('devtools.account')} value={account} />
        <JsonBlock id="socket" title={t('devtools.socket')} value={socket} />
        <JsonBlock id="relays" title={t('devtools.relays')} value={relays} />
        <JsonBlock id="activity" title={t('devtools.activity')} value={activity} />
      </section>
    </div>
  );
}
