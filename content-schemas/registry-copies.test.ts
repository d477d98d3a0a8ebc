// A registry's list lives in its registry alone (docs/architecture.md, "Registries"): this static scan
// of the sources fails on a copy elsewhere, i.e. two names of one registry as adjacent string literals
// (`['readalong', 'notes']`, `'node' | 'python'`, `z.enum(['docs/notes.md', 'docs/readalong.md'])`) or
// as adjacent keys of one object literal (`{ readalong: ..., notes: ... }`). Where a list merely holds
// two of the names for another concept (the stages), the allow-list below says why.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DOC_KINDS } from './doc-kinds.ts';
import { RUNTIMES } from './runtimes.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Registry {
  name: string;
  /** The registry's own module: the one place its list may be written. */
  home: string;
  names: readonly string[];
  /** A literal as the registry's name it stands for (`docs/notes.mdx` → `notes`). */
  normalize(literal: string): string;
}

const REGISTRIES: Registry[] = [
  {
    name: 'doc kinds',
    home: 'content-schemas/doc-kinds.ts',
    names: DOC_KINDS.map((kind) => kind.name),
    normalize: (literal) => literal.replace(/^docs\//, '').replace(/\.mdx?$/, ''),
  },
  { name: 'runtimes', home: 'content-schemas/runtimes.ts', names: RUNTIMES, normalize: (literal) => literal },
];

/** Files whose hits are not copies of a registry's list, each with why. */
const ALLOWED: Record<string, string> = {
  'pipeline/verify/runtimes/index.ts':
    "RUNTIME_COMMANDS: each runtime's module by name, typed by the registry (a runtime added there fails the typecheck until its module is here)",
  'content-schemas/names.ts': 'STAGES: the protocol stages, two of which the doc kinds name as theirs',
  'content-schemas/validators.generated.ts':
    'generated from the schemas (npm run schemas): the enums of STAGES and RUNTIMES',
  'site/lib/missing-steps.ts': 'STEP_NAMES: the name of each stage (a Record<Stage> the typecheck keeps whole)',
  'cli/protocol-fixture.ts': "a test helper walking a lesson through the stages in order (STAGES' order, pinned)",
  'scripts/record-report-fixture.ts': 'records the report fixture by walking the stages, as protocol-fixture.ts does',
};

/**
 * Source files of the repository (tracked and new ones). Not scanned, as a class: tests (*.test.ts,
 * e2e/*.spec.ts) pin expected pages, briefs and stage walks as literals on purpose (a test reading the
 * registry would follow a wrong entry), and bench/ measures the demo course's two docs against Starlight.
 */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => /^(cli|pipeline|content-schemas|site|scripts|examples)\//.test(file))
    .filter((file) => /\.(ts|mts|mjs|js|astro)$/.test(file) && !/\.(test|spec)\.ts$/.test(file));
}

// A string literal without interpolation: '...', "..." or `...`.
const LITERAL = String.raw`(?:'[^'\\\n]*'|"[^"\\\n]*"|\`[^\`\\$\n]*\`)`;
// Two literals with only a list's separators between them: commas, `|`, whitespace, line breaks.
const ADJACENT_LITERALS = new RegExp(`(${LITERAL})(?=\\s*[,|]\\s*(${LITERAL}))`, 'g');
// Two keys of one object literal, the first one's value without a nested object or call spanning lines.
const KEY = String.raw`(?:[A-Za-z_$][\w$-]*|'[^'\n]*'|"[^"\n]*")`;
const ADJACENT_KEYS = new RegExp(`(?<=[{,]\\s*)(${KEY})\\s*:[^{}\\n,]*,\\s*(${KEY})\\s*:`, 'g');

export interface Copy {
  line: number;
  names: [string, string];
}

/** Where `text` writes two of `registry`'s names next to each other. */
export function listCopies(text: string, registry: Registry): Copy[] {
  const names = new Set(registry.names);
  const unquote = (token: string) => registry.normalize(token.replace(/^['"`]|['"`]$/g, ''));
  const copies: Copy[] = [];
  for (const pattern of [ADJACENT_LITERALS, ADJACENT_KEYS]) {
    for (const match of text.matchAll(pattern)) {
      const [first, second] = [unquote(match[1]!), unquote(match[2]!)];
      const line = text.slice(0, match.index).split('\n').length;
      if (first === second || !names.has(first) || !names.has(second)) continue;
      if (!copies.some((copy) => copy.line === line && copy.names.join() === [first, second].join()))
        copies.push({ line, names: [first, second] });
    }
  }
  return copies.sort((a, b) => a.line - b.line);
}

test('no source file outside a registry writes two of its names as adjacent literals or keys', () => {
  const found: string[] = [];
  for (const file of sourceFiles()) {
    if (ALLOWED[file] !== undefined) continue;
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const registry of REGISTRIES) {
      if (file === registry.home) continue;
      for (const copy of listCopies(text, registry))
        found.push(
          `${file}:${copy.line}: ${copy.names.join(', ')}: a copy of the ${registry.name}; read ${registry.home}`,
        );
    }
  }
  assert.deepEqual(found, []);
});

test('the scan finds the copies it is for, and not a list of other names', () => {
  const [docKinds, runtimes] = REGISTRIES as [Registry, Registry];
  const lines = (text: string, registry: Registry) => listCopies(text, registry).map((copy) => copy.line);
  // The forms the copies had before the registries: an array, paths, a union type, a record, keys.
  assert.deepEqual(lines("const X = ['readalong', 'notes'];", docKinds), [1]);
  assert.deepEqual(lines("for (const doc of ['docs/readalong.md', 'docs/notes.mdx']) {}", docKinds), [1]);
  assert.deepEqual(lines("let t: 'readalong' | 'notes';", docKinds), [1]);
  assert.deepEqual(
    lines("const S = {\n  'docs/readalong.md': 'readalong',\n  'docs/notes.md': 'notes',\n};", docKinds),
    [2],
  );
  assert.deepEqual(lines("return { readalong: read('readalong'), notes: read('notes') };", docKinds), [1]);
  assert.deepEqual(
    lines("const RUNTIMES = [\n  'node',\n  'python',\n  'python-uv',\n  'custom',\n];", runtimes),
    [2, 3, 4],
  );
  assert.deepEqual(lines('z.enum(["node", "python-uv"])', runtimes), [1]);
  // Not copies: one name, names apart, other words, a name twice.
  assert.deepEqual(lines("case 'readalong': return read('notes');", docKinds), []);
  assert.deepEqual(lines("['readalong', 'diagrams', 'notes']", docKinds), []);
  assert.deepEqual(lines("spawn('node', ['--test'])", runtimes), []);
  assert.deepEqual(lines("['node', 'node']", runtimes), []);
});
