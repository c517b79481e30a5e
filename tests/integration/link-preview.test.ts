import { generateSecretKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, jsonOf, signed, startOrigin, startTestServer, type Origin, type TestServer } from './services-support.ts';

interface Preview {
  url: string;
  mimetype: string;
  title: string;
  description: string;
  image: string;
  icon_url: string;
}

const OG_PAGE = `<!doctype html><html><head>
<meta charset="utf-8">
<title>Tartalék cím</title>
<meta property="og:title" content="Balaton &amp; környéke">
<meta content="Nyári kirándulás a tóhoz" property="og:description">
<meta property='og:image' content='/kepek/to.jpg'>
<meta name="twitter:title" content="Nem ez">
<link rel="shortcut icon" href="/ikon.png">
</head><body><p>Szöveg</p></body></html>`;

const PLAIN_PAGE = `<html><HEAD><TITLE>  Egyszerű   oldal </TITLE>
<meta name=description content="Leírás meta taggel">
<meta name="twitter:image" content="https://kepek.example/tw.png">
</HEAD><body></body></html>`;

let origin: Origin;
let t: TestServer;
let slowResponses: (() => void)[] = [];

beforeAll(async () => {
  origin = await startOrigin({
    '/og': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      r.end(OG_PAGE);
    },
    '/plain': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html' });
      r.end(PLAIN_PAGE);
    },
    '/latin2': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html; charset=iso-8859-2' });
      // "Árvíztűrő" in ISO-8859-2: ű is 0xFB and ő is 0xF5 there.
      r.end(Buffer.concat([Buffer.from('<title>'), Buffer.from([0xc1, 0x72, 0x76, 0xed, 0x7a, 0x74, 0xfb, 0x72, 0xf5]), Buffer.from('</title>')]));
    },
    '/r1': (_q, r) => {
      r.writeHead(302, { Location: '/r2' });
      r.end();
    },
    '/r2': (_q, r) => {
      r.writeHead(301, { Location: '/og' });
      r.end();
    },
    '/loop': (_q, r) => {
      r.writeHead(302, { Location: '/loop' });
      r.end();
    },
    '/slow': (_q, r) => {
      // Never answers; the fetcher's deadline must end the wait.
      slowResponses.push(() => r.destroy());
    },
    '/image': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png' });
      r.end(Buffer.alloc(100));
    },
    '/pdf': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'application/pdf' });
      r.end('%PDF-1.4');
    },
    '/huge': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html' });
      r.write('<html><head><title>Óriási oldal</title></head><body>');
      const block = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      // 50 MB if nobody stops reading; the fetcher must stop at its 1 MB cap.
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += block.length;
          if (!r.write(block)) return void r.once('drain', pump);
        }
        r.end();
      };
      r.on('close', () => {
        sent = Infinity;
      });
      pump();
    },
    '/broken': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html' });
      r.end('<html><head><meta property="og:title" content="Félbe<title>x');
    },
    '/count': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html' });
      r.end(`<title>Számláló ${origin.hits.get('/count')}</title>`);
    },
    '/404': (_q, r) => {
      r.writeHead(404);
      r.end();
    },
  });
  t = await startTestServer();
});

afterAll(async () => {
  for (const end of slowResponses) end();
  slowResponses = [];
  await t?.stop();
  await origin?.close();
});

const preview = async (u: string) => {
  const res = await http('GET', `${t.base}/link-preview?u=${encodeURIComponent(u)}`);
  expect(res.status).toBe(200);
  return jsonOf<Preview>(res);
};

describe('GET /link-preview', () => {
  it('reads OpenGraph tags, resolving relative image and icon URLs', async () => {
    const p = await preview(`${origin.base}/og`);
    expect(p).toEqual({
      url: `${origin.base}/og`,
      mimetype: 'text/html',
      title: 'Balaton & környéke',
      description: 'Nyári kirándulás a tóhoz',
      image: `${origin.base}/kepek/to.jpg`,
      icon_url: `${origin.base}/ikon.png`,
    });
  });

  it('falls back to <title>, meta description, twitter:image and /favicon.ico', async () => {
    const p = await preview(`${origin.base}/plain`);
    expect(p.title).toBe('Egyszerű oldal');
    expect(p.description).toBe('Leírás meta taggel');
    expect(p.image).toBe('https://kepek.example/tw.png');
    expect(p.icon_url).toBe(`${origin.base}/favicon.ico`);
  });

  it('decodes the declared charset', async () => {
    expect((await preview(`${origin.base}/latin2`)).title).toBe('Árvíztűrő');
  });

  it('follows up to three redirects and refuses more', async () => {
    const p = await preview(`${origin.base}/r1`);
    expect(p.url).toBe(`${origin.base}/r1`);
    expect(p.title).toBe('Balaton & környéke');
    const loop = await preview(`${origin.base}/loop`);
    expect(loop).toEqual({ url: `${origin.base}/loop`, mimetype: '', title: '', description: '', image: '', icon_url: '' });
    expect(origin.hits.get('/loop')).toBe(4);
  });

  it('gives up on a page that does not answer', async () => {
    const p = await preview(`${origin.base}/slow`);
    expect(p.title).toBe('');
    expect(p.mimetype).toBe('');
  });

  it('describes non-HTML links by their type', async () => {
    expect(await preview(`${origin.base}/image`)).toMatchObject({ mimetype: 'image/png', image: `${origin.base}/image`, title: '' });
    expect(await preview(`${origin.base}/pdf`)).toMatchObject({ mimetype: 'application/pdf', title: '', image: '' });
  });

  it('reads only the head of a huge page', async () => {
    const p = await preview(`${origin.base}/huge`);
    expect(p.title).toBe('Óriási oldal');
  });

  it('survives broken markup, error statuses and bad URLs', async () => {
    expect((await preview(`${origin.base}/broken`)).mimetype).toBe('text/html');
    expect((await preview(`${origin.base}/404`)).title).toBe('');
    for (const bad of ['ftp://example.com/x', 'javascript:alert(1)', 'nem url']) {
      expect(await preview(bad)).toEqual({ url: bad, mimetype: '', title: '', description: '', image: '', icon_url: '' });
    }
    expect((await http('GET', `${t.base}/link-preview`)).status).toBe(400);
  });

  it('caches answers for a day', async () => {
    const u = `${origin.base}/count`;
    expect((await preview(u)).title).toBe('Számláló 1');
    expect((await preview(u)).title).toBe('Számláló 1');
    expect(origin.hits.get('/count')).toBe(1);
    t.clock.now += 25 * 3600;
    expect((await preview(u)).title).toBe('Számláló 2');
    expect(origin.hits.get('/count')).toBe(2);
  });

  it('puts cached previews into 10000128 LINK_METADATA of bundles', async () => {
    const sk = generateSecretKey();
    const note = signed(sk, 1, `Nézd meg: ${origin.base}/og és ${origin.base}/nincs-elonezet`, [], t.clock.now - 10);
    const [imported] = await t.server.ctx.importer.importEvents([note]);
    expect(imported.ok).toBe(true);
    const res = await http('POST', `${t.base}/api`, { body: JSON.stringify(['events', { event_ids: [note.id], extended_response: true }]), headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(200);
    const objects = jsonOf<{ kind: number; content?: string }[]>(res);
    const links = objects.filter((o) => o.kind === 10000128).map((o) => JSON.parse(o.content!));
    expect(links).toEqual([
      {
        event_id: note.id,
        resources: [
          {
            url: `${origin.base}/og`,
            mimetype: 'text/html',
            md_title: 'Balaton & környéke',
            md_description: 'Nyári kirándulás a tóhoz',
            md_image: `${origin.base}/kepek/to.jpg`,
            icon_url: `${origin.base}/ikon.png`,
          },
        ],
      },
    ]);
  });
});
