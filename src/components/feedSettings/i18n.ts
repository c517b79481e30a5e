/** The 'feeds' namespace: feed settings, the feed marketplace and the switcher's edit entries. */
import { registerNamespace } from '../../i18n';
import hu from '../../../locales/hu/feeds.json';
import en from '../../../locales/en/feeds.json';

registerNamespace('feeds', { hu, en });

export const FEEDS_NS = 'feeds';
