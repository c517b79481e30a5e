/** Small helpers shared by the login modals, the /new wizard and the account page. */
import { showToast, toastSuccess } from '../../lib/toast';
import { useWorkerRequest } from '../../lib/useWorkerRequest';

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
  const { data: nsec } = useWorkerRequest(wanted ? (api) => api.revealSecret() : null, [wanted]);
  return (wanted && nsec) || null;
}
