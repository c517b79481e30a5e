import { useTranslation } from 'react-i18next';
import { OneFieldForm } from '../settings/OneFieldForm';
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
  const submit = async (text: string) => {
    const checked = check(text);
    if (!checked.ok) return t(`input.${checked.error}`);
    const lower = checked.value.toLocaleLowerCase('hu');
    if (existing.some((v) => v.toLocaleLowerCase('hu') === lower)) return t('input.already');
    return (await onAdd(checked.value)) ? 'clear' : undefined;
  };
  return <OneFieldForm label={label} hint={hint} button={buttonLabel} disabled={disabled} onSubmit={submit} />;
}
