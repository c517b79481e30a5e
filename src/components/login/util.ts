/** Small helpers shared by the login modals, the /new wizard and the account page. */
import { useEffect, useState } from 'react';
import { connect } from '../../worker-client';
import { showToast, toastSuccess } from '../../lib/toast';

/** A NIP-07 extension is present in this tab (the worker cannot see window.nostr itself). */
export function hasExtension(): boolean {
  return typeof (window as { nostr?: { signEvent?: unknown } }).nostr?.signEvent === 'function';
}

/** Copies and says so in a toast; a refused clipboard gets an error toast instead. */
export async function copyWithToast(text: string, copied: string, failed: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toastSuccess(copied);
    return true;
  } catch {
    showToast(failed, 'error');
    return false;
  }
}

/** The signed-in key's nsec, read from the worker only while `wanted` and forgotten when it is not. */
export function useRevealedSecret(wanted: boolean): string | null {
  const [nsec, setNsec] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted) return setNsec(null);
    let live = true;
    void connect()
      .then((api) => api.revealSecret())
      .then((value) => live && setNsec(value));
    return () => {
      live = false;
    };
  }, [wanted]);
  return nsec;
}
