/**
 * Extra signed events for the search tests, imported on top of the shared fixture network:
 * three more people with Hungarian names, notes for every operator family, an article,
 * reactions, replies, a zap, a bookmark list, a replaced profile and a deleted note.
 */
import type { Network } from './cache-fixtures.ts';
import { person, sign } from './people.ts';


export function buildSearchNetwork(net: Network) {
  const dave = person();
  const erin = person();
  const frank = person();
  const gina = person();
  const wallet = person();
  const { t } = net;
  const profile = (who: { sk: Uint8Array }, at: number, fields: Record<string, string>) => sign(who, 0, at, JSON.stringify(fields));

  const profiles = [
    profile(dave, t(0), { name: 'Gulyás Dávid', nip05: 'dave@pelda.hu', about: 'Szakács vagyok' }),
    profile(erin, t(0), { display_name: 'Gulyáskovács Erika', lud16: 'erika@pelda.hu' }),
    profile(frank, t(0), { name: 'Ferenc' }),
    profile(gina, t(0), { name: 'Régi Név' }),
    profile(gina, t(5), { name: 'Friss Név' }),
  ];
  const contacts = [
    sign(frank, 3, t(1), '', [['p', erin.pk], ['p', dave.pk]]),
    sign(dave, 3, t(1), '', [['p', erin.pk], ['p', frank.pk]]),
    sign(erin, 3, t(1), '', [['p', net.alice.pk]]),
  ];

  const d1 = sign(dave, 1, t(100), 'Ma gulyást főztem a kertben #főzés', [['t', 'főzés']]);
  const d2 = sign(dave, 1, t(110), 'A halászlé jobb mint a gulyás leves');
  const d3 = sign(dave, 1, t(115), 'Szia Erika, mit főzöl ma?', [['p', erin.pk]]);
  const e1 = sign(erin, 1, t(120), 'Nézd ezt a videót https://media.example/film.mp4');
  const e2 = sign(erin, 1, t(130), 'Képek a túráról https://media.example/tura.png #tura');
  const f1 = sign(frank, 1, t(140), 'Rövid jegyzet');
  const long = 'Nagyon tetszett ez a bejegyzés, én is pont ilyen ételt készítettem múlt vasárnap a családnak, mindenki szerette.';
  const fReply = sign(frank, 1, t(150), long, [['e', d1.id, '', 'root'], ['p', dave.pk]]);
  const eReply = sign(erin, 1, t(151), `${long} Köszönöm!`, [['e', d1.id, '', 'root'], ['p', dave.pk]]);
  const body = Array.from({ length: 120 }, (_, i) => `szó${i}`).join(' ');
  const article = sign(erin, 30023, t(160), `A gulyás története. ${body}`, [
    ['d', 'gulyas-recept'],
    ['title', 'Gulyás recept'],
    ['summary', 'Egy klasszikus étel'],
    ['published_at', String(t(160))],
  ]);
  const bareDraft = sign(erin, 30023, t(161), `Summary nélküli cikk. ${body}`, [['d', 'bare'], ['title', 'Csupasz']]);
  // A newer version of the same address replaces the draft in the index.
  const bareArticle = sign(erin, 30023, t(162), `Summary nélküli cikk, javítva. ${body}`, [['d', 'bare'], ['title', 'Felöltöztetett']]);
  const reactions = [
    sign(frank, 7, t(170), '+', [['e', d2.id], ['p', dave.pk]]),
    sign(dave, 7, t(171), '+', [['e', d2.id], ['p', dave.pk]]),
    sign(erin, 7, t(172), '+', [['e', d2.id], ['p', dave.pk]]),
    sign(frank, 7, t(173), '+', [['e', d1.id], ['p', dave.pk]]),
    sign(dave, 7, t(174), '+', [['e', article.id], ['p', erin.pk]]),
  ];
  const zapRequest = sign(frank, 9734, t(180), 'Szép videó!', [['p', erin.pk], ['e', e1.id], ['amount', '21000']]);
  const zap = sign(wallet, 9735, t(181), '', [
    ['p', erin.pk],
    ['e', e1.id],
    ['bolt11', 'lnbc210n1pjtestpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq'],
    ['description', JSON.stringify(zapRequest)],
  ]);
  const bookmarks = sign(frank, 10003, t(190), '', [['e', e2.id]]);
  const doomed = sign(frank, 1, t(200), 'Törlendő jegyzet');
  const deletion = sign(frank, 5, t(201), '', [['e', doomed.id]]);

  const all = [
    ...profiles, ...contacts, d1, d2, d3, e1, e2, f1, fReply, eReply, article, bareDraft, bareArticle,
    ...reactions, zapRequest, zap, bookmarks, doomed, deletion,
  ].filter((e) => e.kind !== 9734);
  return { dave, erin, frank, gina, profiles, d1, d2, d3, e1, e2, f1, fReply, eReply, article, bareDraft, bareArticle, doomed, all };
}

export type SearchNetwork = ReturnType<typeof buildSearchNetwork>;
