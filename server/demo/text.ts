/**
 * Hungarian vocabulary for the demo network's people: names, towns, occupations and bio
 * fragments. Data only; generate.ts and profiles.ts combine them.
 */

export const FAMILY_NAMES = [
  'Nagy', 'Kovács', 'Tóth', 'Szabó', 'Horváth', 'Varga', 'Kiss', 'Molnár', 'Németh', 'Farkas',
  'Balogh', 'Papp', 'Takács', 'Juhász', 'Lakatos', 'Mészáros', 'Oláh', 'Simon', 'Rácz', 'Fekete',
  'Szilágyi', 'Török', 'Fehér', 'Balázs', 'Gál', 'Kis', 'Szűcs', 'Kocsis', 'Pintér', 'Fodor',
  'Szalai', 'Sipos', 'Magyar', 'Lukács', 'Gulyás', 'Bíró', 'Király', 'Katona', 'László', 'Jakab',
  'Sándor', 'Boros', 'Fazekas', 'Kelemen', 'Antal', 'Orosz', 'Somogyi', 'Fülöp', 'Veres', 'Budai',
  'Vincze', 'Hegedűs', 'Deák', 'Bálint', 'Pál', 'Illés', 'Vass', 'Szőke', 'Bodnár', 'Szekeres',
  'Fábián', 'Vörös', 'Lengyel', 'Bognár', 'Jónás', 'Hajdu', 'Halász', 'Máté', 'Székely', 'Gáspár',
  'Kozma', 'Pásztor', 'Bakos', 'Dudás', 'Major', 'Virág', 'Hegyi', 'Barta', 'Borbély', 'Csonka',
  'Kun', 'Erdős', 'Benkő', 'Tamás', 'Soós', 'Sárközi', 'Márton', 'Berki', 'Mohácsi', 'Csizmadia',
];

export const MALE_GIVEN = [
  'Bence', 'Máté', 'Levente', 'Dávid', 'Balázs', 'Ádám', 'Péter', 'Gábor', 'László', 'Zoltán',
  'István', 'Attila', 'Tamás', 'János', 'Sándor', 'József', 'Ferenc', 'Zsolt', 'Csaba', 'Gergely',
  'Márton', 'Dániel', 'Kristóf', 'Bálint', 'Áron', 'Botond', 'Olivér', 'Milán', 'Marcell', 'Dominik',
  'Norbert', 'Róbert', 'Tibor', 'Imre', 'Miklós', 'András', 'Krisztián', 'Viktor', 'Richárd', 'Barnabás',
  'Benedek', 'Zalán', 'Kornél', 'Lőrinc', 'Vince', 'Szabolcs', 'Győző', 'Endre', 'Béla', 'Ottó',
];

export const FEMALE_GIVEN = [
  'Anna', 'Hanna', 'Zsófia', 'Luca', 'Emma', 'Lilla', 'Boglárka', 'Dóra', 'Réka', 'Eszter',
  'Katalin', 'Erzsébet', 'Mária', 'Ildikó', 'Judit', 'Ágnes', 'Krisztina', 'Andrea', 'Tímea', 'Nóra',
  'Petra', 'Fanni', 'Vivien', 'Noémi', 'Orsolya', 'Zsuzsanna', 'Edina', 'Melinda', 'Viktória', 'Enikő',
  'Kinga', 'Adrienn', 'Gréta', 'Laura', 'Csenge', 'Dorina', 'Villő', 'Jázmin', 'Flóra', 'Panna',
  'Mónika', 'Beáta', 'Rita', 'Szilvia', 'Gabriella', 'Henrietta', 'Irén', 'Piroska', 'Margit', 'Borbála',
];

/** Informal short forms Hungarians really use (mostly for the given names above). */
export const NICKNAMES = [
  'Pisti', 'Jancsi', 'Laci', 'Feri', 'Józsi', 'Zsolti', 'Gabi', 'Tomi', 'Bandi', 'Dani',
  'Peti', 'Marci', 'Balu', 'Csabi', 'Miki', 'Robi', 'Tibi', 'Krisz', 'Viki', 'Zsuzsi',
  'Kati', 'Erzsi', 'Juci', 'Ildi', 'Ági', 'Móni', 'Szilvi', 'Bogi', 'Dorka', 'Panni',
  'Rozi', 'Nóri', 'Eszti', 'Fanni', 'Orsi', 'Kriszti', 'Enci', 'Lili', 'Sári', 'Bözsi',
];

/** Handle-like display names; each must also make a decent ASCII username. */
export const HANDLES = [
  'Balatoni Bringás', 'Paprika Pali', 'Kódoló Kata', 'Bitcoin Bácsi', 'Pörköltmester', 'Hegyi Túrázó',
  'Kávéfüggő Kriszti', 'Fröccsfilozófus', 'Dunaparti Diák', 'Lángos Lovag', 'Tiszai Horgász', 'Kertész Kati',
  'Vidéki Programozó', 'Esti Olvasó', 'Mátrai Medve', 'Szegedi Szél', 'Pécsi Napfény', 'Alföldi Ugar',
  'Kockás Füzet', 'Reggeli Kakaó', 'Villamosvezető Vili', 'Zöld Erdő', 'Csendes Csiga', 'Retró Rádió',
  'Pesti Srác', 'Budai Lány', 'Kovászos Kenyér', 'Nyolcbites Nagyi', 'Szilvalekvár', 'Rétes Rezső',
];

export const EMOJI_FLAIR = ['🌻', '⚡', '🚲', '☕', '🍷', '📚', '🌿', '🎸', '⛵', '🏔️', '🐾', '🍕', '🎨', '🧡', '🦩', '🐓'];

/** A town with its "in" and "from" forms, since Hungarian suffixes cannot be glued on blindly. */
export interface Town {
  name: string;
  in: string;
  from: string;
}

export const TOWNS: Town[] = [
  { name: 'Budapest', in: 'Budapesten', from: 'Budapestről' },
  { name: 'Debrecen', in: 'Debrecenben', from: 'Debrecenből' },
  { name: 'Szeged', in: 'Szegeden', from: 'Szegedről' },
  { name: 'Miskolc', in: 'Miskolcon', from: 'Miskolcról' },
  { name: 'Pécs', in: 'Pécsen', from: 'Pécsről' },
  { name: 'Győr', in: 'Győrben', from: 'Győrből' },
  { name: 'Nyíregyháza', in: 'Nyíregyházán', from: 'Nyíregyházáról' },
  { name: 'Kecskemét', in: 'Kecskeméten', from: 'Kecskemétről' },
  { name: 'Székesfehérvár', in: 'Székesfehérváron', from: 'Székesfehérvárról' },
  { name: 'Szombathely', in: 'Szombathelyen', from: 'Szombathelyről' },
  { name: 'Szolnok', in: 'Szolnokon', from: 'Szolnokról' },
  { name: 'Érd', in: 'Érden', from: 'Érdről' },
  { name: 'Tatabánya', in: 'Tatabányán', from: 'Tatabányáról' },
  { name: 'Kaposvár', in: 'Kaposváron', from: 'Kaposvárról' },
  { name: 'Veszprém', in: 'Veszprémben', from: 'Veszprémből' },
  { name: 'Sopron', in: 'Sopronban', from: 'Sopronból' },
  { name: 'Eger', in: 'Egerben', from: 'Egerből' },
  { name: 'Zalaegerszeg', in: 'Zalaegerszegen', from: 'Zalaegerszegről' },
  { name: 'Nagykanizsa', in: 'Nagykanizsán', from: 'Nagykanizsáról' },
  { name: 'Dunaújváros', in: 'Dunaújvárosban', from: 'Dunaújvárosból' },
  { name: 'Hódmezővásárhely', in: 'Hódmezővásárhelyen', from: 'Hódmezővásárhelyről' },
  { name: 'Salgótarján', in: 'Salgótarjánban', from: 'Salgótarjánból' },
  { name: 'Szekszárd', in: 'Szekszárdon', from: 'Szekszárdról' },
  { name: 'Vác', in: 'Vácon', from: 'Vácról' },
  { name: 'Gödöllő', in: 'Gödöllőn', from: 'Gödöllőről' },
  { name: 'Szentendre', in: 'Szentendrén', from: 'Szentendréről' },
  { name: 'Esztergom', in: 'Esztergomban', from: 'Esztergomból' },
  { name: 'Baja', in: 'Baján', from: 'Bajáról' },
  { name: 'Gyula', in: 'Gyulán', from: 'Gyuláról' },
  { name: 'Cegléd', in: 'Cegléden', from: 'Ceglédről' },
  { name: 'Pápa', in: 'Pápán', from: 'Pápáról' },
  { name: 'Kőszeg', in: 'Kőszegen', from: 'Kőszegről' },
  { name: 'Tokaj', in: 'Tokajban', from: 'Tokajból' },
  { name: 'Sárospatak', in: 'Sárospatakon', from: 'Sárospatakról' },
  { name: 'Kalocsa', in: 'Kalocsán', from: 'Kalocsáról' },
  { name: 'Mohács', in: 'Mohácson', from: 'Mohácsról' },
  { name: 'Makó', in: 'Makón', from: 'Makóról' },
  { name: 'Tapolca', in: 'Tapolcán', from: 'Tapolcáról' },
  { name: 'Siófok', in: 'Siófokon', from: 'Siófokról' },
  { name: 'Keszthely', in: 'Keszthelyen', from: 'Keszthelyről' },
  { name: 'Balatonfüred', in: 'Balatonfüreden', from: 'Balatonfüredről' },
  { name: 'Tihany', in: 'Tihanyban', from: 'Tihanyból' },
  { name: 'Hajdúszoboszló', in: 'Hajdúszoboszlón', from: 'Hajdúszoboszlóról' },
  { name: 'Jászberény', in: 'Jászberényben', from: 'Jászberényből' },
  { name: 'Zirc', in: 'Zircen', from: 'Zircről' },
  { name: 'Visegrád', in: 'Visegrádon', from: 'Visegrádról' },
];

/** Occupations as they would open a bio ("Tanár vagyok", "Szoftverfejlesztő …"). */
export const JOBS = [
  'Szoftverfejlesztő', 'Általános iskolai tanító', 'Középiskolai fizikatanár', 'Nyugdíjas vasutas', 'Cukrász',
  'Grafikus', 'Ápoló', 'Villanyszerelő', 'Könyvtáros', 'Egyetemista', 'Szakács', 'Asztalos', 'Újságíró',
  'Rendszergazda', 'Könyvelő', 'Fotós', 'Mérnök', 'Kertész', 'Pék', 'Zenész', 'Fordító', 'Gyógytornász',
  'Buszsofőr', 'Borász', 'Adatelemző', 'UX-tervező', 'Biológus', 'Méhész', 'Doktorandusz', 'Kisvállalkozó',
  'Ügyfélszolgálatos', 'Építész', 'Állatorvos', 'Logisztikus', 'Szabadúszó szövegíró', 'Hobbi rádióamatőr',
];

export const INTERESTS = [
  'a hosszú biciklitúrákat', 'a jó kávét', 'a társasjátékokat', 'a kovászos kenyeret', 'a régi magyar filmeket',
  'a hegyi túrákat', 'a Balatont ősszel', 'a szabad szoftvereket', 'a horgászatot', 'a kertészkedést',
  'a jazzt', 'a sci-fi regényeket', 'a főzést', 'a futást', 'a sakkot', 'a fotózást', 'a vonatozást',
  'a csillagászatot', 'a magyar népzenét', 'a kézműves söröket', 'a macskákat', 'a kutyás sétákat',
  'a lekvárfőzést', 'a retró számítógépeket', 'a kosárlabdát', 'a vitorlázást', 'a krimiket',
];

export const BIO_EXTRAS = [
  'Bitcoin, Nostr, szabad szoftverek.',
  'Itt főleg kajafotók és morgolódás várható.',
  'Néha okos vagyok, néha csak hangos.',
  'Kávé nélkül nem vagyok beszámítható.',
  'Ha a Balatonon nem találsz, a kertben vagyok.',
  'Minden nap tanulok valami újat.',
  'Két macska személyzete.',
  'Apa, férj, kertész, ebben a sorrendben.',
  'Anya, olvasó, örök optimista.',
  'A véleményem a sajátom, a helyesírásom is.',
  'Keresem a tökéletes lángost.',
  'Szeretem a csendes reggeleket és a hangos koncerteket.',
  'Itt vagyok, mert itt senki sem árulja el az adataimat.',
  'Minden zapot megköszönök! ⚡',
  'Nem reklámozok semmit, csak a jó hangulatot.',
  'Öt éve tanulok gitározni, még mindig kezdő vagyok.',
  'Fenntarthatóság, kerékpár, helyi termelők.',
  'Szerintem a pogácsa külön tápcsoport.',
  'Hétköznap kódolok, hétvégén a hegyekben járok.',
  'Sok kérdésem van, kevés válaszom.',
];

export const RELAY_URLS = [
  'wss://relay.strucc.test',
  'wss://nostr.strucc.test',
  'wss://magyar.relay.strucc.test',
  'wss://budapest.relay.strucc.test',
  'wss://szeged.relay.strucc.test',
  'wss://archiv.relay.strucc.test',
  'wss://gyors.relay.strucc.test',
];

/** Folds accents away for ASCII usernames (NIP-05 local parts, lightning addresses). */
export function asciiName(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '');
}
