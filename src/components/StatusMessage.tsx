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
