// Imports point one way: content-schemas ← pipeline ← cli; site reads only
// content-schemas/index.ts and pipeline/read/index.ts; across folders only the entry files are imported
// (pipeline/site/index.ts is the site commands' own, lazily loaded entry, pipeline/state-commands.ts
// the state commands' narrow one; content-schemas/fast.ts is the zod-free entry the pipeline
// validates through, content-schemas/errors.ts the exit codes cli/run.ts reads).
// Test files and test helpers may reach inside.
// Inside pipeline/, each room imports only the rooms docs/architecture.md's table allows it.
// And no import circle among the source files (every relative import counts, `import type` and
// `import()` too): a module never needs, however indirectly, the module that needs it.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './testing.ts';

const FOLDERS = ['content-schemas', 'pipeline', 'cli', 'site'] as const;
type Folder = (typeof FOLDERS)[number];
const TEST_HELPERS = new Set([
  'cli/testing.ts',
  'cli/protocol-fixture.ts',
  'cli/mcp-client.ts',
  'cli/fuzz-cases.ts',
  'pipeline/verify/fixtures.ts',
]);

/**
 * What each folder may import from the other folders (repository-relative entry files): read from
 * docs/architecture.md's folders table, so that what the doc says is what this test enforces.
 */
function folderRules(markdown: string): Record<Folder, readonly string[]> {
  const start = markdown.indexOf('<!-- folders:');
  assert.ok(start !== -1, 'docs/architecture.md has no folders table (<!-- folders: ... --> above it)');
  const rules = {} as Record<Folder, readonly string[]>;
  for (const row of markdown.slice(start).split('\n').slice(3)) {
    if (!row.startsWith('|')) break;
    const cells = row.split('|').map((cell) => cell.trim());
    const folder = FOLDERS.find((f) => cells[1] === `\`${f}/\``);
    assert.ok(folder, `docs/architecture.md folders table: a row names no folder: ${row}`);
    const may = cells[2] ?? '';
    rules[folder] = may === '—' ? [] : may.split(',').map((entry) => entry.trim().replace(/^`|`$/g, ''));
  }
  for (const folder of FOLDERS)
    assert.ok(rules[folder], `docs/architecture.md folders table has no row for ${folder}/`);
  return rules;
}
const ALLOWED = folderRules(readFileSync(path.join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8'));

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
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(?\s*)['"](\.{1,2}\/[^'"?]+)(?:\?[^'"]*)?['"]/g)].map(
    (match) => match[1] ?? '',
  );
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
      if (!ALLOWED[folder].includes(target)) violations.push(`${file} imports ${target}`);
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
    [
      'site/lib/load.ts',
      "import { withLock } from '../../pipeline/store/lock.ts';\nimport { readCourse } from '../../pipeline/read/index.ts';",
    ],
    ['site/components/Card.astro', "---\nimport { apply } from '../../pipeline/index.ts';\n---"],
    [
      'cli/commands.ts',
      "const store = await import('../pipeline/store/index.ts');\nimport { parse } from '../content-schemas/index.ts';",
    ],
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

/** The folders whose non-test files the circle check reads (tools/ holds only its own package). */
const CIRCLE_FOLDERS = [...FOLDERS, 'bench', 'scripts', 'e2e'] as const;

/** Every non-test source file of CIRCLE_FOLDERS (test helpers included), with its text. */
function circleSources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const folder of CIRCLE_FOLDERS) {
    const files = readdirSync(path.join(REPO_ROOT, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .filter(
        (file) =>
          /\.(ts|mts|mjs|cjs|js|astro)$/.test(file) &&
          !/\.(test|spec|stress)\.ts$/.test(file) &&
          !file.includes('/node_modules/'),
      );
    for (const file of files) sources.set(file, readFileSync(path.join(REPO_ROOT, file), 'utf8'));
  }
  return sources;
}

/**
 * Every import circle: one line per strongly connected group of files, the shortest circle through
 * its first file (`a.ts → b.ts → a.ts`), then the group's other files when the circle misses some.
 */
function importCircles(sources: ReadonlyMap<string, string>): string[] {
  const graph = new Map(
    [...sources].map(([file, text]) => [
      file,
      [...new Set(relativeImports(file, text))].filter((target) => sources.has(target)).sort(),
    ]),
  );
  // Tarjan's strongly connected components.
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const target of graph.get(file)!) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || graph.get(file)!.includes(file)) groups.push(group.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!order.has(file)) visit(file);
  return groups
    .map((group) => {
      const start = group[0]!;
      const cameFrom = new Map<string, string>();
      const queue = [start];
      for (let i = 0; i < queue.length && !cameFrom.has(start); i++) {
        for (const target of graph.get(queue[i]!)!.filter((t) => group.includes(t))) {
          if (cameFrom.has(target)) continue;
          cameFrom.set(target, queue[i]!);
          queue.push(target);
        }
      }
      const circle: string[] = [];
      for (let file = cameFrom.get(start)!; file !== start; file = cameFrom.get(file)!) circle.unshift(file);
      circle.unshift(start);
      const rest = group.filter((file) => !circle.includes(file));
      return `${[...circle, start].join(' → ')}${rest.length > 0 ? ` (and in the same circle: ${rest.join(', ')})` : ''}`;
    })
    .sort();
}

test('no import circle among the source files', () => {
  assert.deepEqual(importCircles(circleSources()), []);
});

test('the circle check finds circles of two and three files through every kind of import, and nothing else', () => {
  const synthetic = new Map([
    // two files: a static import one way, `import type` back
    ['pipeline/a.ts', "import { b } from './b.ts';"],
    ['pipeline/b.ts', "import type { A } from './a.ts';"],
    // three files across folders, one edge a dynamic import()
    ['content-schemas/x.ts', "export * from './y.ts';"],
    ['content-schemas/y.ts', "import { z } from '../pipeline/store/z.ts';"],
    ['pipeline/store/z.ts', "const x = await import('../../content-schemas/x.ts');"],
    // no circle: a diamond, a file named only in a comment, an import of a missing file
    ['cli/top.ts', "import { l } from './left.ts';\nimport { r } from './right.ts';"],
    ['cli/left.ts', "import { d } from './down.ts';"],
    ['cli/right.ts', "import { d } from './down.ts';\nimport { gone } from './gone.ts';"],
    ['cli/down.ts', '// see top.ts\nexport const d = 1;'],
  ]);
  assert.deepEqual(importCircles(synthetic), [
    'content-schemas/x.ts → content-schemas/y.ts → pipeline/store/z.ts → content-schemas/x.ts',
    'pipeline/a.ts → pipeline/b.ts → pipeline/a.ts',
  ]);
});

// Inside pipeline/, each room (a folder) may import the rooms its row of docs/architecture.md's
// rooms table names, and nothing else; the entry files at pipeline/'s root may import any room.
// The table is read from the doc itself, so what the doc draws is what this test enforces.
const PIPELINE_ENTRIES = new Set(['index.ts', 'state-commands.ts']);

/** docs/architecture.md's rooms table: room → the rooms (or root entry files) it may import. */
function roomRules(markdown: string): Map<string, Set<string>> {
  const start = markdown.indexOf('<!-- rooms:');
  assert.ok(start !== -1, 'docs/architecture.md has no rooms table (<!-- rooms: ... --> above it)');
  const rows = markdown.slice(start).split('\n').slice(3);
  const rules = new Map<string, Set<string>>();
  for (const row of rows) {
    if (!row.startsWith('|')) break;
    const cells = row.split('|').map((cell) => cell.trim());
    const room = /^`pipeline\/([\w-]+)\/`$/.exec(cells[1] ?? '')?.[1];
    assert.ok(room, `docs/architecture.md rooms table: a row names no room: ${row}`);
    const may = cells[3] ?? '';
    rules.set(room, new Set(may === '—' ? [] : may.split(',').map((name) => name.trim())));
  }
  return rules;
}

/** `pipeline/verify/runs.ts` → `verify`; a file at pipeline/'s root → its own name. */
function roomOf(file: string): string {
  return file.split('/')[1]!;
}

/** Imports between rooms that the rules do not allow, rooms the rules do not know, and allowances no import uses. */
function roomViolations(
  sources: ReadonlyMap<string, string>,
  rules: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const violations: string[] = [];
  const used = new Set<string>();
  for (const [file, text] of sources) {
    if (!file.startsWith('pipeline/')) continue;
    const room = roomOf(file);
    if (PIPELINE_ENTRIES.has(room)) continue;
    const allowed = rules.get(room);
    if (allowed === undefined) {
      violations.push(`${file}: pipeline/${room}/ is not a room of docs/architecture.md's table`);
      continue;
    }
    for (const target of relativeImports(file, text)) {
      if (!target.startsWith('pipeline/')) continue;
      const to = roomOf(target);
      if (to === room) continue;
      if (allowed.has(to)) used.add(`${room} → ${to}`);
      else
        violations.push(
          `${file} imports ${target}: pipeline/${room}/ may import ${[...allowed].join(', ') || 'no other room'}`,
        );
    }
  }
  for (const [room, allowed] of rules)
    for (const to of allowed)
      if (!used.has(`${room} → ${to}`))
        violations.push(
          `docs/architecture.md allows pipeline/${room}/ to import ${to}, which it does not: drop it from the table`,
        );
  return violations;
}

test('each room of pipeline/ imports only what docs/architecture.md allows it, and the table allows no more', () => {
  const rules = roomRules(readFileSync(path.join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8'));
  assert.deepEqual(roomViolations(repoSources(), rules), []);
  // Each room's README.md says what it may import, in the table's words.
  for (const [room, allowed] of rules) {
    const readme = readFileSync(path.join(REPO_ROOT, 'pipeline', room, 'README.md'), 'utf8');
    assert.equal(
      /^May import: (.*)$/m.exec(readme)?.[1],
      [...allowed].join(', ') || '—',
      `pipeline/${room}/README.md disagrees with docs/architecture.md`,
    );
  }
});

test('the rooms check reports an import the table does not allow, an unknown room and an unused allowance', () => {
  const rules = roomRules(
    '<!-- rooms: -->\n| room | what | may import |\n|---|---|---|\n| `pipeline/course/` | x | — |\n| ' +
      '`pipeline/store/` | x | course |\n| `pipeline/report/` | x | store, course |\n\nafter',
  );
  const synthetic = new Map([
    ['pipeline/course/course.ts', "import { commit } from '../store/commit.ts';"],
    [
      'pipeline/store/log.ts',
      "import { ARTIFACTS } from '../course/course.ts';\nimport type { Event } from './event.ts';",
    ],
    ['pipeline/report/report.ts', "import { scanLog } from '../store/log.ts';"],
    ['pipeline/mystery/x.ts', "import { scanLog } from '../store/log.ts';"],
    ['pipeline/index.ts', "export * from './mystery/x.ts';"],
  ]);
  assert.deepEqual(roomViolations(synthetic, rules), [
    'pipeline/course/course.ts imports pipeline/store/commit.ts: pipeline/course/ may import no other room',
    "pipeline/mystery/x.ts: pipeline/mystery/ is not a room of docs/architecture.md's table",
    'docs/architecture.md allows pipeline/report/ to import course, which it does not: drop it from the table',
  ]);
});
