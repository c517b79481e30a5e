import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { isNostrEvent } from '../../../core/bundle';
import { displayName, emptyProfile, parseProfile, toNpub } from '../../../core/profile';
import { topZaps, zapFromInfo, zapFromReceipt } from '../../../core/zaps';
import type { CacheObject, Profile, TopZap } from '../../../core/types';
import { formatCount } from '../../lib/format';
import { Avatar } from '../Avatar';
import { ZapIcon } from '../Icons';
import type { HighlightPassage } from './ArticleBody';
import { CacheKind } from '../../../core/kinds';
import '../../styles/article.css';

const KIND_HIGHLIGHT = 9802;
const KIND_ZAP = 9735;

function profilesOf(events: CacheObject[]): Map<string, Profile> {
  const out = new Map<string, Profile>();
  for (const e of events) if (isNostrEvent(e) && e.kind === 0) out.set(e.pubkey, parseProfile(e));
  return out;
}

export interface Highlights {
  passages: (HighlightPassage & { authors: Profile[] })[];
  total: number;
}

/** get_highlights: the 9802 events grouped by the passage they mark, most highlighted first. */
export function parseHighlights(events: CacheObject[]): Highlights {
  const profiles = profilesOf(events);
  const byText = new Map<string, { count: number; authors: Map<string, Profile> }>();
  let total = 0;
  for (const e of events) {
    if (!isNostrEvent(e) || e.kind !== KIND_HIGHLIGHT) continue;
    const text = e.content.trim();
    if (!text) continue;
    total++;
    const entry = byText.get(text) ?? { count: 0, authors: new Map<string, Profile>() };
    entry.count++;
    entry.authors.set(e.pubkey, profiles.get(e.pubkey) ?? emptyProfile(e.pubkey));
    byText.set(text, entry);
  }
  const passages = [...byText].map(([text, v]) => ({ text, count: v.count, authors: [...v.authors.values()] })).sort((a, b) => b.count - a.count);
  return { passages, total };
}

export interface Zappers {
  zaps: TopZap[];
  profiles: Map<string, Profile>;
}

/** event_zaps_by_satszapped: the biggest zaps, each with its sender's profile. */
export function parseZaps(events: CacheObject[]): Zappers {
  const all: TopZap[] = [];
  for (const e of events) {
    if (e.kind === CacheKind.ZAP_INFO) {
      const z = zapFromInfo(e);
      if (z) all.push(z);
    } else if (isNostrEvent(e) && e.kind === KIND_ZAP) {
      const z = zapFromReceipt(e);
      if (z) all.push(z);
    }
  }
  return { zaps: topZaps(all, 20), profiles: profilesOf(events) };
}

export function HighlightsSection({ highlights }: { highlights: Highlights }) {
  const { t } = useTranslation('reads');
  if (highlights.passages.length === 0) return null;
  return (
    <section className="article-section" aria-labelledby="article-highlights-title">
      <h2 className="article-section-title" id="article-highlights-title">
        {t('highlights.title', { count: highlights.total })}
      </h2>
      <ul className="article-highlights">
        {highlights.passages.map((p) => (
          <li key={p.text}>
            <blockquote>{p.text}</blockquote>
            <p className="reads-muted">
              {t('highlights.by', { count: p.count, names: p.authors.slice(0, 3).map(displayName).join(', ') })}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ZapsSection({ zappers }: { zappers: Zappers }) {
  const { t, i18n } = useTranslation('reads');
  const locale = i18n.resolvedLanguage ?? 'hu';
  if (zappers.zaps.length === 0) return null;
  return (
    <section className="article-section" aria-labelledby="article-zaps-title">
      <h2 className="article-section-title" id="article-zaps-title">
        {t('zaps.title')}
      </h2>
      <ol className="article-zappers">
        {zappers.zaps.map((z) => {
          const profile = zappers.profiles.get(z.pubkey) ?? emptyProfile(z.pubkey);
          const name = displayName(profile);
          return (
            <li key={z.id} className="article-zapper">
              <Link href={`/p/${profile.npub || toNpub(profile.pubkey)}`} className="article-zapper-who">
                <Avatar profile={profile} name={name} size={32} />
                <span className="article-zapper-name">{name}</span>
              </Link>
              <span className="article-zapper-amount">
                <ZapIcon size={16} />
                {t('zaps.amount', { count: z.amount, formatted: formatCount(z.amount, { locale }) })}
              </span>
              {z.message && <span className="article-zapper-message">{z.message}</span>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
