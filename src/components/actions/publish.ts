/** Publishing the note actions' own events through the worker (signing, write relays, cache import). */
import type { NostrEvent, PublishResult, UnsignedEvent } from '../../../core/types';
import { fullApi } from '../../lib/account';

/** Resolves with the worker's answer; a broken worker connection counts as a failed publish. */
export async function publishEvent(event: NostrEvent | UnsignedEvent): Promise<PublishResult> {
  try {
    return await (await fullApi()).publish(event);
  } catch {
    return { success: false, reasons: { '*': 'failed' }, outcome: 'failed' };
  }
}
