// The source files the static scans of the trust boundary read (cli/scan-*.test.ts): every
// production file of content-schemas/, pipeline/, cli/ and site/, and the launcher bin/codelabgen.cjs,
// tests and test helpers left out,
// with its comments blanked (a comment naming an API is no call). Imported by tests only.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './testing.ts';

const FOLDERS = ['content-schemas', 'pipeline', 'cli', 'site'];

/** Helpers that only tests import: they build fixtures and run the CLI; no course or client names their paths. */
export const TEST_HELPERS = new Set([
  'cli/testing.ts',
  'cli/course-cache.ts',
  'cli/protocol-fixture.ts',
  'cli/fuzz-cases.ts',
  'cli/hostile-trees.ts',
  'cli/hostile-mcp.ts',
  'cli/mcp-client.ts',
  'cli/hostile-site-dev.ts',
  'cli/package-fixture.ts',
  'cli/workflow-run.ts',
  'cli/source-scan.ts',
  'pipeline/verify/fixtures.ts',
]);

/** Source without its comments, strings kept (a `//` inside a string or a URL is left alone). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

/** The launcher the package's `bin` names (package.json): production code outside FOLDERS. */
export const LAUNCHER = 'bin/codelabgen.cjs';

/** Every production source file (repository-relative, `/`-separated), the launcher too, and its code without comments. */
export function productionSources(): Map<string, string> {
  const sources = new Map<string, string>();
  sources.set(LAUNCHER, withoutComments(readFileSync(path.join(REPO_ROOT, LAUNCHER), 'utf8')));
  for (const folder of FOLDERS) {
    const files = readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
      .filter((file) => /\.(ts|mjs|js|astro)$/.test(file) && !/\.test\.ts$/.test(file) && !TEST_HELPERS.has(file));
    for (const file of files) sources.set(file, withoutComments(readFileSync(path.join(REPO_ROOT, file), 'utf8')));
  }
  return sources;
}

export interface Imported {
  module: string;
  /** Named imports (type-only ones left out), or the name the whole module is bound to ('' when unknown). */
  named?: string[];
  whole?: string;
}

/** What `code` takes from modules: static, side-effect, dynamic (literal) imports, require() and getBuiltinModule(). */
export function moduleImports(code: string): Imported[] {
  const found: Imported[] = [];
  const moduleName = (spec: string) => spec.replace(/^node:/, '');
  const namedOf = (list: string) =>
    list
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '' && !item.startsWith('type '))
      .map((item) => item.split(/\s*(?:as|:)\s*/)[0] ?? '');
  for (const [, clause = '', spec = ''] of code.matchAll(
    /\bimport\s+(?!type\b)([^;'"]*?)\s+from\s+['"]([^'"]+)['"]/g,
  )) {
    const module = moduleName(spec);
    const whole = /^\s*(?:\*\s*as\s+([\w$]+)|([\w$]+))/.exec(clause);
    if (whole) found.push({ module, whole: whole[1] ?? whole[2] ?? '' });
    const named = /\{([^}]*)\}/.exec(clause)?.[1];
    if (named !== undefined) found.push({ module, named: namedOf(named) });
  }
  for (const [, spec = ''] of code.matchAll(/\bimport\s+['"]([^'"]+)['"]/g))
    found.push({ module: moduleName(spec), whole: '' });
  const loaded = new RegExp(
    String.raw`(?:\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*)?(?:await\s+)?` +
      String.raw`(?:\brequire|(?:\bprocess\.)?getBuiltinModule|(?<![\w$.])import)\s*\(\s*['"]([^'"]+)['"]\s*\)`,
    'g',
  );
  for (const [, binding, spec = ''] of code.matchAll(loaded)) {
    const module = moduleName(spec);
    if (binding?.startsWith('{')) found.push({ module, named: namedOf(binding.slice(1, -1)) });
    else found.push({ module, whole: binding ?? '' });
  }
  return found;
}

/** The allow-list problems: files that do the thing unlisted, and listed files that no longer do it. */
/**
 * The one check of every trust-boundary scan (cli/scan-*.test.ts): the sites `sitesOf` finds in each
 * production file (but those `skip` names: the boundary's own module) are each on `allowed` with
 * the reason they are safe, and no entry of `allowed` has gone stale. `unlisted` says how to fix a
 * new site; `stale` what the stale files no longer do.
 */
export function assertAllowListed(scan: {
  sitesOf: (code: string) => string[];
  allowed: Readonly<Record<string, string>>;
  skip?: (file: string) => boolean;
  unlisted: string;
  stale: string;
}): void {
  const found = new Map(
    [...productionSources()]
      .filter(([file]) => !scan.skip?.(file))
      .map(([file, code]) => [file, scan.sitesOf(code)] as const)
      .filter(([, sites]) => sites.length > 0),
  );
  const { unlisted, stale } = allowListProblems(found, scan.allowed);
  assert.deepEqual(unlisted, [], scan.unlisted);
  assert.deepEqual(stale, [], scan.stale);
}

export function allowListProblems(
  found: ReadonlyMap<string, string[]>,
  allowed: Readonly<Record<string, string>>,
): { unlisted: string[]; stale: string[] } {
  return {
    unlisted: [...found]
      .filter(([file]) => allowed[file] === undefined)
      .map(([file, what]) => `${file}: ${what.join(', ')}`),
    stale: Object.keys(allowed).filter((file) => !found.has(file)),
  };
}
