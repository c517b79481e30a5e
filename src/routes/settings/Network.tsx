/**
 * /settings/network: relays with their live state, own and suggested relays, the NIP-17 inbox relays, the caching
 * service and its alternative, and the privacy proxy.
 */
import '../../components/network/i18n';
import '../../components/moderation/moderation.css';
import '../../components/network/network.css';
import { useAccount } from '../../lib/account';
import { CacheServer } from '../../components/network/CacheServer';
import { useRelays } from '../../components/network/hooks';
import { InboxRelays } from '../../components/network/InboxRelays';
import { OwnRelays } from '../../components/network/OwnRelays';
import { ProxyOption } from '../../components/network/ProxyOption';
import { RelaysSection } from '../../components/network/RelaysSection';
import { useBusy } from '../../lib/useBusy';

export default function NetworkSettings() {
  const relays = useRelays();
  const snapshot = useAccount();
  const { busy, run } = useBusy();
  const pubkey = snapshot?.account?.pubkey;
  return (
    <div className="mod-page">
      <RelaysSection relays={relays} busy={busy} run={run} />
      <OwnRelays pubkey={pubkey} relays={relays ?? []} busy={busy} run={run} />
      <InboxRelays pubkey={pubkey} busy={busy} run={run} />
      <CacheServer />
      <ProxyOption busy={busy} run={run} />
    </div>
  );
}
