// Imports point one way: content-schemas ← pipeline ← cli; site reads only
// content-schemas/index.ts and pipeline/read.ts; across folders only the entry files are imported
// (pipeline/site/index.ts is the site commands' own, lazily loaded entry, pipeline/state-commands.ts
// the state commands' narrow one; content-schemas/fast.ts is the zod-free entry the pipeline
// validates through, content-schemas/errors.ts the exit codes cli/run.ts reads).
// Test files and test helpers may reach inside.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './testing.ts';

const FOLDERS = ['content-schemas', 'pipeline', 'cli', 'site'] as const;
type Folder = (typeof FOLDERS)[number];
const TEST_HELPERS = new Set(['cli/testing.ts', 'cli/protocol-fixture.ts', 'cli/fuzz-cases.ts', 'pipeline/verify/fixtures.ts']);

/** What each folder may import from each other folder (course-root-relative paths). */
const ALLOWED: Record<Folder, Partial<Record<Folder, readonly string[]>>> = {
  'content-schemas': {},
  pipeline: { 'content-schemas': ['content-schemas/index.ts', 'content-schemas/fast.ts'] },
  cli: { 'content-schemas': ['content-schemas/index.ts', 'content-schemas/errors.ts'], pipeline: ['pipeline/index.ts', 'pipeline/site/index.ts', 'pipeline/state-commands.ts'] },
  site: { 'content-schemas': ['content-schemas/index.ts'], pipeline: ['pipeline/read.ts'] },
};

/** Every source file of the checked folders, with its text. */
function repoSources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const folder of FOLDERS) {
    const files = readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
      .filter((file) => /\.(ts|mjs|astro)$/.test(file) && !file.endsWith('.test.ts') && !TEST_HELPERS.has(file));
    for (const file of files) sources.set(file, readFileSync(path.join(REPO_ROOT, file), 'utf8'));
  }
  return sources;
}

function relativeImports(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
}

/** "file imports target" for every import that crosses folders other than through an allowed entry. */
function importViolations(sources: ReadonlyMap<string, string>): string[] {
  const violations: string[] = [];
  for (const [file, text] of sources) {
    const folder = FOLDERS.find((f) => file.startsWith(`${f}/`));
    if (folder === undefined) continue;
    for (const target of relativeImports(file, text)) {
      const targetFolder = FOLDERS.find((f) => target.startsWith(`${f}/`));
      if (targetFolder === undefined || targetFolder === folder) continue;
      if (!(ALLOWED[folder][targetFolder] ?? []).includes(target)) violations.push(`${file} imports ${target}`);
    }
  }
  return violations;
}

test('imports point one way and cross folders only through the entry files', () => {
  assert.deepEqual(importViolations(repoSources()), []);
});

test('the check reports each kind of violation and lets the entry files through', () => {
  const synthetic = new Map([
    ['pipeline/store/lock.ts', "import { main } from '../../cli/main.ts';"],
    ['site/lib/load.ts', "import { withLock } from '../../pipeline/store/lock.ts';\nimport { readCourse } from '../../pipeline/read.ts';"],
    ['site/components/Card.astro', "---\nimport { apply } from '../../pipeline/index.ts';\n---"],
    ['cli/commands.ts', "const store = await import('../pipeline/store/index.ts');\nimport { parse } from '../content-schemas/index.ts';"],
    ['content-schemas/index.ts', "export * from '../pipeline/index.ts';"],
    ['site/lib/side-effect.ts', "import '../../pipeline/store/index.ts';"],
    ['cli/main.ts', "import { run } from '../pipeline/index.ts';\nimport { build } from '../pipeline/site/index.ts';"],
  ]);
  assert.deepEqual(importViolations(synthetic), [
    'pipeline/store/lock.ts imports cli/main.ts',
    'site/lib/load.ts imports pipeline/store/lock.ts',
    'site/components/Card.astro imports pipeline/index.ts',
    'cli/commands.ts imports pipeline/store/index.ts',
    'content-schemas/index.ts imports pipeline/index.ts',
    'site/lib/side-effect.ts imports pipeline/store/index.ts',
  ]);
});
