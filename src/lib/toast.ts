/**
 * Toasts (spec §8): short messages that disappear on their own — 4000 ms by default, 2000 ms for
 * a success. Any module may call showToast; the one <Toaster/> in the shell draws them.
 */
import { useSyncExternalStore } from 'react';

export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  text: string;
  kind: ToastKind;
}

export const TOAST_MS = 4000;
export const SUCCESS_TOAST_MS = 2000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export function showToast(text: string, kind: ToastKind = 'info'): number {
  const id = nextId++;
  // The same text twice in a row (a double click) shows once.
  toasts = [...toasts.filter((t) => t.text !== text), { id, text, kind }].slice(-4);
  emit();
  setTimeout(() => dismissToast(id), kind === 'success' ? SUCCESS_TOAST_MS : TOAST_MS);
  return id;
}

export const toastSuccess = (text: string) => showToast(text, 'success');
export const toastError = (text: string) => showToast(text, 'error');

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(subscribe, () => toasts, () => toasts);
}
