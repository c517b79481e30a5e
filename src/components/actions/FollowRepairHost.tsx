/** Always mounted in the shell: opens the follow-list repair dialog while the account waits for it. */
import { lazy, Suspense } from 'react';
import { useAccount } from '../../lib/account';

const FollowRepairDialog = lazy(() => import('./FollowRepairDialog'));

export function FollowRepairHost() {
  const open = useAccount()?.followRepair ?? false;
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <FollowRepairDialog />
    </Suspense>
  );
}
