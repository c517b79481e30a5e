/** The wizard's four steps, the current one marked for screen readers too. */
import { useTranslation } from 'react-i18next';
import type { WizardStep } from '../../lib/newAccount';

const STEPS: WizardStep[] = [1, 2, 3, 4];

export function StepIndicator({ step }: { step: WizardStep }) {
  const { t } = useTranslation('login');
  return (
    <nav aria-label={t('wizard.steps')}>
      <ol className="wizard-steps">
        {STEPS.map((s) => (
          <li key={s} className={`wizard-step${s === step ? ' is-current' : ''}${s < step ? ' is-done' : ''}`} aria-current={s === step ? 'step' : undefined}>
            <span className="wizard-step-number" aria-hidden="true">
              {s < step ? '✓' : s}
            </span>
            <span className="wizard-step-name">{t(`wizard.stepNames.${s}`)}</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Back and forward buttons at the bottom of each step; forward submits the step's form. */
export function StepNav({ onBack, next, busy = false, disabled = false }: { onBack?: () => void; next: string; busy?: boolean; disabled?: boolean }) {
  const { t } = useTranslation('login');
  return (
    <div className="wizard-nav">
      {onBack && (
        <button type="button" className="button button-secondary" onClick={onBack} disabled={busy}>
          {t('wizard.back')}
        </button>
      )}
      <button type="submit" className="button" disabled={busy || disabled} aria-busy={busy}>
        {next}
      </button>
    </div>
  );
}
