/**
 * A second signed network for the explore, reads and actions tests, imported beside the shared
 * fixtures: two authors with six followers each, follow-list changes across days, notes with
 * hashtags and media, articles with versions and topics, highlights, quotes and zaps.
 */
import { nip19 } from 'nostr-tools';
import { type VerifiedEvent } from 'nostr-tools/pure';
import { person, sign, type Person } from './people.ts';


const HOUR = 3600;
const DAY = 86_400;

export function buildExploreNetwork(now: number) {
  const ann = person();
  const ben = person();
  const vic = person();
  const pal = person();
  const riser = person();
  const noabout = person();
  const wallet = person();
  const fans = Array.from({ length: 6 }, person);
  const [f1, f2, f3, f4, f5, f6] = fans;
  const ago = (seconds: number) => now - seconds;

  const profile = (who: Person, name: string, about = `${name} bemutatkozása`) =>
    sign(who, 0, ago(10 * DAY), JSON.stringify(about ? { name, about } : { name }));
  const profiles = [
    profile(ann, 'anna'),
    profile(ben, 'bence'),
    profile(vic, 'viktor'),
    profile(pal, 'pál'),
    profile(riser, 'feltörekvő'),
    profile(noabout, 'névtelen', ''),
    ...fans.map((f, i) => profile(f, `rajongó${i + 1}`)),
  ];

  // Three days ago every fan followed the two authors; today they also follow riser and noabout,
  // and f6 unfollowed riser again an hour later, so riser's gain in the window is 5.
  const contacts: VerifiedEvent[] = [];
  for (const f of fans) {
    contacts.push(sign(f, 3, ago(3 * DAY), '', [['p', ann.pk], ['p', ben.pk]]));
    contacts.push(sign(f, 3, ago(2 * HOUR), '', [['p', ann.pk], ['p', ben.pk], ['p', riser.pk], ['p', noabout.pk]]));
  }
  contacts.push(sign(f6, 3, ago(HOUR), '', [['p', ann.pk], ['p', ben.pk], ['p', noabout.pk]]));
  contacts.push(sign(vic, 3, ago(5 * HOUR), '', [['p', ann.pk], ['p', pal.pk]]));
  contacts.push(sign(pal, 3, ago(5 * HOUR), '', [['p', ann.pk], ['p', vic.pk]]));
  contacts.push(sign(riser, 3, ago(5 * HOUR), '', [['p', f1.pk]]));
  const vicMutes = sign(vic, 10000, ago(HOUR), '', [['p', ben.pk]]);

  const a1 = sign(ann, 1, ago(2 * HOUR), 'Első felkapott bejegyzés a #nostr világáról #magyar', [['t', 'Nostr'], ['t', 'magyar']]);
  const a2 = sign(ann, 1, ago(3 * HOUR), 'Egy kép a Balatonról: https://media.example/balaton.jpg');
  const a3 = sign(ann, 1, ago(10 * DAY), 'Régi, de sokak által kedvelt bejegyzés.');
  const b1 = sign(ben, 1, ago(HOUR), 'gm mindenkinek! #gm', [['t', 'GM']]);
  const b2 = sign(ben, 1, ago(5 * HOUR), 'Bence második bejegyzése, megemlíti annát.', [['p', ann.pk]]);
  const f5note = sign(f5, 1, ago(4 * HOUR), 'Én is a #nostr-t szeretem', [['t', 'Nostr']]);

  const like = (who: Person, target: VerifiedEvent, at: number) => sign(who, 7, at, '+', [['e', target.id], ['p', target.pubkey]]);
  const reactions = [
    like(f1, a1, ago(90 * 60)),
    like(f2, a1, ago(80 * 60)),
    like(f3, a1, ago(70 * 60)),
    like(f4, b2, ago(60 * 60)),
    like(f1, b1, ago(50 * 60)),
    ...[f1, f2, f3, f4, f5].map((f, i) => like(f, a3, ago(HOUR + i))),
  ];
  const quote = sign(f1, 1, ago(100 * 60), `Nézzétek: nostr:${nip19.noteEncode(a1.id)}`, [['q', a1.id], ['p', ann.pk]]);
  const mention = sign(f2, 1, ago(95 * 60), `Erről beszéltem: nostr:${nip19.neventEncode({ id: a1.id })}`);
  const reply = sign(f3, 1, ago(85 * 60), 'Teljesen egyetértek ezzel a gondolatmenettel, köszönöm a bejegyzést!', [
    ['e', a1.id, '', 'root'],
    ['p', ann.pk],
  ]);
  const repost = sign(f4, 6, ago(75 * 60), '', [['e', a1.id], ['p', ann.pk]]);

  // Articles: art1 has two versions (the second longer), a published_at tag and a topic;
  // art2 has no published_at tag, so its created_at orders it.
  const words = (n: number) => Array.from({ length: n }, (_, i) => `szó${i}`).join(' ');
  const art1Address = `30023:${ann.pk}:art1`;
  const art1v1 = sign(ann, 30023, ago(5 * HOUR), words(40), [
    ['d', 'art1'],
    ['title', 'Bitcoin Magyarországon'],
    ['published_at', String(ago(5 * HOUR))],
    ['t', 'Bitcoin Magyarország'],
  ]);
  const art1v2 = sign(ann, 30023, ago(4 * HOUR), words(150), [
    ['d', 'art1'],
    ['title', 'Bitcoin Magyarországon'],
    ['published_at', String(ago(5 * HOUR))],
    ['t', 'Bitcoin Magyarország'],
  ]);
  const art2 = sign(ben, 30023, ago(6 * HOUR), words(20), [['d', 'art2'], ['title', 'Rövid jegyzet'], ['t', 'nostr']]);
  const curation = sign(ben, 30004, ago(3 * HOUR), '', [['d', 'kedvencek'], ['a', art1Address]]);
  const articleReplyById = sign(f1, 1, ago(3 * HOUR), 'Jó cikk (az első változatra)!', [['e', art1v1.id, '', 'root'], ['p', ann.pk]]);
  const articleReplyByAddress = sign(f2, 1, ago(150 * 60), 'Jó cikk, a címére válaszolok.', [['a', art1Address, '', 'root'], ['p', ann.pk]]);
  const articlePointer = sign(f4, 1, ago(140 * 60), 'Ajánlom ezt a cikket.', [['q', art1Address], ['p', ann.pk]]);
  const highlight = sign(f1, 9802, ago(130 * 60), 'kiemelt mondat', [['a', art1Address], ['p', ann.pk]]);
  const highlightQuote = sign(f2, 1, ago(120 * 60), 'Ez a mondat nagyon talál.', [['q', highlight.id], ['p', f1.pk]]);
  const highlightReply = sign(f3, 1, ago(110 * 60), 'Egyetértek a kiemeléssel.', [['e', highlight.id, '', 'root'], ['p', f1.pk]]);
  const draft = sign(ann, 31234, ago(30 * 60), 'titkosított vázlat', [['d', 'vazlat1'], ['k', '30023']]);

  // Zaps: bolt11 amounts 100u = 10000, 21u = 2100, 10u = 1000, 5u = 500, 500n = 50 sats (S §4.2).
  let zapSeq = 0;
  const zap = (sender: Person, target: VerifiedEvent, bolt11Amount: string, at: number) => {
    const request = sign(sender, 9734, at - 1, `Zap ${++zapSeq}`, [['p', target.pubkey], ['e', target.id], ['relays', 'wss://egy.example']]);
    return sign(wallet, 9735, at, '', [
      ['p', target.pubkey],
      ['e', target.id],
      ['bolt11', `lnbc${bolt11Amount}1pjtestpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq`],
      ['description', JSON.stringify(request)],
    ]);
  };
  const zapOld = zap(f1, a1, '100u', ago(2 * DAY));
  const zapArticle = zap(pal, art1v2, '21u', ago(40 * 60));
  const zapBig = zap(f1, a1, '10u', ago(35 * 60));
  const zapMid = zap(f3, b2, '5u', ago(30 * 60));
  const zapSmall = zap(ben, a1, '500n', ago(25 * 60));

  const all: VerifiedEvent[] = [
    ...profiles,
    ...contacts,
    vicMutes,
    a1,
    a2,
    a3,
    b1,
    b2,
    f5note,
    ...reactions,
    quote,
    mention,
    reply,
    repost,
    art1v1,
    art1v2,
    art2,
    curation,
    articleReplyById,
    articleReplyByAddress,
    articlePointer,
    highlight,
    highlightQuote,
    highlightReply,
    draft,
    zapOld,
    zapArticle,
    zapBig,
    zapMid,
    zapSmall,
  ];
  return {
    ann, ben, vic, pal, riser, noabout, fans, f1, f2, f3, f4, f5, f6,
    a1, a2, a3, b1, b2, f5note, reactions, quote, mention, reply, repost,
    art1Address, art1v1, art1v2, art2, curation, articleReplyById, articleReplyByAddress, articlePointer,
    highlight, highlightQuote, highlightReply, draft,
    zapOld, zapArticle, zapBig, zapMid, zapSmall,
    all, sign,
  };
}

export type ExploreNetwork = ReturnType<typeof buildExploreNetwork>;
