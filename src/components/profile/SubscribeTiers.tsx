/**
 * Author subscribe with tier (spec's modal list, NIP-88): the author's published tiers
 * (creator_paid_tiers), one chosen, its price paid as a zap through the wallet path, then the
 * subscription published as kind 7001; the profile shows it from the viewer's own 7001.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NostrEvent, Profile } from '../../../core/types';
import { CacheKind } from '../../../core/kinds';
import { displayName } from '../../../core/profile';
import { useActingPubkey } from '../../lib/account';
import { toastError } from '../../lib/toast';
import { tabId, connect } from '../../worker-client';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { useWorkerWatch } from '../../lib/useWorkerWatch';
import { Modal } from '../Modal';
import { useWallet } from '../wallet/useWallet';

interface Tier {
  event_id: string;
  identifier: string;
  title: string;
  content: string;
  amounts: { amount: string; currency: string; cadence: string }[];
  perks: string[];
}

const KIND_SUBSCRIBE = 7001;
const NO_TIERS: Tier[] = [];

/** The tier's first price in sats (amounts are msats, or sats when the currency says so). */
function satsOf(tier: Tier): { sats: number; cadence: string; msats: string } | null {
  const a = tier.amounts[0];
  const n = Number(a?.amount);
  if (!a || !Number.isFinite(n) || n <= 0) return null;
  const sats = /^sats?$/i.test(a.currency) ? n : Math.ceil(n / 1000);
  return { sats, cadence: a.cadence || 'monthly', msats: String(sats * 1000) };
}

function useTiers(pubkey: string): Tier[] {
  const { data } = useWorkerRequest(
    (api) =>
      api.request('creator_paid_tiers', { pubkey }).then((reply) => {
        const o = reply.events.find((e) => e.kind === CacheKind.CREATOR_PAID_TIERS);
        const c = typeof o?.content === 'string' ? (JSON.parse(o.content) as { tiers?: Tier[] }) : {};
        return (c.tiers ?? []).filter((t) => satsOf(t));
      }),
    [pubkey],
  );
  return data ?? NO_TIERS;
}

/** The viewer's newest subscription (kind 7001) to this author, read from the relays. */
function useOwnSubscription(viewer: string | undefined, author: string): [string, (tier: string) => void] {
  const [tier, setTier] = useState('');
  const newest = useRef(0);
  useWorkerWatch<NostrEvent>(
    viewer
      ? (api, cb) => {
          newest.current = 0;
          return api.subscribeRelays(tabId, [{ kinds: [KIND_SUBSCRIBE], authors: [viewer], '#p': [author], limit: 1 }], cb);
        }
      : null,
    (api, h) => api.unsubscribeRelays(h),
    [viewer, author],
    {
      onValue: (e) => {
        if (e.created_at < newest.current) return;
        newest.current = e.created_at;
        const a = e.tags.find((t) => t[0] === 'a')?.[1] ?? '';
        setTier(a.split(':').slice(2).join(':'));
      },
    },
  );
  return [tier, setTier];
}

function TierModal({ profile, tiers, onClose, onDone }: { profile: Profile; tiers: Tier[]; onClose: () => void; onDone: (identifier: string) => void }) {
  const { t, i18n } = useTranslation('profile');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const wallet = useWallet();
  const hasWallet = !!wallet?.connections.some((c) => c.id === wallet.active);
  const [chosen, setChosen] = useState(tiers[0]?.event_id ?? '');
  const [busy, setBusy] = useState(false);
  const tier = tiers.find((x) => x.event_id === chosen);
  const pay = async () => {
    const price = tier && satsOf(tier);
    if (!tier || !price) return;
    setBusy(true);
    try {
      const api = await connect();
      const paid = await api.zap({ recipient: profile.pubkey, lud16: profile.lud16, lud06: profile.lud06, amountSats: price.sats, comment: t('subscribe.comment', { tier: tier.title }) });
      if (paid.status !== 'paid') throw new Error(paid.reason ?? paid.status);
      const published = await api.publish({
        kind: KIND_SUBSCRIBE,
        content: '',
        created_at: Math.floor(Date.now() / 1000),
        tags: [['p', profile.pubkey], ['e', tier.event_id], ['a', `37001:${profile.pubkey}:${tier.identifier}`], ['amount', price.msats, 'msats', price.cadence]],
      });
      if (!published.success) throw new Error(published.outcome);
      onDone(tier.identifier);
    } catch (err) {
      toastError(t('subscribe.failed', { reason: err instanceof Error ? err.message : '' }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t('subscribe.title', { name: displayName(profile) })}
      onClose={onClose}
      footer={
        <button type="button" className="button" disabled={!tier || !hasWallet || busy} onClick={() => void pay()}>
          {busy ? t('subscribe.paying') : t('subscribe.pay')}
        </button>
      }
    >
      <p>{t('subscribe.intro')}</p>
      {!hasWallet && <p role="alert">{t('subscribe.noWallet')}</p>}
      <div role="radiogroup" aria-label={t('subscribe.open')} className="profile-tiers">
        {tiers.map((x) => {
          const price = satsOf(x);
          return (
            <label key={x.event_id} className="profile-tier" data-testid="profile-tier">
              <input type="radio" name="tier" checked={x.event_id === chosen} onChange={() => setChosen(x.event_id)} /> <strong>{x.title}</strong>
              {price && <span> · {t('subscribe.price', { sats: price.sats.toLocaleString(locale), cadence: t(`subscribe.cadence.${price.cadence}`, { defaultValue: price.cadence }) })}</span>}
              {x.content && <span className="profile-tier-text">{x.content}</span>}
              {x.perks.length > 0 && (
                <ul>
                  {x.perks.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              )}
            </label>
          );
        })}
      </div>
    </Modal>
  );
}

/** The profile's subscribe button (when the author has tiers) and the viewer's current tier. */
export function SubscribeTiers({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const viewer = useActingPubkey();
  const tiers = useTiers(profile.pubkey);
  const [own, setOwn] = useOwnSubscription(viewer, profile.pubkey);
  const [open, setOpen] = useState(false);
  if (!viewer || viewer === profile.pubkey || tiers.length === 0) return null;
  const ownTitle = tiers.find((x) => x.identifier === own)?.title ?? own;
  return (
    <>
      {own ? (
        <span className="profile-subscribed" data-testid="profile-subscribed">
          {t('subscribe.subscribed', { tier: ownTitle })}
        </span>
      ) : (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          {t('subscribe.open')}
        </button>
      )}
      {open && (
        <TierModal
          profile={profile}
          tiers={tiers}
          onClose={() => setOpen(false)}
          onDone={(id) => {
            setOwn(id);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}
