import { useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { CacheReply, Profile } from '../../../core/types';
import { displayName, emptyProfile, parseProfile } from '../../../core/profile';
import { attachLooks, membershipLooks } from '../../../core/membershipLooks';
import { isNostrEvent } from '../../../core/bundle';
import { CacheKind } from '../../../core/kinds';
import { useActingPubkey } from '../../lib/account';
import { Avatar } from '../Avatar';
import { MemberBadge } from '../MemberBadge';
import { contentOf, formatDay, ofKind, publicRequest } from './membership';
import { profileHref } from '../../lib/links';
import { PAGE, PageFooter, usePages } from './paging';
import { useRequest } from '../../lib/useWorkerRequest';

type Board = 'premium' | 'legend';
const ORDERS: Record<Board, string[]> = { premium: ['premium_since'], legend: ['donated_btc', 'last_donation'] };

interface Row {
  index: number;
  pubkey: string;
  donated_btc: string;
  last_donation: number | null;
  premium_since: number | null;
  profile: Profile;
}

function rowsOf(reply: CacheReply, board: Board): Row[] {
  const raw = contentOf<Omit<Row, 'profile'>[]>(ofKind(reply, board === 'legend' ? CacheKind.LEGEND_LEADERBOARD : CacheKind.PREMIUM_LEADERBOARD)) ?? [];
  const profiles = new Map<string, Profile>();
  for (const e of reply.events) if (isNostrEvent(e) && e.kind === 0) profiles.set(e.pubkey, parseProfile(e));
  attachLooks(profiles.values(), membershipLooks(reply.events));
  return raw.map((r) => ({ ...r, profile: profiles.get(r.pubkey) ?? emptyProfile(r.pubkey) }));
}

/** Legends in the viewer's network (explore_legend_counts): follows, inner and outer network. */
function LegendCounts() {
  const { t, i18n } = useTranslation('premium');
  const pubkey = useActingPubkey();
  // Without an answer the counts read as zero, like an empty network.
  const { data: counts } = useRequest(
    pubkey ? () => publicRequest('explore_legend_counts', { pubkey }).then((reply) => contentOf<Record<string, number>>(ofKind(reply, CacheKind.LEGEND_COUNTS)) ?? {}) : null,
    [pubkey],
  );
  const n = (v: number | undefined) => (v ?? 0).toLocaleString(i18n.resolvedLanguage ?? 'hu');
  return (
    <aside className="premium-counts" aria-labelledby="premium-counts-heading" data-testid="legend-counts">
      <h2 id="premium-counts-heading">{t('boards.counts')}</h2>
      {!pubkey ? (
        <p>{t('boards.countsSignIn')}</p>
      ) : (
        <dl>
          <dt>{t('boards.yourFollows')}</dt>
          <dd>{n(counts?.your_follows)}</dd>
          <dt>{t('boards.innerNetwork')}</dt>
          <dd>{n(counts?.your_inner_network)}</dd>
          <dt>{t('boards.outerNetwork')}</dt>
          <dd>{n(counts?.your_outer_network)}</dd>
        </dl>
      )}
    </aside>
  );
}

/** /premiums and /legends: rank, avatar, name, donated amount, since; order_by choices, 20 a page. */
export default function Leaderboard({ board }: { board: Board }) {
  const { t, i18n } = useTranslation('premium');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const selectId = useId();
  const [orderBy, setOrderBy] = useState(ORDERS[board][0]);
  const command = board === 'legend' ? 'membership_legends_leaderboard' : 'membership_premium_leaderboard';

  const fetchPage = useCallback(
    async (offset: number) => rowsOf(await publicRequest(command, { order_by: orderBy, limit: PAGE, offset }), board),
    [command, orderBy, board],
  );
  const { items: rows, state, more, load } = usePages(fetchPage);

  const title = board === 'legend' ? t('boards.legends') : t('boards.premiums');
  return (
    <div className="page premium-page">
      <header className="page-header">
        <h1 className="page-title">{title}</h1>
      </header>
      {board === 'legend' && <LegendCounts />}
      {ORDERS[board].length > 1 && (
        <p className="premium-board-order">
          <label htmlFor={selectId}>{t('boards.orderBy')}</label>{' '}
          <select id={selectId} className="form-input premium-select" value={orderBy} onChange={(e) => setOrderBy(e.target.value)}>
            {ORDERS[board].map((o) => (
              <option key={o} value={o}>
                {t(`boards.order.${o}`)}
              </option>
            ))}
          </select>
        </p>
      )}
      {state === 'ready' && rows.length === 0 && <p>{t('boards.empty')}</p>}
      {rows.length > 0 && (
        <table className="premium-table premium-board" data-testid="leaderboard">
          <thead>
            <tr>
              <th scope="col">{t('boards.rank')}</th>
              <th scope="col">{t('boards.member')}</th>
              {board === 'legend' && <th scope="col">{t('boards.donated')}</th>}
              <th scope="col">{t('boards.since')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const name = displayName(r.profile);
              return (
                <tr key={r.pubkey} data-testid="leaderboard-row" data-pubkey={r.pubkey}>
                  <td>{r.index}</td>
                  <td>
                    <span className="premium-board-who">
                      <Link href={profileHref(r.pubkey)} className="premium-board-member">
                        <Avatar profile={r.profile} name={name} size={36} />
                        <span>{name}</span>
                      </Link>
                      <MemberBadge profile={r.profile} />
                    </span>
                  </td>
                  {board === 'legend' && <td>{t('boards.donatedSats', { sats: Number(r.donated_btc).toLocaleString(locale) })}</td>}
                  <td>{r.premium_since ? formatDay(r.premium_since, locale) : ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <PageFooter state={state} more={more} moreLabel={t('boards.more')} onLoad={() => void load(rows.length)} />
    </div>
  );
}
