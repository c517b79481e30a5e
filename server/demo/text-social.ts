/** Hungarian material for interactions: replies, quotes, zap messages, DMs and the house account. */

/** Short replies (≤ 20 characters) – they weigh least in scores, as in real threads. */
export const SHORT_REPLIES = [
  'Így van!', 'Egyetértek.', 'Haha, ez jó! 😂', 'Köszi!', 'Nagyon szép!', 'Irigyellek!', 'Szuper!', 'Ez igaz.',
  'Pontosan.', 'Hű!', 'Gratulálok!', 'Jó kérdés.', 'Én is!', 'Ugyanez.', 'Csodás!', 'Na ugye!', 'Mesés!', 'Ez durva.',
  'Tetszik! 👏', 'Jobbulást!', 'Zseniális.', 'Ezt nem tudtam.', 'Hajrá!', 'Isteni!',
];

/** Medium replies that fit almost any post. */
export const GENERIC_REPLIES = [
  'Ezt pont ma gondoltam én is, köszi, hogy leírtad.',
  'Nálunk pontosan ugyanez volt a helyzet a múlt héten.',
  'Szerintem ez sokkal bonyolultabb, de értem, mire gondolsz.',
  'Köszönöm, hogy megosztottad! Jó volt olvasni.',
  'Ebben nem vagyok biztos, de szívesen meghallgatom az érveidet.',
  'Ez a legjobb dolog, amit ma olvastam itt.',
  'Hol volt ez? Legközelebb én is mennék!',
  'Hú, ez ismerős. Kitartást!',
  'Muszáj kipróbálnom, köszi a tippet!',
  'Jó látni, hogy nem csak én vagyok így vele.',
  'Erről egyszer beszélgethetnénk egy kávé mellett.',
  'Ezt el kellene küldenem anyukámnak is.',
  'Nem értek egyet, de tisztelem a véleményed.',
  'Mindig öröm olvasni a bejegyzéseidet.',
  'Pont ezért szeretem ezt a közösséget.',
  'Most már értem, miért mondta ezt mindenki.',
  'Elmentettem, köszönöm!',
  'Ez annyira te vagy! 😄',
];

/** Longer replies (> 100 characters) that carry an opinion or a small story. */
export const LONG_REPLIES = [
  'Ez nagyon ismerős. Tavaly nálunk is pont így kezdődött, aztán kiderült, hogy a megoldás sokkal egyszerűbb volt, mint gondoltuk. Érdemes kivárni, és nem kapkodni.',
  'Szerintem ebben az a legszebb, hogy mindenki hozzáteheti a saját tapasztalatát. Én például egészen máshogy csinálnám, de a te módszered is teljesen logikus.',
  'Köszönöm, hogy ilyen részletesen leírtad. Elolvastam kétszer is, és most már azt hiszem, értem, hol rontottam el annak idején. Ha elakadok, majd írok!',
  'Gyerekkoromban a nagyapám is mindig ezt mondta, és akkor nem értettem. Most, hogy magam is szülő vagyok, minden szavát aláírom. Furcsa, hogy megy az idő.',
  'Ezt érdemes lenne egy hosszabb cikkben is kifejteni, mert szerintem sokakat érdekelne. Ha megírod, ígérem, zapolok érte, és megosztom mindenkivel, akit ismerek.',
  'Nem akarok ünneprontó lenni, de szerintem ennek van egy másik oldala is. Ettől még nagyon örülök, hogy ilyen jól sikerült, csak legyünk óvatosak az általánosítással.',
];

/** Replies that fit a topic better than the generic ones. */
export const TOPIC_REPLIES: Record<string, string[]> = {
  everyday: ['Nálunk is pont ez volt ma reggel!', 'A kávé mindent megold, legalábbis délig.', 'Ez a hétfő minden héten egyre hosszabb.', 'Szép napot neked is!'],
  tech: ['Próbáltad már újraindítani? 😅', 'Melyik verziót használod?', 'Ezért írok mindig tesztet. Na jó, néha.', 'Nálunk ugyanez volt, egy rossz konfiguráció volt a ludas.', 'Nyílt forráskód FTW!'],
  nostr: ['Üdv a Nostron! ⚡', 'Zapoltam, mert megérdemli!', 'Melyik klienst használod?', 'A saját relé a legjobb döntés, amit hoztam.', 'Így kell ezt csinálni!'],
  cooking: ['Kérem a receptet!', 'Ettől most nagyon éhes lettem.', 'A lecsóba szerintem csak kolbász kell, tojás soha!', 'Nagymamám is pont így csinálta.', 'Mikor hívsz meg ebédre? 😄'],
  football: ['Hajrá! ⚽', 'Szerintem is les volt.', 'Jövőre bajnokok leszünk, meglátod.', 'Ez a bíró szörnyű volt.', 'Micsoda gól volt!'],
  balaton: ['A Balaton mindig gyógyít.', 'Irigyellek, én még az irodában ülök.', 'Melyik strandon voltatok?', 'Ősszel is gyönyörű ott.', 'Jövő héten mi is megyünk!'],
  books: ['Ezt én is imádtam!', 'Felírtam a listámra.', 'A film sem rossz, de a könyv sokkal jobb.', 'Ki a kedvenc szereplőd?', 'Ez a könyv megváltoztatta az életemet.'],
  budapest: ['Budapest a legszebb város!', 'Ott mindig nagy a tömeg, de megéri.', 'Melyik kávézó az?', 'Ma én is arra jártam!', 'A 6-oson ez mindennapos. 😄'],
  jokes: ['😂😂😂', 'Ezen hangosan nevettem a buszon.', 'Ez annyira rossz, hogy már jó.', 'Elmentettem a céges csoportba.', 'Apukám viccei ehhez képest aranyosak.'],
  culture: ['Ezt én is láttam, fantasztikus volt!', 'Legközelebb szólj, megyek én is!', 'A Macskafogó örök.', 'Milyen volt a hangosítás?', 'Imádom ezt a zenekart!'],
  nature: ['Gyönyörű! 🌿', 'Merre volt ez pontosan?', 'A Bükk a kedvencem.', 'Nálunk is kinyíltak a tulipánok!', 'Ilyenkor látszik, mennyire szép az ország.'],
};

/** Comments above a quoted note. */
export const QUOTE_COMMENTS = [
  'Ezt mindenkinek el kellene olvasnia:',
  'Pontosan erről beszéltem tegnap.',
  'Ez annyira igaz! 👇',
  'Nem is tudnám jobban megfogalmazni.',
  'Erről szívesen vitatkoznék egy kicsit.',
  'Ez a nap bejegyzése szerintem.',
  'Haha, ez nagyon jó:',
  'Fontos gondolat, érdemes elolvasni.',
  'Na, ezt nézzétek!',
  'Nagyon egyetértek, és hozzátenném, hogy a türelem a legfontosabb.',
  'Ezért szeretem ezt a helyet:',
  'Mentés, hogy később is megtaláljam.',
];

/** Messages written on zaps. Empty strings are zaps sent without a comment. */
export const ZAP_MESSAGES = [
  '', '', '', '⚡', 'Köszi!', 'Nagyon jó bejegyzés!', 'Egy kávéra!', 'Megérdemled!', 'Csak így tovább!',
  'Zap a jó hangulatért ⚡', 'Köszönöm a receptet!', 'Ez tetszett a legjobban ma.', 'Egy fröccsre való.',
  'Hajrá!', 'A cikkért, köszönöm!', 'Üdv a Nostron!', 'Kis támogatás a nagy munkához.', 'Szép volt! 👏',
];

/** DM conversations: alternating lines, the first from the one who starts. */
export const DM_CONVERSATIONS: string[][] = [
  ['Szia! Láttam a bejegyzésed a Balatonról, melyik szálláson voltatok?', 'Szia! Egy kis panzióban Szigligeten, nagyon ajánlom. Átküldöm a nevét.', 'Köszönöm, nagyon kedves vagy!', 'Szívesen, jó pihenést előre is!'],
  ['Hali! Jössz csütörtökön a meetupra?', 'Szeretnék, de még nem tudom, végzek-e időben.', 'Ha igen, ülj mellém, foglalok helyet.', 'Rendben, írok délután!'],
  ['Szia, elkérhetném a lecsó receptjét?', 'Persze! Hagyma, paprika, paradicsom, só, pirospaprika. A titok, hogy lassan kell főzni.', 'És kolbász?', 'Az a te lelkiismereted dolga. 😄'],
  ['Jó reggelt! Megvan még a könyv, amit kölcsönadtam?', 'Jaj, igen, bocsánat! A héten visszaviszem.', 'Semmi gond, csak szólni akartam.'],
  ['Köszi a zapot! Ez nagyon jólesett.', 'Megérdemelted, nagyon jó volt a cikk!', 'Lesz folytatás is, dolgozom rajta.'],
  ['Szia! Segítenél beállítani a NIP-05 azonosítót? Elakadtam.', 'Persze. Melyik domainen szeretnéd?', 'A sajátomon, de nem tudom, hova kell tenni a fájlt.', 'A .well-known/nostr.json útvonalra. Mindjárt küldök egy példát.', 'Megy! Köszönöm szépen!'],
  ['Hétvégén túra a Pilisben, jössz?', 'Mikor indultok?', 'Szombat reggel nyolckor, Pomázról.', 'Ott leszek, hozom a pogácsát!'],
  ['Boldog névnapot! 🎉', 'Köszönöm szépen, ez nagyon kedves!'],
  ['Láttad a tegnapi meccset?', 'Persze! Az utolsó perces gól valami elképesztő volt.', 'Még mindig nem hiszem el.'],
  ['Szia, te ismered a szegedi relé üzemeltetőjét?', 'Igen, régi ismerősöm. Miért?', 'Szeretnék segíteni a fejlesztésben.', 'Bemutatlak neki, írok mindkettőtöknek.'],
];

/** The Strucc house account's own posts. */
export const HOUSE_NOTES = [
  'Üdv a Strucc demó hálózatán! 🦩 Ez egy kis, helyben futó magyar Nostr-közösség: böngéssz, kövess embereket, és próbáld ki a zapokat. Semmi sem hagyja el a gépedet.',
  'Tipp: a keresésben hashtagekre is kereshetsz. Próbáld ki: #Balaton, #főzés, #nostr.',
  'Emlékeztető: a privát kulcsodat (nsec) soha ne oszd meg senkivel. A Strucc sem kéri el soha.',
  'Heti ajánló: nézz be az Olvasnivalók közé, sok szép hosszú cikk született a héten.',
  'A felkapott bejegyzések az elmúlt nap kedvelései, válaszai, megosztásai és zapjai alapján rangsorolódnak.',
  'Új vagy itt? Kezdd azzal, hogy követsz néhány embert a Felfedezés oldalon!',
  'Köszönjük, hogy kipróbáltad a Struccot! Ha hibát találsz, írj nekünk bátran.',
];

export const HOUSE_PROFILE = {
  about: 'A Strucc magyar Nostr-kliens hivatalos fiókja. Itt találod a legaktívabb magyar felhasználókat, híreket és tippeket. 🦩',
  location: 'Budapest',
};

export const ZAPPER_PROFILE = {
  name: 'strucczap',
  display_name: 'Strucc Zap',
  about: 'A demó hálózat lightning szolgáltatása. Ez a fiók írja alá a zap nyugtákat.',
};

export const DELETION_REASONS = ['Elírás volt.', 'Rossz helyre posztoltam.', 'Meggondoltam magam.', '', 'Duplán ment ki.'];

/** Words some users mute. */
export const MUTED_WORDS = ['politika', 'horoszkóp', 'kriptó-szerencsejáték', 'spoiler', 'reklám'];
export const MUTED_HASHTAGS = ['politika', 'spoiler', 'horoszkóp'];
