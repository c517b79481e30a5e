import type { ReactNode } from 'react';

export function StatusMessage({ title, children, action, tone = 'info' }: { title: string; children?: ReactNode; action?: ReactNode; tone?: 'info' | 'error' }) {
  return (
    <div className={`status-message status-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <p className="status-title">{title}</p>
      {children && <p className="status-text">{children}</p>}
      {action}
    </div>
  );
}

/** A failed load with its retry button: the one shape every page and list uses for it. */
export function RetryMessage({ title, children, retryLabel, onRetry }: { title: string; children?: ReactNode; retryLabel: string; onRetry: () => void }) {
  return (
    <StatusMessage
      tone="error"
      title={title}
      action={
        <button type="button" className="button" onClick={onRetry}>
          {retryLabel}
        </button>
      }
    >
      {children}
    </StatusMessage>
  );
}
