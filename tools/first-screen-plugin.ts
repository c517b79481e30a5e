/**
 * Cuts two waterfalls out of the first screen (issue 18), build only:
 * - the shared worker's script was asked for only once the page's whole module graph had loaded
 *   and run (main.tsx calls connect()), and the worker's own ~470 kB then took as long again to
 *   load and run before it could say hello. An inline script in <head> now starts the worker while
 *   the page's modules load; worker-client.ts picks that worker up instead of starting its own.
 *   A revisit of /home with kept cards does not: there the first render gets the machine first
 *   (main.tsx holds the worker start until it is painted).
 * - /home's screen chunk is imported dynamically, so its modules (feed list, note card...) were
 *   asked for only after main.tsx ran. On /home they are now modulepreloaded from the start.
 */
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/** The first screen whose chunks are preloaded: the one with the painted copy and kept cards. */
const HOME_SCREEN = /\/src\/routes\/Home\.tsx$/;
const WORKER_CLIENT = /\/src\/worker-client\.ts$/;
/** How worker-client.ts's `new SharedWorker(new URL('../worker/entry.ts', import.meta.url))` reads once built. */
const WORKER_URL = /new SharedWorker\(new URL\(\s*(?:\/\*[^*]*\*\/\s*)?[`'"](\/assets\/[\w.-]+\.js)[`'"]/;

function chunks(bundle: OutputBundle): OutputChunk[] {
  return Object.values(bundle).filter((f): f is OutputChunk => f.type === 'chunk');
}

/** fileName and every chunk it imports statically, transitively. */
function staticClosure(bundle: OutputBundle, fileName: string, into = new Set<string>()): Set<string> {
  if (into.has(fileName)) return into;
  into.add(fileName);
  const chunk = bundle[fileName];
  if (chunk?.type === 'chunk') for (const dep of chunk.imports) staticClosure(bundle, dep, into);
  return into;
}

/** The inline script; every value in it is a build-time constant (no data from the page or storage goes into it). */
function startScript(workerUrl: string, homeChunks: string[]): string {
  return `
      // The first screen's waterfalls, cut (tools/first-screen-plugin.ts): the shared worker starts now,
      // while the page's modules load, and /home's own modules are fetched with them.
      (function () {
        var home = location.pathname === '/' || location.pathname === '/home';
        if (home) {
          var chunks = ${JSON.stringify(homeChunks)};
          for (var i = 0; i < chunks.length; i++) {
            var link = document.createElement('link');
            link.rel = 'modulepreload';
            link.crossOrigin = '';
            link.href = chunks[i];
            document.head.appendChild(link);
          }
        }
        try {
          if (typeof SharedWorker !== 'function') return;
          // A revisit of /home with kept cards paints them first; main.tsx starts the worker after.
          // A text search, not JSON.parse: the kept screen (src/lib/firstScreen.ts) is tens of kB, and
          // main.tsx parses it again anyway; JSON.stringify writes a non-empty notes array this way only.
          if (home && (localStorage.getItem('strucc:firstScreen') || '').indexOf('"notes":[{') >= 0) return;
          window.__struccWorker = new SharedWorker(${JSON.stringify(workerUrl)}, { type: 'module', name: 'strucc' });
        } catch (e) {}
      })();
    `;
}

export function firstScreenPlugin(): Plugin {
  return {
    name: 'strucc-first-screen',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (!index || index.type !== 'asset') return;
      const all = chunks(bundle);
      const entry = all.find((c) => c.isEntry);
      const home = all.find((c) => c.facadeModuleId !== null && HOME_SCREEN.test(c.facadeModuleId));
      const client = all.find((c) => c.moduleIds.some((id) => WORKER_CLIENT.test(id)));
      const workerUrl = client ? WORKER_URL.exec(client.code)?.[1] : undefined;
      // A build whose shape changed fails here rather than quietly losing the early start.
      if (!entry || !home || !workerUrl) throw new Error('first-screen plugin: entry, Home chunk or worker URL not found');
      const preloaded = staticClosure(bundle, entry.fileName);
      const homeChunks = [...staticClosure(bundle, home.fileName)].filter((f) => !preloaded.has(f)).map((f) => '/' + f);
      const html = String(index.source);
      const script = `<script>${startScript(workerUrl, homeChunks)}</script>`;
      if (!html.includes('</head>')) throw new Error('first-screen plugin: index.html has no </head>');
      index.source = html.replace('</head>', `  ${script}\n  </head>`);
    },
  };
}
