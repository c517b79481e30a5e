/**
 * Writes dist/sw.js from tools/sw.js at build time, with this build's id and the files of its
 * shell (every emitted chunk, stylesheet and asset, plus public/'s icons and manifest), and marks
 * index.html with the same id so the service worker can tell its own index.html from another
 * build's. Build only: `npm run dev` has no service worker.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';

const TEMPLATE = join(import.meta.dirname, 'sw.js');

function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

const PLACEHOLDER = 'const SHELL = self.__STRUCC_SHELL__;';

function injectShell(template: string, shell: string): string {
  if (template.split(PLACEHOLDER).length !== 2) throw new Error(`tools/sw.js: expected "${PLACEHOLDER}" exactly once`);
  return template.replace(PLACEHOLDER, () => `const SHELL = ${shell};`);
}

export function pwaPlugin(): Plugin {
  let publicDir = '';
  return {
    name: 'strucc-pwa',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (!index || index.type !== 'asset') return;
      const emitted = Object.keys(bundle).filter((name) => name !== 'index.html' && !name.endsWith('.map'));
      const copied = filesUnder(publicDir).filter((name) => name !== 'sw.js');
      const files = [...new Set([...emitted, ...copied])].sort().map((name) => '/' + name);
      // Chunk names carry content hashes; the page itself and public/'s files are hashed in whole.
      const hash = createHash('sha256').update(files.join('\n')).update(String(index.source));
      for (const name of copied) hash.update(readFileSync(join(publicDir, name)));
      const build = hash.digest('hex').slice(0, 16);
      // After the charset declaration, which must stay first in <head>.
      const mark = `<meta name="strucc-build" content="${build}" />`;
      const html = String(index.source);
      index.source = /<meta charset[^>]*>/i.test(html) ? html.replace(/<meta charset[^>]*>/i, (m) => `${m}\n    ${mark}`) : html.replace('<head>', `<head>\n    ${mark}`);
      const shell = JSON.stringify({ build, files });
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: injectShell(readFileSync(TEMPLATE, 'utf8'), shell),
      });
    },
  };
}
