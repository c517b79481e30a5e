/**
 * A one-field form of the settings pages (a muted word, a relay, a cache server address): label,
 * field and button on one line, then the hint or the Hungarian error. Bad input keeps the text.
 */
import { useId, useState, type FormEvent } from 'react';

export interface OneFieldFormProps {
  label: string;
  hint: string;
  button: string;
  initial?: string;
  /** 'url' asks for a ws(s):// address: URL keyboard, no spell check. */
  kind?: 'text' | 'url';
  disabled?: boolean;
  /** Another action of the page is running. */
  busy?: boolean;
  /** Resolves with an error message to show, 'clear' to empty the field, or nothing to keep it. */
  onSubmit: (text: string) => Promise<string | 'clear' | void>;
}

export function OneFieldForm({ label, hint, button, initial = '', kind = 'text', disabled, busy, onSubmit }: OneFieldFormProps) {
  const id = useId();
  const [text, setText] = useState(initial);
  const [error, setError] = useState('');
  const [working, setWorking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setWorking(true);
    try {
      const outcome = await onSubmit(text);
      if (outcome === 'clear') setText('');
      else if (outcome) setError(outcome);
    } finally {
      setWorking(false);
    }
  };

  const url = kind === 'url';
  return (
    <form className="mod-add" onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={`${id}-input`} className="mod-add-label">
        {label}
      </label>
      <div className="mod-add-line">
        <input
          id={`${id}-input`}
          className="form-input"
          type={url ? 'url' : 'text'}
          inputMode={url ? 'url' : undefined}
          placeholder={url ? 'wss://' : undefined}
          spellCheck={url ? false : undefined}
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
        <button type="submit" className="button" disabled={disabled || busy || working}>
          {button}
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
