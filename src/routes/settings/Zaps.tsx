/**
 * Settings → Zaps: the default zap (spec §9: 42 sats, 'Haladjunk együtt! 🫡') and the six quick
 * zaps with emoji and message. Edited as one form and saved with the Save button; bad amounts are
 * refused with a message and never lose what was typed. Restore defaults asks first.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsAction, useAccount, useActingPubkey } from '../../lib/account';
import { confirmDialog } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { sameZapForm, validateZapForm, zapFormOf, zapFormValid, zapPatch, type AmountProblem, type ZapForm } from '../../lib/zapSettings';
import { SETTINGS_NS } from '../../components/settings/i18n';
import { LoginPrompt, loginPending, SettingsLoading, SettingsSection, SettingsStatus } from '../../components/settings/common';
import type { AppSettings } from '../../../core/types';

export default function ZapsSettings() {
  const snapshot = useAccount();
  const pubkey = useActingPubkey();
  if (loginPending(snapshot)) return <SettingsLoading />;
  if (!pubkey || !snapshot) return <LoginPrompt />;
  if (snapshot.settings.state !== 'ready') return <SettingsLoading />;
  return <ZapsForm key={pubkey} settings={snapshot.settings.settings} warning={snapshot.settings.warning} />;
}

function ZapsForm({ settings, warning }: { settings: AppSettings; warning?: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  const server = zapFormOf(settings);
  const [form, setForm] = useState<ZapForm>(server);
  const [dirty, setDirty] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const serverKey = JSON.stringify(server);
  /** The saved form, until the worker's snapshot shows it (so the form does not flick back meanwhile). */
  const expected = useRef<string | null>(null);

  // Outside an edit the form mirrors the settings, so a change from another tab or a restore shows.
  useEffect(() => {
    if (dirty) return;
    if (expected.current !== null && expected.current !== serverKey) return;
    expected.current = null;
    setForm((current) => (JSON.stringify(current) === serverKey ? current : (JSON.parse(serverKey) as ZapForm)));
  }, [serverKey, dirty]);

  const problems = validateZapForm(form);
  const valid = zapFormValid(problems);

  const edit = (next: ZapForm) => {
    setForm(next);
    setDirty(!sameZapForm(next, JSON.parse(serverKey) as ZapForm));
  };
  const setPreset = (i: number, patch: Partial<ZapForm['presets'][number]>) =>
    edit({ ...form, presets: form.presets.map((p, j) => (j === i ? { ...p, ...patch } : p)) });

  const amountError = (problem: AmountProblem | undefined, touched: boolean) => (problem && (submitted || touched) ? t(`zaps.errors.${problem}`) : undefined);

  const save = async () => {
    setSubmitted(true);
    if (!valid) {
      document.querySelector<HTMLInputElement>('.zap-settings [aria-invalid="true"]')?.focus();
      return;
    }
    const result = await settingsAction({ type: 'updateSettings', patch: zapPatch(form) });
    if (!result.ok) {
      toastError(t('common.saveFailed'));
      return;
    }
    expected.current = JSON.stringify(zapFormOf(zapPatch(form)));
    setDirty(false);
    setSubmitted(false);
    toastSuccess(t('zaps.saved'));
  };

  const restore = async () => {
    const ok = await confirmDialog({
      title: t('zaps.restoreTitle'),
      message: t('zaps.restoreMessage'),
      confirmLabel: t('zaps.restoreConfirm'),
      danger: true,
    });
    if (!ok) return;
    setRestoring(true);
    try {
      const result = await settingsAction({ type: 'restoreDefaultZaps' });
      if (!result.ok) {
        toastError(t('zaps.restoreFailed'));
        return;
      }
      // The defaults arrive with the next snapshot; the form follows it once it is not dirty.
      setDirty(false);
      setSubmitted(false);
      toastSuccess(t('zaps.restored'));
    } finally {
      setRestoring(false);
    }
  };

  const defaultAmountError = amountError(problems.amount, form.amount !== server.amount);

  return (
    <form
      className="settings-form zap-settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <SettingsStatus warning={warning} />
      <SettingsSection title={t('zaps.defaultHeading')} hint={t('zaps.defaultHint')}>
        <div className="zap-row zap-row-default">
          <Field id="zap-default-amount" label={t('zaps.amount')} error={defaultAmountError} className="zap-amount">
            <input
              id="zap-default-amount"
              className="form-input"
              inputMode="numeric"
              autoComplete="off"
              value={form.amount}
              aria-invalid={defaultAmountError ? true : undefined}
              aria-describedby={defaultAmountError ? 'zap-default-amount-error' : undefined}
              onChange={(e) => edit({ ...form, amount: e.currentTarget.value })}
            />
          </Field>
          <Field id="zap-default-message" label={t('zaps.message')} error={problems.message && t('zaps.errors.tooLong')} className="zap-message">
            <input
              id="zap-default-message"
              className="form-input"
              value={form.message}
              aria-invalid={problems.message ? true : undefined}
              aria-describedby={problems.message ? 'zap-default-message-error' : undefined}
              onChange={(e) => edit({ ...form, message: e.currentTarget.value })}
            />
          </Field>
        </div>
      </SettingsSection>
      <SettingsSection title={t('zaps.presetsHeading')} hint={t('zaps.presetsHint')}>
        <ol className="zap-presets">
          {form.presets.map((preset, i) => {
            const p = problems.presets[i];
            const base = `zap-preset-${i}`;
            const error = amountError(p.amount, preset.amount !== server.presets[i]?.amount);
            return (
              <li key={i}>
                <fieldset className="zap-row">
                  <legend className="zap-preset-legend">{t('zaps.preset', { index: i + 1 })}</legend>
                  <Field id={`${base}-emoji`} label={t('zaps.emoji')} error={p.emoji && t('zaps.errors.emojiTooLong')} className="zap-emoji">
                    <input
                      id={`${base}-emoji`}
                      className="form-input"
                      autoComplete="off"
                      value={preset.emoji}
                      aria-invalid={p.emoji ? true : undefined}
                      onChange={(e) => setPreset(i, { emoji: e.currentTarget.value })}
                    />
                  </Field>
                  <Field id={`${base}-amount`} label={t('zaps.amount')} error={error} className="zap-amount">
                    <input
                      id={`${base}-amount`}
                      className="form-input"
                      inputMode="numeric"
                      autoComplete="off"
                      value={preset.amount}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${base}-amount-error` : undefined}
                      onChange={(e) => setPreset(i, { amount: e.currentTarget.value })}
                    />
                  </Field>
                  <Field id={`${base}-message`} label={t('zaps.message')} error={p.message && t('zaps.errors.tooLong')} className="zap-message">
                    <input
                      id={`${base}-message`}
                      className="form-input"
                      value={preset.message}
                      aria-invalid={p.message ? true : undefined}
                      onChange={(e) => setPreset(i, { message: e.currentTarget.value })}
                    />
                  </Field>
                </fieldset>
              </li>
            );
          })}
        </ol>
      </SettingsSection>
      <div className="settings-actions">
        {submitted && !valid && (
          <p className="form-error settings-actions-error" role="alert">
            {t('zaps.fixErrors')}
          </p>
        )}
        <button type="submit" className="button" disabled={!dirty}>
          {t('zaps.save')}
        </button>
        {dirty && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setForm(JSON.parse(serverKey) as ZapForm);
              setDirty(false);
              setSubmitted(false);
            }}
          >
            {t('zaps.discard')}
          </button>
        )}
        <button type="button" className="button button-secondary" disabled={restoring} onClick={() => void restore()}>
          {t('zaps.restore')}
        </button>
      </div>
    </form>
  );
}

function Field({ id, label, error, className, children }: { id: string; label: string; error?: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={`form-field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}
