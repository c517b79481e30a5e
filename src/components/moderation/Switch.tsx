import { useId } from 'react';

/** An on/off control with a visible label (role switch, so screen readers say on and off). */
export function Switch({ label, checked, disabled, onChange }: { label: string; checked: boolean; disabled?: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="mod-switch-row">
      <span id={id} className="mod-switch-label">
        {label}
      </span>
      <button
        type="button"
        role="switch"
        className="mod-switch"
        aria-checked={checked}
        aria-labelledby={id}
        disabled={disabled}
        onClick={() => onChange(!checked)}
      >
        <span className="mod-switch-knob" aria-hidden="true" />
      </button>
    </div>
  );
}
