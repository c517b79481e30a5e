/**
 * What tabs and the shared worker say to each other. The UI imports types only
 * from here; everything it renders arrives as one of these plain, cloneable objects.
 */
export type * from './types/events.ts';
export type * from './types/feeds.ts';
export type * from './types/network.ts';
export type * from './types/api.ts';
export type * from './types/account.ts';
export type * from './types/social.ts';
export type * from './types/wallet.ts';
export type * from './types/ecash.ts';
