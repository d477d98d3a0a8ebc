// The repository stands on its own: no doc or code comment cites a file outside it (a user's clone
// has only the repository). Cited markdown files and `docs/...` paths must exist in the repo.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './testing.ts';
import { DOC_KIND_NAMES } from '../content-schemas/doc-kinds.ts';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'out']);
/** A lesson's own docs (the doc kinds registry), and `exercises`, the kind pipeline/check/doc-kinds.test.ts plants. */
const LESSON_DOCS = new RegExp(`^docs/(?:${[...DOC_KIND_NAMES, 'exercises'].join('|')})\\.mdx?$`);
const TEXT_FILE = /\.(?:ts|mts|mjs|js|astro|md|mdx|ya?ml|json|css)$/;

function repoFiles(rel = ''): string[] {
  return readdirSync(path.join(REPO_ROOT, rel), { withFileTypes: true }).flatMap((entry) => {
    const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory())
      return (entry.name.startsWith('.') && entry.name !== '.ci') ||
        SKIP_DIRS.has(entry.name) ||
        /^dist\./.test(entry.name)
        ? []
        : repoFiles(child);
    return entry.isFile() && (TEXT_FILE.test(entry.name) || rel === '.ci') && !/package-lock\.json$/.test(child)
      ? [child]
      : [];
  });
}

/** Citations in `text` of files that do not exist: uppercase *.md names, docs/ paths, ../shared, markdown links out of the repo. */
export function foreignCitations(
  file: string,
  text: string,
  exists: (rel: string) => boolean,
  basenames: ReadonlySet<string>,
): string[] {
  const found: string[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    const where = `${file}:${index + 1}`;
    for (const match of line.matchAll(/(?<![\w./-])([A-Z][A-Z0-9_-]*\.md)\b/g))
      if (!basenames.has(match[1] as string)) found.push(`${where}: cites ${match[1]}`);
    for (const match of line.matchAll(/(?<![\w./-])((?:\.\.\/)*docs\/[\w./-]*\w\.mdx?)\b/g)) {
      if (LESSON_DOCS.test(match[1] as string)) continue; // a lesson's own docs/, not the repository's
      const cited = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] as string));
      if (!exists(cited) && !exists((match[1] as string).replace(/^(\.\.\/)+/, '')))
        found.push(`${where}: cites ${match[1]}`);
    }
    if (/(?<![\w.-])(?:\.\.\/)+shared\b/.test(line)) found.push(`${where}: cites ../shared, outside the repository`);
    for (const match of line.matchAll(/\]\(((?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*)/g)) {
      const cited = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] as string));
      if (cited.startsWith('../')) found.push(`${where}: cites ${match[1]}, outside the repository`);
    }
  }
  return found;
}

test('foreignCitations finds files outside the repository and missing docs', () => {
  const exists = (rel: string) => rel === 'docs/protocol.md';
  const names = new Set(['README.md']);
  assert.deepEqual(
    foreignCitations(
      'pipeline/x.ts',
      '// see PROTOCOL.md section 3 and README.md\n// docs/protocol.md, docs/gone.md\n// ../shared/DESIGN.md',
      exists,
      names,
    ),
    [
      'pipeline/x.ts:1: cites PROTOCOL.md',
      'pipeline/x.ts:2: cites docs/gone.md',
      'pipeline/x.ts:3: cites ../shared, outside the repository',
    ],
  );
  assert.deepEqual(
    foreignCitations('docs/a.md', '[x](../docs/protocol.md), [y](../../STYLE.md), lesson docs/notes.md', exists, names),
    ['docs/a.md:1: cites ../../STYLE.md, outside the repository'],
  );
});

test('no doc or comment in the repository cites a file that is not in it', () => {
  const files = repoFiles();
  const all = new Set(files);
  const basenames = new Set(files.map((file) => path.posix.basename(file)));
  const exists = (rel: string) => all.has(rel) || all.has(rel.replace(/\/$/, ''));
  const problems = files
    .filter((file) => file !== 'cli/self-contained.test.ts')
    .flatMap((file) => foreignCitations(file, readFileSync(path.join(REPO_ROOT, file), 'utf8'), exists, basenames));
  assert.deepEqual(
    problems,
    [],
    'cite only files in the repository (e.g. docs/protocol.md), never ../shared or PROTOCOL.md',
  );
});
