/**
 * The caching service: the socket's current address and state, moving to another ws(s) address
 * (kept in localStorage for the next start and applied to the running worker at once), and an
 * alternative address one click away.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkCacheServerUrl } from '../../../core/cacheServerUrl';
import { fullApi } from '../../lib/account';
import { useSocketState } from '../../lib/hooks';
import { toastError, toastSuccess } from '../../lib/toast';
import { OneFieldForm } from '../settings/OneFieldForm';
import { CACHE_SERVER_ALT_KEY, CACHE_SERVER_KEY, defaultCacheServer, readStored, writeStored } from './cacheServer';

function UrlForm({ label, hint, button, initial, onSubmit }: { label: string; hint: string; button: string; initial?: string; onSubmit: (url: string) => Promise<void> }) {
  const submit = async (text: string) => {
    const checked = checkCacheServerUrl(text);
    if (!checked.ok) return checked.error;
    await onSubmit(checked.url);
  };
  return <OneFieldForm kind="url" label={label} hint={hint} button={button} initial={initial} onSubmit={submit} />;
}

export function CacheServer() {
  const { t } = useTranslation('network');
  const { snapshot } = useSocketState();
  const [alt, setAlt] = useState(() => readStored(CACHE_SERVER_ALT_KEY));

  const switchTo = async (url: string) => {
    const result = await (await fullApi()).setCacheServer(url);
    if (!result.ok) {
      toastError(result.error);
      return;
    }
    writeStored(CACHE_SERVER_KEY, result.url === defaultCacheServer() ? null : result.url);
    toastSuccess(t('cache.changed'));
  };

  const state = snapshot?.state ?? 'idle';
  return (
    <section className="mod-section" aria-labelledby="network-cache">
      <h2 id="network-cache" className="mod-section-title">
        {t('cache.title')}
      </h2>
      <p className="mod-section-intro">{t('cache.intro')}</p>
      <div className="net-relay-main net-cache-now" data-state={state}>
        <span className="net-dot" data-state={state} aria-hidden="true" />
        <span className="mod-person-text">
          <span className="net-url" data-testid="cache-url">
            {snapshot?.url ?? ''}
          </span>
          <span className="net-state" data-testid="cache-state">
            {t(`cache.state.${state}`)}
          </span>
        </span>
      </div>
      <UrlForm key={snapshot?.url} label={t('cache.label')} hint={t('cache.hint')} button={t('cache.connect')} initial={snapshot?.url} onSubmit={switchTo} />
      {snapshot && snapshot.url !== defaultCacheServer() && (
        <div>
          <button type="button" className="button button-secondary" onClick={() => void switchTo(defaultCacheServer())}>
            {t('cache.reset')}
          </button>
        </div>
      )}
      <h3 className="net-subtitle">{t('cache.altTitle')}</h3>
      <p className="mod-section-intro">{t('cache.altIntro')}</p>
      <UrlForm
        label={t('cache.altLabel')}
        hint={t('cache.hint')}
        button={t('cache.altSave')}
        initial={alt}
        onSubmit={async (url) => {
          writeStored(CACHE_SERVER_ALT_KEY, url);
          setAlt(url);
          toastSuccess(t('cache.altSaved'));
        }}
      />
      {alt ? (
        <div className="mod-row-actions">
          <button type="button" className="button button-secondary" disabled={alt === snapshot?.url} onClick={() => void switchTo(alt)}>
            {t('cache.altSwitch')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              writeStored(CACHE_SERVER_ALT_KEY, null);
              setAlt('');
            }}
          >
            {t('cache.altRemove')}
          </button>
        </div>
      ) : (
        <p className="mod-empty">{t('cache.altNone')}</p>
      )}
    </section>
  );
}
