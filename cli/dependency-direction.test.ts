// Imports point one way (DESIGN.md): content-schemas ← pipeline ← cli; site reads only
// content-schemas/index.ts and pipeline/read.ts; across folders only the entry files are imported
// (pipeline/site/index.ts is the site commands' own, lazily loaded entry, pipeline/state-commands.ts
// the state commands' narrow one; content-schemas/fast.ts is the zod-free entry the pipeline
// validates through).
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
  cli: { 'content-schemas': ['content-schemas/index.ts'], pipeline: ['pipeline/index.ts', 'pipeline/site/index.ts', 'pipeline/state-commands.ts'] },
  site: { 'content-schemas': ['content-schemas/index.ts'], pipeline: ['pipeline/read.ts'] },
};

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
    .filter((file) => /\.(ts|mjs|astro)$/.test(file) && !file.endsWith('.test.ts') && !TEST_HELPERS.has(file));
}

function relativeImports(file: string): string[] {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
}

test('imports point one way and cross folders only through the entry files', () => {
  const violations: string[] = [];
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(folder)) {
      for (const target of relativeImports(file)) {
        const targetFolder = FOLDERS.find((f) => target.startsWith(`${f}/`));
        if (targetFolder === undefined || targetFolder === folder) continue;
        if (!(ALLOWED[folder][targetFolder] ?? []).includes(target)) violations.push(`${file} imports ${target}`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

test('the check itself sees a violation', () => {
  assert.ok(relativeImports('cli/main.ts').includes('pipeline/index.ts'), 'the dynamic import in cli/main.ts is found');
  assert.equal((ALLOWED.site.pipeline ?? []).includes('pipeline/store/index.ts'), false);
});
