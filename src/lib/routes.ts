/** First path segments that belong to the app, so /explore/x is a missing page, not someone's vanity thread. */
export const RESERVED_SEGMENTS = new Set([
  'home', 'reads', 'thread', 'e', 'a', 'explore', 'dms', 'notifications', 'downloads', 'download', 'settings', 'bookmarks',
  'profile', 'p', 'help', 'mutelist', 'new', 'feeds', 'search', 'premium', 'premiums', 'legends', '404',
  'app-download-qr', 'terms', 'csae-policy', 'privacy', 'support', 'media-cache', 'v1', 'api', 'assets', 'wallet', 'upload',
  'relay', 'link-preview', 'list', '.well-known',
]);

/** The home screen's addresses: the one that gets a painted copy and kept cards on a revisit. */
export const isHomePath = (path: string): boolean => path === '/' || path === '/home';
