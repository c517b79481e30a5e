/**
 * `npm run depcheck`: checks the direction of imports between the rooms (core, machines, worker,
 * src, server) against the named rules of .dependency-cruiser.cjs and prints each broken rule by
 * name. Exit code 1 when any rule is broken.
 *
 * dependency-cruiser does the resolving and the rule matching, through its API: its CLI refuses
 * Node 20 (it requires ^22) and its TypeScript reader needs typescript < 7, which this project
 * does not have. So each source file is first stripped of its types with esbuild (a dependency
 * of tsx), into a mirror tree under .cache/, with every `import type` turned into a plain import
 * first: a type-only import across a wall is as wrong as a value import.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { transformSync } from 'esbuild';
import { cruise, type ICruiseResult, type IReporterOutput } from 'dependency-cruiser';

/** Imports of stylesheets and JSON: not code, not copied to the mirror. */
const ASSET = /\.(css|json|svg|png|webp|txt|md)(\?[^/]*)?$/;

export const ROOMS = ['core', 'machines', 'worker', 'src', 'server'] as const;

export interface Violation {
  rule: string;
  comment: string;
  from: string;
  to: string;
}

export interface DepcheckResult {
  violations: Violation[];
  /** Modules dependency-cruiser looked at (source files plus resolved packages). */
  cruised: number;
  ms: number;
}

interface RuleConfig {
  forbidden: { name: string; comment?: string }[];
  options?: Record<string, unknown>;
}

function sourcesUnder(root: string, dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) sourcesUnder(root, rel, out);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** TypeScript to plain JS, keeping every import (type-only ones included) and pointing .ts specifiers at the .js mirror. */
function toMirrorJs(source: string, rel: string): string {
  const typesAsValues = source
    .replace(/\bimport type (?=[\w{*])/g, 'import ')
    .replace(/\bexport type (\{[^}]*\}|\*(?: as \w+)?)(\s*from\s)/g, 'export $1$2');
  const { code } = transformSync(typesAsValues, {
    loader: rel.endsWith('.tsx') ? 'tsx' : 'ts',
    format: 'esm',
    jsx: 'automatic',
    target: 'es2022',
    sourcefile: rel,
    // Keeps imports whose bindings are unused (types, once `type` is dropped) instead of eliding them.
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  });
  return code.replace(/(['"])(\.{1,2}\/[^'"\n]*?)\.tsx?\1/g, '$1$2.js$1');
}

/**
 * Runs the rules over the rooms of `root`. `extraFiles` (path relative to root → source) are
 * added to the mirror only, so a test can check a deliberately wrong import without touching
 * the tree.
 */
export async function checkDependencies(root: string, extraFiles: Record<string, string> = {}): Promise<DepcheckResult> {
  const started = performance.now();
  const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as RuleConfig;
  mkdirSync(join(root, '.cache'), { recursive: true });
  // Inside the repository, so that package imports resolve from its node_modules.
  const mirror = mkdtempSync(join(root, '.cache', 'depcheck-'));
  const originalName = new Map<string, string>();
  try {
    const files = new Map<string, string>();
    for (const room of ROOMS) for (const rel of sourcesUnder(root, room)) files.set(rel, readFileSync(join(root, rel), 'utf8'));
    for (const [rel, source] of Object.entries(extraFiles)) files.set(rel, source);
    for (const [rel, source] of files) {
      const js = rel.replace(/\.tsx?$/, '.js');
      originalName.set(js, rel);
      mkdirSync(dirname(join(mirror, js)), { recursive: true });
      writeFileSync(join(mirror, js), toMirrorJs(source, rel));
    }
    const result: IReporterOutput = await cruise([...ROOMS], {
      validate: true,
      ruleSet: { forbidden: config.forbidden } as never,
      baseDir: mirror,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
      enhancedResolveOptions: { extensions: ['.js'] },
    });
    const output = result.output as ICruiseResult;
    const comments = new Map(config.forbidden.map((r) => [r.name, r.comment ?? '']));
    const name = (p: string) => originalName.get(p) ?? p;
    const violations = output.summary.violations.map((v) => ({
      rule: v.rule.name,
      comment: comments.get(v.rule.name) ?? '',
      from: name(v.from),
      to: name(v.to),
    }));
    // A relative import the mirror cannot resolve would be an edge nobody checks: report it as broken too.
    for (const m of output.modules) {
      for (const d of m.dependencies) {
        if (d.couldNotResolve && d.module.startsWith('.') && !ASSET.test(d.module)) {
          violations.push({ rule: 'depcheck-resolves-every-import', comment: 'A relative import that does not resolve cannot be checked.', from: name(m.source), to: d.module });
        }
      }
    }
    return { violations, cruised: output.summary.totalCruised, ms: Math.round(performance.now() - started) };
  } finally {
    rmSync(mirror, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const root = join(import.meta.dirname, '..');
  const { violations, cruised, ms } = await checkDependencies(root);
  if (violations.length === 0) {
    console.log(`depcheck: ${cruised} modules, no rule broken (${ms} ms)`);
    return;
  }
  for (const v of violations) console.error(`✖ ${v.rule}: ${v.from} → ${v.to}\n    ${v.comment}`);
  console.error(`depcheck: ${violations.length} import(s) break the rules of .dependency-cruiser.cjs (${ms} ms)`);
  process.exitCode = 1;
}

if (process.argv[1] && relative(process.argv[1], import.meta.filename) === '') await main();
