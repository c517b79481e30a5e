import { useTranslation } from 'react-i18next';
import { connect } from '../../worker-client';
import { settingsAction, useAccount } from '../../lib/account';
import { toastError, toastSuccess } from '../../lib/toast';
import { Switch } from '../moderation/Switch';
import { useActivity } from './hooks';
import type { Run } from '../../lib/useBusy';

/** The privacy proxy: relays reached through the caching service; saved as proxyThroughPrimal. */
export function ProxyOption({ busy, run }: { busy: boolean; run: Run }) {
  const { t } = useTranslation('network');
  const snapshot = useAccount();
  const activity = useActivity();
  const signedIn = snapshot?.login.state === 'signedIn';
  const saved = snapshot?.settings.settings.proxyThroughPrimal === true;
  const on = signedIn ? saved : (activity?.proxy ?? false);

  const toggle = (next: boolean) =>
    run(async () => {
      await (await connect()).setProxy(next);
      if (!signedIn) return;
      const result = await settingsAction({ type: 'updateSettings', patch: { proxyThroughPrimal: next } });
      if (result.ok) toastSuccess(t('saved'));
      else toastError(t('saveFailed'));
    });

  return (
    <section className="mod-section" aria-labelledby="network-proxy">
      <h2 id="network-proxy" className="mod-section-title">
        {t('proxy.title')}
      </h2>
      <Switch label={t('proxy.label')} checked={on} disabled={busy} onChange={(next) => void toggle(next)} />
      <p className="form-hint">{t('proxy.hint')}</p>
      {activity && <p className="net-state">{t(activity.proxy ? 'proxy.on' : 'proxy.off')}</p>}
      {!signedIn && <p className="form-hint">{t('proxy.signIn')}</p>}
    </section>
  );
}
