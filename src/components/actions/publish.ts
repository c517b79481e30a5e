/** Publishing the note actions' own events through the worker (signing, write relays, cache import). */
import type { NostrEvent, PublishResult, UnsignedEvent } from '../../../core/types';
import { connect } from '../../worker-client';

/** Resolves with the worker's answer; a broken worker connection counts as a failed publish. */
export async function publishEvent(event: NostrEvent | UnsignedEvent): Promise<PublishResult> {
  try {
    return await (await connect()).publish(event);
  } catch {
    return { success: false, reasons: { '*': 'failed' }, outcome: 'failed' };
  }
}
