/**
 * Hungarian material for long-form articles (kind 30023). articles.ts assembles a body
 * from a kit: an intro, sections under headings, a list, an image, a link and a closing.
 */

export interface ArticleKit {
  topic: string;
  hashtags: string[];
  titles: string[];
  summaries: string[];
  /** headings[i] titles paragraphs[i + 1]; paragraphs[0] is the untitled introduction. */
  headings: string[];
  paragraphs: string[];
  listIntro: string;
  listItems: string[];
}

export const ARTICLE_KITS: ArticleKit[] = [
  {
    topic: 'nostr',
    hashtags: ['nostr', 'bitcoin', 'decentralizáció', 'lightning'],
    titles: [
      'Miért költöztem át a Nostrra?', 'Kulcsok, relék, kliensek: a Nostr dióhéjban', 'Egy év zapolás után',
      'Saját relé otthon, lépésről lépésre', 'A közösségi média, amit senki sem birtokol', 'Lightning a mindennapokban',
      'Hogyan védd meg a privát kulcsodat?', 'Nostr kezdőknek: az első hét', 'Miért fontos a nyílt protokoll?',
    ],
    summaries: [
      'Személyes beszámoló arról, milyen egy olyan közösségi hálózaton élni, ahol a fiókom tényleg az enyém.',
      'Rövid, közérthető bevezető mindazoknak, akik most ismerkednek a Nostrral.',
      'Tapasztalatok, tanulságok és néhány tipp arról, hogyan változtatja meg a zap az online beszélgetéseket.',
    ],
    headings: ['Kulcsok és aláírások', 'Relék: a postahivatalok', 'Kliensek mindenkinek', 'A zapok világa', 'Mire figyelj?', 'Az első hetek', 'Mit nyertem vele?'],
    paragraphs: [
      'Amikor először hallottam a Nostrról, azt hittem, ez is csak egy újabb divathullám, ami pár hónap alatt elmúlik. Aztán egy barátom megmutatta, hogy a fiókja nem egy cég szerverén él, hanem egy kulcspárban, amit ő maga őriz. Ez a gondolat nem hagyott nyugodni, és egy esős vasárnap délután végül én is létrehoztam az első kulcsomat.',
      'A Nostr alapja egy egyszerű ötlet: minden bejegyzést a szerzője digitálisan aláír, így bárki ellenőrizheti, hogy valóban tőle származik. A nyilvános kulcs a nevem, a privát kulcs pedig az aláírásom. Ha a privát kulcsot elveszítem, senki sem tudja visszaállítani, ezért a biztonságos megőrzése az első és legfontosabb feladat.',
      'A relék olyanok, mint a postahivatalok: fogadják és továbbítják a leveleket, de nem ők írják azokat. Ha az egyik relé bezár vagy kitilt, egyszerűen egy másikat használok, és a követőim ugyanúgy megtalálnak. Éppen ezért érdemes egyszerre több relére is írni, így a bejegyzéseink mindig elérhetők maradnak.',
      'A kliensek sokfélék: van, amelyik a telefonra készült, van, amelyik a böngészőben fut, és van, amelyik kifejezetten hosszú cikkek olvasására való. A szépség az, hogy ugyanazzal a kulccsal bármelyikbe beléphetek, és mindenhol ugyanaz a közösség vár. Ha egy kliens nem tetszik, egyszerűen átváltok egy másikra, semmi sem vész el.',
      'A zap a lightning hálózaton küldött apró összeg, amellyel megköszönhetünk egy jó bejegyzést. Eleinte furcsa volt, hogy egy lájk helyett pénzt küldök, de hamar rájöttem, mekkora ereje van ennek. Egy húsz-harminc forintnyi zap is azt üzeni: figyeltem rád, és értékes volt, amit írtál. Az alkotók pedig végre közvetlenül kaphatnak támogatást.',
      'Fontos tudni, hogy a Nostron nincs központi ügyfélszolgálat. Ha elveszíted a kulcsodat, senki sem fogja visszaadni. Ugyanakkor senki sem tudja elvenni sem. Ez a szabadság felelősséggel jár: használj jelszókezelőt vagy aláíró bővítményt, és soha ne másold be a privát kulcsodat ismeretlen weboldalakra.',
      'Az első hetekben leginkább csak olvastam. Aztán elkezdtem válaszolni, később saját gondolatokat is megosztani. Meglepett, mennyire barátságos a magyar közösség: kérdésekre mindig jött válasz, és a viták is sokkal kulturáltabbak voltak, mint amit más platformokon megszoktam.',
      'A legnagyobb nyereség talán az, hogy nem egy algoritmus dönti el, mit látok. Én választom ki, kiket követek, és az ő bejegyzéseiket látom időrendben. Nincs rejtett rangsorolás, nincs felkapott botrány, ami a figyelmemért harcol. Ha mégis felfedeznék valami újat, ott vannak a különféle hírfolyamok, amelyek közül szabadon választhatok.',
    ],
    listIntro: 'Néhány tipp, amit bárcsak az első napon tudtam volna:',
    listItems: [
      'a privát kulcsodat (nsec) írd le papírra is, és tartsd biztonságos helyen;',
      'állíts be NIP-05 azonosítót, hogy könnyebben megtaláljanak;',
      'használj legalább három relét, hogy ne vesszenek el a bejegyzéseid;',
      'kösd össze a lightning tárcádat, és próbáld ki a zapokat kis összegekkel;',
      'kövess néhány aktív magyar felhasználót, így hamar élettel telik meg a hírfolyamod;',
      'ne ijedj meg, ha valami elsőre bonyolultnak tűnik: kérdezz bátran.',
    ],
  },
  {
    topic: 'cooking',
    hashtags: ['főzés', 'recept', 'gasztro', 'magyarkonyha'],
    titles: [
      'A tökéletes lecsó nyomában', 'Nagymamám receptfüzete', 'Kovászos kenyér kezdőknek', 'Bográcsozás a kertben',
      'Befőzés: a nyár üvegbe zárva', 'Pörkölt, paprikás, tokány: mi a különbség?', 'Vasárnapi ebéd egy órában', 'A halászlé titkai', 'Főzelékek, amiket a gyerekek is megesznek', 'Sütés kovász nélkül, gyorsan',
    ],
    summaries: [
      'Receptek, kudarcok és tanulságok egy lelkes házi szakács konyhájából.',
      'Egy régi receptfüzet nyomán a magyar konyha ízeit kutatom, lépésről lépésre.',
      'Hogyan lesz a néhány egyszerű hozzávalóból ünnepi étel? Megmutatom.',
    ],
    headings: ['A hozzávalók', 'A paprika titka', 'Meddig főzzük?', 'Gyakori hibák', 'Tálalás', 'Változatok', 'Ami megmarad'],
    paragraphs: [
      'A magyar konyha egyik legnagyobb erénye az egyszerűsége. Néhány jó minőségű alapanyag, egy kis türelem és egy csipet pirospaprika sokszor többet ér bármilyen bonyolult receptnél. Gyerekkoromban a nagymamám konyhájában tanultam meg, hogy a főzés nem sietség kérdése: a hagymát lassan kell üvegesre párolni, különben az egész étel íze megváltozik.',
      'Az alapanyagokat mindig a piacon veszem, ha tehetem. A termelőktől vásárolt paprika és paradicsom egészen más ízű, mint a nagyáruházak polcain sorakozó, egyforma zöldségek. Ráadásul a piacon mindig lehet beszélgetni, receptet cserélni, és néha egy-egy jó tanácsot is kapok a kofa néniktől, akik többet tudnak a főzésről, mint bármelyik szakácskönyv.',
      'A pirospaprikát sosem szabad a forró zsiradékba szórni, mert megég és keserű lesz. Húzd le a lábast a tűzről, keverd el benne a paprikát, és csak utána öntsd rá a folyadékot. Ez az apró trükk az egyik legfontosabb különbség egy átlagos és egy igazán jó pörkölt között.',
      'Sokan kérdezik, mennyi ideig kell főzni. Erre nincs pontos válasz: a hús minősége, a lábas vastagsága és a tűzhely ereje mind számít. Én inkább a szememre és az orromra hagyatkozom. Amikor a szaft besűrűsödik és az illata betölti a házat, akkor vagyunk közel a célhoz.',
      'Az egyik leggyakoribb hiba, hogy túl sok mindent akarunk egyszerre. A jó étel nem attól lesz különleges, hogy tizenöt fűszert teszünk bele. Sokszor a kevesebb több: só, bors, paprika, egy kis fokhagyma, és hagyjuk, hogy az alapanyagok beszéljenek.',
      'Tálaláskor ne feledkezzünk meg a körítésről sem. Egy friss, ecetes uborkasaláta vagy egy kanál tejföl egészen más dimenzióba emeli a legegyszerűbb egytálételt is. A kenyér pedig legyen friss, ropogós héjú, hogy a szaftot is ki lehessen vele törölni a tányérról.',
      'A recept persze csak kiindulópont. Minden családnak megvan a saját változata, és ez így van jól. Van, aki kolbásszal készíti, van, aki tojással, és van, aki szerint mindkettő szentségtörés. Én azt mondom: főzz úgy, ahogy a te családod szereti, és ne hallgass a vitatkozókra.',
      'A maradékot sem kell kidobni. A pörkölt másnap még finomabb, a főzelékből pedig remek leves lehet egy kis tejföllel és friss kenyérrel. A nagymamám mindig azt mondta, hogy a jó háziasszony abból is ebédet főz, ami a hűtő alján maradt. Ma ezt fenntarthatóságnak hívjuk.',
    ],
    listIntro: 'Ami nálam mindig kéznél van a konyhában:',
    listItems: [
      'jó minőségű, édes nemes pirospaprika;', 'vastag aljú lábas vagy öntöttvas edény;', 'friss vöröshagyma, sok;',
      'zsír vagy jó olaj a pirításhoz;', 'tejföl, mert mindenhez illik;', 'egy éles kés és egy nagy vágódeszka;', 'türelem, ami nem kapható a boltban.',
    ],
  },
  {
    topic: 'travel',
    hashtags: ['Balaton', 'utazás', 'túra', 'Magyarország'],
    titles: [
      'Három nap a Balaton körül kerékpárral', 'A Balaton-felvidék rejtett kincsei', 'Ősz a Zemplénben', 'Kéktúra: az első száz kilométer',
      'Tokaj egy hosszú hétvégén', 'Télen a Balatonnál', 'Vonattal a Dunakanyarba', 'Őrség: ahol megáll az idő', 'Hortobágy hajnalban',
    ],
    summaries: [
      'Útibeszámoló tippekkel, szállásajánlóval és néhány elkerülhető hibával.',
      'Kis falvak, kőházak, borospincék és csodás kilátás: egy hétvége vidéken.',
      'Nem kell messzire menni ahhoz, hogy igazán kikapcsoljunk. Itt a bizonyíték.',
    ],
    headings: ['Az első nap', 'Szállás és ellátás', 'Amit nem szabad kihagyni', 'Az időjárás', 'Költségek', 'Amit legközelebb másképp csinálnék', 'Hazafelé'],
    paragraphs: [
      'Régóta terveztük ezt az utat, de mindig közbejött valami. Idén végre rászántuk magunkat: kivettünk néhány nap szabadságot, összepakoltunk, és reggel hétkor már a vonaton ültünk. Az első órákban még a munka járt a fejemben, de ahogy elhagytuk a várost, lassan minden gond a hátam mögött maradt.',
      'Az első nap mindig a legnehezebb. A lábunk még nem szokta a terhelést, a hátizsák túl nehéznek tűnt, és persze a legmeredekebb emelkedő rögtön az elején várt ránk. Délutánra azonban megtaláltuk a ritmust, és amikor felértünk az első kilátóponthoz, minden fáradtságot elfelejtettünk.',
      'A szállásokat előre foglaltuk, és ez jó döntésnek bizonyult. Kis családi panziókban aludtunk, ahol a reggeli házi lekvárral, friss kenyérrel és helyi sajttal várt. A házigazdák mindenhol kedvesek voltak, és szívesen adtak tippeket, merre érdemes menni, hol lehet jól vacsorázni.',
      'Ha egyetlen helyet kellene ajánlanom, az egy kis falu temploma lenne a domb tetején. Nem szerepel egyetlen útikönyvben sem, de a kilátás onnan egyszerűen lélegzetelállító. Alkonyatkor ültünk ott egy padon, néztük, ahogy a nap lemegy a víz fölött, és egy szót sem szóltunk.',
      'Az időjárás szeszélyes volt, ahogy az ilyenkor lenni szokott. Egyik nap tűző napsütés, másnap szakadó eső. Megtanultuk, hogy mindig legyen nálunk esőkabát és egy váltás száraz zokni. A legszebb élményeink közül néhány éppen egy hirtelen zápor után született, amikor a párás levegőben szivárvány jelent meg.',
      'Sokan kérdezik, mennyibe kerül egy ilyen út. Meglepően kevésbe, ha az ember nem ragaszkodik a luxushoz. A vonatjegy, a panziók és a helyi kisvendéglők együtt is kevesebbe kerültek, mint egy hétvége egy divatos üdülőhelyen. És sokkal több élménnyel tértünk haza.',
      'Legközelebb kevesebb holmit vinnék. Minden kiló számít, amikor egész nap cipeljük. És több időt hagynék a pihenésre: nem kell mindent látni, néha a legjobb program egy délután egy árnyas teraszon, egy pohár hideg fröccs mellett.',
      'Hazafelé a vonaton már a következő utat terveztük. Ez az ország tele van olyan helyekkel, amelyeket még nem láttunk, pedig csak néhány óra vonatútra vannak tőlünk. Nem kell messzire utazni ahhoz, hogy valami igazán újat lássunk.',
    ],
    listIntro: 'A pakolólistánk, ami bevált:',
    listItems: [
      'kényelmes, bejáratott túracipő;', 'esőkabát és egy váltás száraz ruha;', 'kulacs, legalább másfél liter;',
      'naptej és kalap, még ősszel is;', 'powerbank a telefonhoz;', 'papírtérkép, mert a térerő nem mindenhol van;', 'egy doboz pogácsa az útra.',
    ],
  },
  {
    topic: 'books',
    hashtags: ['könyvek', 'olvasás', 'irodalom', 'könyvajánló'],
    titles: [
      'Öt magyar regény, amit újra kellene olvasnod', 'Miért olvassunk klasszikusokat?', 'Nyári olvasmánylista', 'A könyvklubunk első éve',
      'Szabó Magda és a csend', 'Hangoskönyv vagy papír?', 'Gyerekkorom kedvenc könyvei felnőttként', 'Az antikváriumok dicsérete', 'Krimik egy esős hétvégére', 'Könyvtárak, ahol jó lenni',
    ],
    summaries: [
      'Személyes válogatás régi és új kedvencekből, rövid indoklással.',
      'Gondolatok arról, miért érdemes ma is leemelni a polcról a klasszikusokat.',
      'Egy lelkes olvasó jegyzetei könyvekről, olvasásról és a csendes estékről.',
    ],
    headings: ['Újra a kötelezők', 'A magyar irodalom gazdagsága', 'Újraolvasva', 'A könyvklub', 'Hangoskönyv vagy papír?', 'Antikváriumok'],
    paragraphs: [
      'Mindig is szerettem olvasni, de az utóbbi években egyre kevesebb időm jutott rá. A telefon, a hírek és a végtelen görgetés szép lassan elvették azokat a csendes órákat, amelyeket régen egy-egy regénnyel töltöttem. Tavaly elhatároztam, hogy ezen változtatok, és minden este legalább fél órát olvasok.',
      'Az egyik legnagyobb meglepetés az volt, mennyire másképp hatnak rám a kötelező olvasmányok felnőttként. Ami tizenöt évesen unalmas volt, az most lebilincselő. Ami akkor érthetetlennek tűnt, most pontosan arról szól, amit a saját életemben tapasztalok. Talán nem is a könyvek változtak, hanem én.',
      'A magyar irodalom hihetetlenül gazdag. Kosztolányi pontos mondatai, Krúdy álomszerű hangulatai, Szabó Magda kíméletlen őszintesége vagy Rejtő abszurd humora mind-mind más oldalát mutatja meg annak, kik vagyunk. Kár lenne ezeket a könyveket csak az iskolai dolgozatok miatt ismerni.',
      'Az újraolvasás különleges élmény. Már tudom, mi fog történni, így a részletekre figyelhetek: egy-egy mondat ritmusára, egy mellékszereplő apró gesztusára, egy tájleírás színeire. Olyan ez, mint egy ismerős úton sétálni, és közben észrevenni, hogy a házak ablakain eddig soha nem látott díszek vannak.',
      'A könyvklubunk havonta egyszer találkozik egy kis kávézóban. Hatan-heten vagyunk, és mindenki mást lát ugyanabban a könyvben. Ezek a beszélgetések legalább annyit adnak, mint maga az olvasás. Néha egy mellékes megjegyzés egészen új értelmet ad egy fejezetnek.',
      'Sokan kérdezik, hogy a hangoskönyv is olvasásnak számít-e. Szerintem igen. Futás, főzés vagy hosszú autóút közben is lehet irodalommal élni, és egy jó felolvasó új dimenziót adhat a szövegnek. A papírkönyvet persze semmi sem pótolja, főleg egy esős vasárnap délután.',
      'Az antikváriumokat különösen szeretem. Egy régi könyv lapjai között néha dedikációt, villamosjegyet vagy ceruzás jegyzetet találok. Ilyenkor úgy érzem, nem egyedül olvasok, hanem valaki mással együtt, akit sosem ismertem, de ugyanazok a mondatok érintették meg.',
    ],
    listIntro: 'A mostani listám, ha valaki ötletet keresne:',
    listItems: [
      'Szabó Magda: Az ajtó;', 'Kosztolányi Dezső: Édes Anna;', 'Ottlik Géza: Iskola a határon;', 'Szerb Antal: Utas és holdvilág;',
      'Örkény István: Egyperces novellák;', 'Jókai Mór: Az arany ember;', 'Rejtő Jenő: Piszkos Fred, a kapitány.',
    ],
  },
  {
    topic: 'tech',
    hashtags: ['tech', 'programozás', 'opensource', 'adatvédelem'],
    titles: [
      'Saját felhő egy Raspberry Pi-n', 'Miért használok Linuxot a mindennapokban?', 'A jelszókezelők védelmében', 'Tíz év szoftverfejlesztés tanulságai',
      'Adatvédelem egyszerűen, otthon', 'SQLite élesben: mítoszok és tények', 'Hogyan tanítsunk gyerekeket programozni?', 'Régi laptop, új élet', 'Értesítések nélkül, egy hónapig', 'Billentyűzetek és egyéb szenvedélyek',
    ],
    summaries: [
      'Gyakorlati tapasztalatok és tanácsok egy fejlesztő szemével, közérthetően.',
      'Hogyan vehetjük vissza az irányítást a saját adataink és eszközeink fölött?',
      'Egy hétvégi projekt története a kezdeti lelkesedéstől a működő rendszerig.',
    ],
    headings: ['Mire lesz szükség?', 'A telepítés', 'A mentés', 'Biztonság', 'Egy hónap után', 'Az egyszerűség dicsérete', 'Gyerekek és programozás'],
    paragraphs: [
      'Néhány éve vettem észre, hogy a fényképeim, dokumentumaim és jegyzeteim egy tucat különböző cég szerverén vannak szétszórva. Mindegyik ingyenesnek tűnt, de valójában az adataimmal fizettem. Elhatároztam, hogy legalább a legfontosabb dolgokat hazahozom, egy saját, otthoni gépre.',
      'A hardver meglepően olcsó. Egy kis egykártyás számítógép, egy külső merevlemez és egy megbízható tápegység együtt kevesebbe kerül, mint egy év előfizetés valamelyik nagy szolgáltatónál. Az áramfogyasztás elhanyagolható, a zaj gyakorlatilag nulla, és a gép elfér a könyvespolcon is.',
      'A telepítés nem bonyolult, de türelmet igényel. Érdemes lépésről lépésre haladni, és minden lépés után ellenőrizni, hogy működik-e minden. Én az első estén túl sokat akartam egyszerre, és éjfélkor egy működésképtelen rendszer előtt ültem. Másnap újrakezdtem, lassabban, és két óra alatt megvolt.',
      'A legnagyobb buktató a mentés. Egy otthoni szerver csak akkor ér valamit, ha az adatok egy második helyen is megvannak. Én hetente automatikusan mentek egy másik lemezre, havonta pedig egy titkosított másolatot viszek a szüleimhez. Ez talán túlzásnak tűnik, egészen addig, amíg egy lemez tönkre nem megy.',
      'A biztonságot nem szabad félvállról venni. Minden szolgáltatás legyen naprakész, az alapértelmezett jelszavakat azonnal cseréljük le, és csak azt tegyük elérhetővé az internet felől, amire feltétlenül szükség van. A legtöbb támadás nem kifinomult, hanem egyszerűen a hanyagságot használja ki.',
      'Egy hónap után azt mondhatom, megérte. A rendszer stabil, a családom is használja, és jó érzés tudni, hol vannak az adataink. Persze vannak kompromisszumok: ha elmegy az áram, nincs felhő. De ez a kis kényelmetlenség bőven megéri a szabadságot.',
      'A szoftverfejlesztésben a legfontosabb lecke talán az, hogy az egyszerű megoldás szinte mindig jobb. Minden új réteg, minden okos absztrakció ára a karbantartás. Amikor fél év múlva visszatérek egy kódhoz, hálás vagyok minden egyszerű, unalmas sorért, amit akkor írtam.',
      'A gyerekeknek nem a nyelvet kell megtanítani, hanem a gondolkodást. Hogyan bontsunk fel egy nagy problémát kisebbekre? Hogyan ellenőrizzük, hogy jól működik-e, amit csináltunk? Ezek a készségek akkor is hasznosak, ha valaki soha nem lesz programozó.',
    ],
    listIntro: 'Ami nálam bevált:',
    listItems: [
      'automatikus, rendszeres mentés két külön helyre;', 'jelszókezelő minden fiókhoz;', 'kétlépcsős azonosítás, ahol csak lehet;',
      'nyílt forráskódú szoftverek, amikor van választás;', 'dokumentáció, még ha csak magamnak is;', 'egy hétvégi délután havonta a frissítésekre.',
    ],
  },
  {
    topic: 'budapest',
    hashtags: ['Budapest', 'városnézés', 'Duna', 'kávézó'],
    titles: [
      'Budapest, ahogy a turisták nem látják', 'Tíz kedvenc kávézóm a városban', 'Villamossal a város körül', 'A Duna-part hajnalban',
      'Budai hegyek egy napra', 'Piacok és csarnokok', 'Séta a régi Józsefvárosban', 'Hidak és történetek', 'Egy nap a Margitszigeten',
    ],
    summaries: [
      'Egy helyi lakos kedvenc helyei, a turistaútvonalakon túl.',
      'Városi séták, kávézók és rejtett zugok a főváros szívében.',
      'Budapest arca, amit csak az ismer, aki itt él.',
    ],
    headings: ['Reggel a Duna-parton', 'A budai oldal', 'Ahol a helyiek esznek', 'Esti program', 'Közlekedés', 'Piacok'],
    paragraphs: [
      'Harminc éve élek Budapesten, és még mindig meg tud lepni ez a város. Minden negyedének más a hangulata, más a ritmusa. A turisták a Parlamentet és a Halászbástyát fotózzák, és ez rendben is van, de a város igazi arca a mellékutcákban, a bérházak udvarain és a kis sarki boltokban rejlik.',
      'A reggeleket a Duna-parton szeretem a legjobban. Hajnalban még csend van, a folyó felett köd lebeg, és a hidakon alig jár valaki. Egy termosz kávéval leülök egy padra, és nézem, ahogy a város lassan felébred. Ilyenkor érzem, miért nem tudnék máshol élni.',
      'A budai oldal egészen más világ. A hegyek között kanyargó utcák, a villák és a kertek szinte falusias hangulatot árasztanak. A Normafára felsétálva pedig olyan kilátás nyílik, hogy az ember elfelejti, hogy egy kétmilliós nagyváros közepén van.',
      'Ha igazán jót akarsz enni, ne a belvárosi éttermekben keresd. A kerületek kifőzdéiben, a piacok büféiben és a kis családi vendéglőkben sokkal jobb és olcsóbb ételeket találsz. Ahol a helyiek sorban állnak ebédidőben, ott biztosan nem fogsz csalódni.',
      'Este a város megint átalakul. A romkocsmák megtelnek, a hidak kivilágítva tündökölnek, és a rakparton sétálók halk beszélgetése keveredik a villamosok csilingelésével. Egy nyári estén nincs is jobb program, mint egy hosszú séta a Duna mentén.',
      'Közlekedni a legegyszerűbb tömegközlekedéssel. A villamosok és a metró gyakran járnak, és egy napijeggyel az egész várost bejárhatod. A 2-es villamos vonala a Duna mentén pedig önmagában is felér egy városnéző körúttal, ráadásul töredék áron.',
      'A piacokat különösen ajánlom. A Nagyvásárcsarnok szép, de a kerületi piacokon sokkal élőbb a hangulat. Itt a kofák még ismerik a vevőiket, és szívesen adnak tanácsot, mit érdemes főzni abból, amit éppen aznap hoztak.',
    ],
    listIntro: 'Ha csak egy napod van, ezeket ne hagyd ki:',
    listItems: [
      'hajnali séta a Duna-parton;', 'villamosút a 2-es vonalon;', 'ebéd egy kerületi kifőzdében;', 'kilátás a Gellérthegyről;',
      'egy délután a Margitszigeten;', 'esti séta a kivilágított hidak között.',
    ],
  },
  {
    topic: 'nature',
    hashtags: ['kert', 'természet', 'túra', 'fenntarthatóság'],
    titles: [
      'Kezdő kertész kézikönyve', 'Komposztálás a panelerkélyen', 'Madárbarát kert lépésről lépésre', 'Egy év a méhekkel',
      'Veteményes kicsiben', 'Miért túrázom egyedül?', 'Az erdő csendje', 'Tavaszi madárles a Tisza-tónál', 'Gyümölcsfák ültetése ősszel',
    ],
    summaries: [
      'Tapasztalatok, sikerek és kudarcok egy kezdő kertész naplójából.',
      'Hogyan hozhatjuk közelebb a természetet a mindennapjainkhoz, akár a városban is?',
      'Egy év a szabadban: megfigyelések, tanulságok és sok-sok öröm.',
    ],
    headings: ['Az első év', 'Figyelni kell', 'A madarak', 'Egyedül az erdőben', 'Komposztálás', 'Évszakok'],
    paragraphs: [
      'Sokáig azt hittem, hogy a kertészkedés az idősebb korosztály hobbija. Aztán a járvány idején, amikor hetekig otthon ültünk, elültettem az első paradicsompalántáimat az erkélyen. Azóta a kis városi kertünk lett a kedvenc helyem, és nem telik el nap, hogy ne töltenék ott legalább fél órát.',
      'Az első évben szinte minden tönkrement, amit ültettem. A palánták megfagytak, a salátát megették a csigák, a paprika pedig meg sem mozdult. Mégsem adtam fel. Minden kudarcból tanultam valamit, és a második évben már szép termés került az asztalunkra.',
      'A legfontosabb, amit megtanultam: figyelni kell. Melyik sarok kap sok napot, hol áll meg a víz egy nagyobb eső után, mikor jelennek meg az első kártevők. A kert beszél hozzánk, csak meg kell tanulni érteni a nyelvét. Ehhez pedig idő és türelem kell.',
      'A madarak a kert legjobb barátai. Télen etetőt teszünk ki, nyáron itatót, és néhány odút is felszereltünk a fákra. Azóta cinegék, rigók és verebek járnak hozzánk rendszeresen, és a kártevőkkel is sokkal kevesebb a gond. A gyerekek madárhatározóval a kezükben figyelik őket.',
      'Az erdőben egyedül túrázni különleges élmény. Nincs beszélgetés, nincs sietség, csak a lépteim, a madárhang és a szél a lombok között. Ilyenkor tisztulnak ki a gondolataim, és sokszor egy régóta húzódó problémára is ott találok megoldást, egy kidőlt fatörzsön ülve.',
      'A komposztálás egyszerűbb, mint gondolnánk. Egy kis láda, a konyhai zöldséghulladék, egy kis száraz levél vagy papír, és néhány hónap múlva értékes, tápanyagdús föld lesz belőle. Ráadásul a kukánk is sokkal lassabban telik meg.',
      'Minden évszaknak megvan a maga szépsége és a maga feladata. Tavasszal ültetünk, nyáron locsolunk és gyomlálunk, ősszel betakarítunk és befőzünk, télen pedig tervezünk és pihenünk. Ez a körforgás megnyugtat, és emlékeztet arra, hogy mindennek megvan a maga ideje.',
    ],
    listIntro: 'Amit minden kezdő kertésznek tanácsolnék:',
    listItems: [
      'kezdj kicsiben, egy-két ágyással;', 'figyeld meg, hol mennyi napfény van;', 'ültess olyat, amit szívesen eszel;',
      'komposztálj, a föld meghálálja;', 'hívd meg a madarakat egy etetővel;', 'ne csüggedj az első kudarcok miatt.',
    ],
  },
];

/** Closing paragraphs that suit any article. */
export const CLOSINGS = [
  'Ha tetszett az írás, oszd meg bátran, és írd meg a véleményedet kommentben. Minden visszajelzésnek örülök, a kritikának is.',
  'Remélem, sikerült kedvet csinálnom hozzá. Ha kipróbálod, mindenképp írd meg, hogyan sikerült!',
  'Köszönöm, hogy végigolvastad. A következő részben még mélyebbre ásunk, addig is jó kísérletezést mindenkinek!',
  'Ez csak az én tapasztalatom, biztosan sokan másképp csinálják. Szívesen olvasom a ti történeteiteket is.',
  'Ha hasznosnak találtad, egy zap sokat segít abban, hogy legyen időm a következő írásra is. Köszönöm! ⚡',
];

/** Reflective paragraphs used to lengthen longer articles without repeating a kit. */
export const REFLECTIONS = [
  'Utólag visszagondolva talán az a legérdekesebb, hogy mennyi mindent tanultam közben magamról. Türelmesebb lettem, jobban odafigyelek a részletekre, és nem ijedek meg annyira a kudarcoktól. Ezek a tapasztalatok az élet más területein is hasznosnak bizonyultak.',
  'Sokan kérdezték tőlem, hogy nem túl nagy-e a befektetett idő és energia ahhoz képest, amit kapok. Szerintem nem. Az öröm, amit egy-egy sikeres próbálkozás ad, minden nehézséget megér, és a közösség, amellyel közben megismerkedtem, ma már az életem fontos része.',
  'Érdemes megemlíteni, hogy mindez nem egyik napról a másikra történt. Hónapokig tartott, mire összeállt a kép, és sokszor voltam közel ahhoz, hogy feladjam. Ha te is most kezded, ne csüggedj: az első lépések mindig a legnehezebbek.',
  'Érdekes megfigyelni, hogyan változik a hozzáállásom az évek során. Ami régen lelkesített, az ma már természetes, és közben újabb kérdések foglalkoztatnak. Talán ez a lényeg: soha nem érünk a végére, mindig van mit felfedezni.',
  'Az is sokat segített, hogy nem egyedül csináltam. Barátok, ismerősök és egészen idegen emberek is adtak tanácsot, és sokszor egy-egy apró megjegyzés lendített át egy holtponton. A tudás akkor ér a legtöbbet, ha megosztjuk.',
  'Persze nem minden sikerült elsőre. Volt, amit háromszor is újra kellett kezdenem, és volt, amit végül teljesen elengedtem. De ezek a kudarcok legalább annyit tanítottak, mint a sikerek, és ma már mosolyogva gondolok vissza rájuk.',
];
