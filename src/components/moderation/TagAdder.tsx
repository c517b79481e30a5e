import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { InputCheck } from './muted';

export interface TagAdderProps {
  label: string;
  hint: string;
  buttonLabel: string;
  check: (raw: string) => InputCheck;
  /** Already on the list (compared without case). */
  existing: string[];
  disabled?: boolean;
  /** Resolves true when saved; the field keeps the text otherwise. */
  onAdd: (value: string) => Promise<boolean>;
}

/** A one-field form adding a word or hashtag; bad input gets a Hungarian message and keeps the text. */
export function TagAdder({ label, hint, buttonLabel, check, existing, disabled, onAdd }: TagAdderProps) {
  const { t } = useTranslation('moderation');
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = check(text);
    if (!checked.ok) {
      setError(t(`input.${checked.error}`));
      return;
    }
    const lower = checked.value.toLocaleLowerCase('hu');
    if (existing.some((v) => v.toLocaleLowerCase('hu') === lower)) {
      setError(t('input.already'));
      return;
    }
    setBusy(true);
    try {
      if (await onAdd(checked.value)) setText('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="mod-add" onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={`${id}-input`} className="mod-add-label">
        {label}
      </label>
      <div className="mod-add-line">
        <input
          id={`${id}-input`}
          className="form-input"
          value={text}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-note`}
          disabled={disabled}
          onChange={(e) => {
            setText(e.target.value);
            setError('');
          }}
        />
        <button type="submit" className="button" disabled={disabled || busy}>
          {buttonLabel}
        </button>
      </div>
      {error ? (
        <p id={`${id}-note`} className="form-error" role="alert">
          {error}
        </p>
      ) : (
        <p id={`${id}-note`} className="form-hint">
          {hint}
        </p>
      )}
    </form>
  );
}
