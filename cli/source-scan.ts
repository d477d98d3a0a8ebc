// The source files the static scans of the trust boundary read (cli/scan-*.test.ts): every
// production file of content-schemas/, pipeline/, cli/ and site/, tests and test helpers left out,
// with its comments blanked (a comment naming an API is no call). Imported by tests only.
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

/**
 * Every production source file (repository-relative, `/`-separated) and its code without comments;
 * with `launcher`, the launcher too (a scan whose class it could hold reads it).
 */
export function productionSources({ launcher = false }: { launcher?: boolean } = {}): Map<string, string> {
  const sources = new Map<string, string>();
  if (launcher) sources.set(LAUNCHER, withoutComments(readFileSync(path.join(REPO_ROOT, LAUNCHER), 'utf8')));
  for (const folder of FOLDERS) {
    const files = readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
      .filter((file) => /\.(ts|mjs|js|astro)$/.test(file) && !/\.test\.ts$/.test(file) && !TEST_HELPERS.has(file));
    for (const file of files) sources.set(file, withoutComments(readFileSync(path.join(REPO_ROOT, file), 'utf8')));
  }
  return sources;
}

/** The allow-list problems: files that do the thing unlisted, and listed files that no longer do it. */
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
