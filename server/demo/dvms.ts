/**
 * Demo DVM feeds: NIP-89 announcements (kind 31990, k=5300 content discovery) by the house account.
 * No NIP-90 service runs offline, so each announcement carries a primal_spec that the cache server
 * runs itself; the feed marketplace can then list, preview and add them like any DVM feed.
 */
import type { NostrEvent } from '../context.ts';
import type { Network } from './model.ts';

interface DemoDvm {
  d: string;
  name: string;
  about: string;
  query: string;
  reads?: boolean;
}

const DVMS: DemoDvm[] = [
  { d: 'strucc-kavezo', name: 'Kávéházi hírfolyam', about: 'Bejegyzések a kávéról, a kávéházakról és a reggeli szertartásokról.', query: 'kind:1 kávé' },
  { d: 'strucc-balaton', name: 'Balatoni pillanatok', about: 'Minden, ami a Balatonról szól: képek, túrák, hangulatok.', query: 'kind:1 balaton' },
  {
    d: 'strucc-hosszu-olvasmanyok',
    name: 'Hétvégi olvasmányok',
    about: 'Hosszabb cikkek a magyar Nostr-szerzőktől, nyugodt hétvégékre.',
    query: 'kind:30023 minwords:300',
    reads: true,
  },
];

export function dvmPhase(net: Network): NostrEvent[] {
  const house = net.users[0];
  const out: NostrEvent[] = [];
  DVMS.forEach((dvm, i) => {
    const tags = [['d', dvm.d], ['k', '5300'], ...(dvm.reads ? [['k', '30023'], ['t', 'reads']] : [])];
    const content = JSON.stringify({
      name: dvm.name,
      about: dvm.about,
      amount: 'free',
      personalized: false,
      primal_spec: JSON.stringify({ id: 'advsearch', query: dvm.query, ...(dvm.reads ? { kind: 'reads' } : {}) }),
    });
    const event = net.emit({ kind: 31990, created_at: net.now - 86_400 * (i + 2), tags, content }, house.account.secretKey);
    if (event) out.push(event);
  });
  return out;
}
