/**
 * Membership requests of the premium pages (spec §7 "Membership and leaderboard"): the signed
 * ones carry their parameters inside the signed content (protocol C.1), which only the worker's
 * signer can make; a purchase or rename then re-reads the tier, so every tab shows it at once.
 */
import type { AccountService } from './account.ts';
import type { CacheReply } from '../core/types.ts';
import type { CacheRequest } from './accountRemote.ts';

/** The membership commands a tab may send signed; anything else is refused before signing. */
const SIGNED = new Set([
  'membership_status',
  'membership_change_name',
  'membership_purchase_product',
  'membership_purchase_history',
  'membership_legend_customization',
  'membership_media_management_stats',
  'membership_media_management_uploads',
  'membership_media_management_delete',
  'membership_recovery_contact_lists',
  'membership_content_stats',
  'membership_content_backup',
  'membership_content_rebroadcast_start',
  'membership_content_rebroadcast_cancel',
]);

export function createMembershipApi(options: { request: CacheRequest; account: AccountService }) {
  const { request, account } = options;
  return {
    async membershipRequest(command: string, params: Record<string, unknown> = {}): Promise<CacheReply> {
      if (!SIGNED.has(command)) return { events: [], notice: `not a signed membership command: ${command}` };
      let event;
      try {
        event = await account.signer.signRequest(command, params);
      } catch {
        return { events: [], notice: 'sign-failed' };
      }
      return request(command, { event_from_user: event });
    },
    async refreshMembership(): Promise<void> {
      account.refreshMembership();
    },
  };
}
