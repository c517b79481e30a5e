/**
 * The app-wide modals that any part of the UI can open (login, new note, feed marketplace,
 * getting started, confirm). One store; the shell's <OverlayHost/> loads each modal's chunk
 * only when it first opens.
 */
import { useSyncExternalStore } from 'react';
import type { FeedNote } from '../../core/types';
import { accountSnapshot, fullApi } from './account';

export interface ComposerRequest {
  /** The note replied to: root/reply markers and the reply's draft key come from it. */
  replyTo?: FeedNote;
  /** The note quoted: its nevent goes into the text. */
  quote?: FeedNote;
  /** Text to start with (when no draft exists). */
  text?: string;
}

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  resolve: (ok: boolean) => void;
}

export type Overlay =
  | { kind: 'login' }
  | { kind: 'gettingStarted' }
  | { kind: 'composer'; request: ComposerRequest }
  | { kind: 'marketplace'; list: 'home' | 'reads' };

interface OverlayState {
  overlay: Overlay | null;
  confirm: ConfirmRequest | null;
}

let state: OverlayState = { overlay: null, confirm: null };
const listeners = new Set<() => void>();

function set(patch: Partial<OverlayState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function openOverlay(overlay: Overlay): void {
  set({ overlay });
}

export function closeOverlay(): void {
  set({ overlay: null });
}

/**
 * Someone who is not signed in tried to act. A locked key (stored with a PIN, prompt dismissed)
 * gets its PIN prompt back, as the spec asks; anyone else the login modal.
 */
export function openLogin(): void {
  if (accountSnapshot()?.login.state === 'locked') void fullApi().then((api) => api.askPin());
  else openOverlay({ kind: 'login' });
}
export const openComposer = (request: ComposerRequest = {}) => openOverlay({ kind: 'composer', request });

/** Asks before a destructive action (mute, report, remove a relay...); resolves true on confirm. */
export function confirmDialog(request: Omit<ConfirmRequest, 'resolve'>): Promise<boolean> {
  state.confirm?.resolve(false);
  return new Promise((resolve) => set({ confirm: { ...request, resolve } }));
}

export function settleConfirm(ok: boolean): void {
  const pending = state.confirm;
  set({ confirm: null });
  pending?.resolve(ok);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOverlays(): OverlayState {
  return useSyncExternalStore(subscribe, () => state, () => state);
}
