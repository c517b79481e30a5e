/**
 * The configuration documents our server hands out where Primal reads config files:
 * default app settings, the default home and reads feed lists, and mobile releases.
 */

/** Every notification type name the settings screen can switch (S §3.8). */
export const NOTIFICATION_TYPES = [
  'NEW_USER_FOLLOWED_YOU',
  'USER_UNFOLLOWED_YOU',
  'YOUR_POST_WAS_ZAPPED',
  'YOUR_POST_WAS_LIKED',
  'YOUR_POST_WAS_REPOSTED',
  'YOUR_POST_WAS_REPLIED_TO',
  'YOU_WERE_MENTIONED_IN_POST',
  'YOUR_POST_WAS_MENTIONED_IN_POST',
  'POST_YOU_WERE_MENTIONED_IN_WAS_ZAPPED',
  'POST_YOU_WERE_MENTIONED_IN_WAS_LIKED',
  'POST_YOU_WERE_MENTIONED_IN_WAS_REPOSTED',
  'POST_YOU_WERE_MENTIONED_IN_WAS_REPLIED_TO',
  'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_ZAPPED',
  'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_LIKED',
  'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_REPOSTED',
  'POST_YOUR_POST_WAS_MENTIONED_IN_WAS_REPLIED_TO',
  'YOUR_POST_WAS_HIGHLIGHTED',
  'YOUR_POST_WAS_BOOKMARKED',
  'NEW_DIRECT_MESSAGE',
  'LIVE_EVENT_HAPPENING',
  'REPLY_TO_REPLY',
] as const;

export const DEFAULT_ZAP = { amount: 42, message: 'Haladjunk együtt! 🫡' };

export const ZAP_PRESETS = [
  { amount: 21, emoji: '👍', message: 'Remek bejegyzés 👍' },
  { amount: 420, emoji: '🚀', message: 'Hajrá 🚀' },
  { amount: 1000, emoji: '☕', message: 'Egy kávé tőlem ☕' },
  { amount: 5000, emoji: '🍻', message: 'Egészségedre 🍻' },
  { amount: 10000, emoji: '🍷', message: 'Ünnepeljünk 🍷' },
  { amount: 100000, emoji: '👑', message: 'Királyi zap 👑' },
];

export interface FeedEntry {
  name: string;
  spec: string;
  description: string;
  enabled: boolean;
}

const feed = (name: string, spec: object, description: string): FeedEntry => ({
  name,
  spec: JSON.stringify(spec),
  description,
  enabled: true,
});

export const HOME_FEEDS: FeedEntry[] = [
  feed('Legújabb', { id: 'latest', kind: 'notes' }, 'Az általad követettek legfrissebb bejegyzései'),
  feed('Felkapott', { id: 'global-trending', kind: 'notes', hours: 24 }, 'Az elmúlt 24 óra legnépszerűbb bejegyzései'),
  feed('Legtöbbet zappolt', { id: 'most-zapped', kind: 'notes', hours: 4 }, 'Az elmúlt 4 óra legtöbbet zappolt bejegyzései'),
  feed('Minden bejegyzés', { id: 'all-notes', kind: 'notes' }, 'Mindenki legfrissebb bejegyzései, időrendben'),
];

export const READS_FEEDS: FeedEntry[] = [
  feed('Követettek cikkei', { kind: 'reads', scope: 'follows' }, 'Az általad követettek legújabb cikkei'),
  feed('Minden cikk', { kind: 'reads', minwords: 100 }, 'Minden legalább 100 szavas cikk, a legújabbal kezdve'),
];

/** The global filter groups a user can switch on, named as the protocol names them (S §2.1 10000131). */
export const MODERATION_GROUPS = ['primal_spam', 'primal_nsfw'] as const;
export type ModerationGroup = (typeof MODERATION_GROUPS)[number];

export interface AdvancedFeed {
  name: string;
  description: string;
  /** A mega_feed_directive spec (JSON string), so advanced_feed and mega_feed_directive both run it. */
  specification: string;
}

const advanced = (name: string, query: string, description: string): AdvancedFeed => ({
  name,
  description,
  specification: JSON.stringify({ id: 'advsearch', query }),
});

/** Ready-made advanced searches for the feed marketplace (10000150). */
export const ADVANCED_FEEDS: AdvancedFeed[] = [
  advanced('Képek', 'kind:1 filter:image', 'Képes bejegyzések mindenkitől, a legfrissebbel kezdve'),
  advanced('Videók', 'kind:1 filter:video', 'Videós bejegyzések mindenkitől'),
  advanced('Hosszú cikkek', 'kind:30023 minwords:500', 'Legalább 500 szavas cikkek'),
  advanced('Népszerű a követettjeim körében', 'kind:1 scope:myfollowsinteractions', 'Amire az általad követettek reagáltak'),
  advanced('Legtöbbet zappolt', 'kind:1 orderby:satszapped', 'Bejegyzések a kapott satok szerint'),
  advanced('Sok válasz', 'kind:1 minreplies:5 orderby:replies', 'Bejegyzések, amelyek körül beszélgetés alakult ki'),
];

export function defaultAppSettings(): Record<string, unknown> {
  const notifications: Record<string, boolean> = {};
  for (const t of NOTIFICATION_TYPES) notifications[t] = true;
  return {
    theme: 'sunrise',
    // Legacy clients read `feeds` as {name, hex} directives (S §3.1 feed_directive).
    feeds: [
      { name: 'Felkapott, 24 óra', hex: 'global;trending' },
      { name: 'Legtöbbet zappolt, 4 óra', hex: 'global;mostzapped4h' },
    ],
    defaultZapAmount: DEFAULT_ZAP.amount,
    zapOptions: ZAP_PRESETS.map((p) => p.amount),
    zapDefault: DEFAULT_ZAP,
    zapConfig: ZAP_PRESETS,
    notifications,
    notificationsAdditional: {
      ignore_events_with_too_many_mentions: true,
      only_show_dm_notifications_from_users_i_follow: true,
      include_deep_replies: true,
      only_show_reactions_from_users_i_follow: false,
    },
    applyContentModeration: true,
    contentModeration: MODERATION_GROUPS.map((name) => ({ name, scopes: ['content', 'trending'] })),
    proxyThroughPrimal: false,
    animated: true,
  };
}

/** Store versions from the spec; dates are unix seconds of a past release, so badges can compare. */
export const APP_RELEASES = {
  ios: { date: 1714521600, version: '1.1.10' },
  android: { date: 1714521600, version: '0.91.2' },
};
