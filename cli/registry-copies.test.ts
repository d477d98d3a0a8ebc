// One registry per concept (docs/architecture.md, "Registries"): a static scan fails when a copy of a
// registry's list appears outside its home: two or more of its names as adjacent string literals (the
// items of an array, the members of a union), or three or more in one string joined as a list
// ("recon, sources or topics", "init → recon → sources"). Read the registry instead. Tests and
// fixtures that pin a list on purpose are allowed below, each with its reason.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BRIEFED_PHASES, PHASES, TASK_PHASES, WORKER_ROLES } from '../content-schemas/names.ts';
import { LAUNCHER_LIST } from '../scripts/gen-docs.ts';
import { STATE_COMMANDS } from './commands-state.ts';
import { withoutComments } from './source-scan.ts';
import { REPO_ROOT } from './testing.ts';

interface Registry {
  concept: string;
  /** The file that holds the list. */
  home: string;
  names: readonly string[];
  /** How many of the names, adjacent, make a copy (more for short common words). */
  adjacent: number;
}

/** The last word of each state command under `prefix` ("state task start" → "start"). */
function wordsUnder(prefix: string): string[] {
  return STATE_COMMANDS.filter((spec) => spec.name.split(' ').length === prefix.split(' ').length + 1)
    .filter((spec) => spec.name.startsWith(`${prefix} `))
    .map((spec) => spec.name.slice(prefix.length + 1));
}

export const REGISTRIES: readonly Registry[] = [
  {
    concept: 'state commands',
    home: 'cli/commands-state.ts',
    names: STATE_COMMANDS.map((spec) => spec.name),
    adjacent: 2,
  },
  // The words a launcher or a test would list ('show', 'next', 'log'): common words, so three make a copy.
  { concept: 'state command words', home: 'cli/commands-state.ts', names: wordsUnder('state'), adjacent: 3 },
  { concept: 'state task command words', home: 'cli/commands-state.ts', names: wordsUnder('state task'), adjacent: 3 },
  { concept: 'phases', home: 'content-schemas/names.ts', names: PHASES, adjacent: 2 },
  {
    concept: 'worker roles',
    home: 'content-schemas/names.ts',
    names: WORKER_ROLES.map((entry) => entry.role),
    adjacent: 2,
  },
];

const GENERATED = 'generated from the registry and checked for drift';
const TEST_TABLE = 'a test that pins the names it drives on purpose (a walk through the phases, a table of cases)';

/** Files that may hold a copy of a registry's list, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  'content-schemas/validators.generated.ts': `the phase enum, ${GENERATED} (npm run schemas)`,
  'cli/registry-copies.test.ts': 'this scan: the planted copies it must find',
  // Production files whose names are another concept's, or a hint that names a few commands.
  'content-schemas/report.ts': "STORY_LABELS, the report's story labels (rework, block, stale): not the commands",
  'pipeline/site/dev-watch.ts': "the site's content loaders (lessons, sources): not the phases",
  'pipeline/protocol/tasks.ts':
    'a refusal\'s hint naming the three commands that finish a task ("state task done|fail|reset")',
  // Tests and benchmarks that pin names on purpose.
  'bench/bench.stress.ts': 'the commands it measures',
  'cli/brief-mcp.test.ts': 'the prompts it expects, one per role: pinned so that a role lost from the registry fails',
  'cli/brief.test.ts': 'the briefs it checks, one per role: pinned so that a role lost from the registry fails',
  'cli/manners.test.ts': 'the exact help and completion text of the state task group',
  'cli/mcp-walk.test.ts': `the phases its walk through the protocol expects, in order: ${TEST_TABLE}`,
  'cli/mcp.test.ts': 'the prompts it expects, one per role: pinned so that a role lost from the registry fails',
  'cli/tasks-next.test.ts': TEST_TABLE,
  'content-schemas/validators.test.ts': TEST_TABLE,
  'e2e/dev.spec.ts': 'the commands its scenario runs',
  'pipeline/protocol/orchestration.test.ts': TEST_TABLE,
  'pipeline/protocol/protocol.test.ts': 'the task phases pinned against the registry: a phase lost from it fails',
  'pipeline/protocol/stages.test.ts': TEST_TABLE,
  'pipeline/report/fixture.test.ts': TEST_TABLE,
  'pipeline/store/crash.test.ts': 'the commands its crash cases run',
};

const SCANNED_FOLDERS = ['bin', 'bench', 'cli', 'content-schemas', 'e2e', 'pipeline', 'scripts', 'site'];
const SKIPPED = /(^|\/)(node_modules|fixtures|test-fixtures|bare-astro)(\/|$)/;

/** Generated lists, cut out of their files before the scan, each checked for drift where it is made. */
const GENERATED_LISTS: Readonly<Record<string, RegExp>> = {
  // STATE_BUNDLE_COMMANDS: npm run docs writes it, cli/docs.test.ts fails on drift.
  'bin/codelabgen.cjs': LAUNCHER_LIST,
};

/** Every source file of the scanned folders (repository-relative) and its text without comments. */
function sources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const folder of SCANNED_FOLDERS) {
    const files = readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.split(path.sep).join('/')}`)
      .filter((file) => /\.(ts|mts|mjs|cjs|js|astro)$/.test(file) && !SKIPPED.test(file));
    for (const file of files) {
      const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      found.set(file, withoutComments(GENERATED_LISTS[file] ? text.replace(GENERATED_LISTS[file], '') : text));
    }
  }
  return found;
}

/** String literals in order: quoted, and templates (whose value is no name when they interpolate). */
const LITERAL = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
/** What may stand between two adjacent literals: an array's comma, a union's bar. */
const BETWEEN = /^\s*[,|]\s*$/;

function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The copies of `registry` in `text`: each run of adjacent literals or joined list, as its names. */
export function copiesIn(text: string, registry: Registry): string[][] {
  const names = new Set(registry.names);
  const copies: string[][] = [];
  let run: string[] = [];
  let end = -1;
  const close = () => {
    const named = [...new Set(run.filter((value) => names.has(value)))];
    if (named.length >= registry.adjacent) copies.push(named);
    run = [];
  };
  const alternatives = [...registry.names]
    .sort((a, b) => b.length - a.length)
    .map(escaped)
    .join('|');
  const name = `(?<![\\w-])(?:${alternatives})(?![\\w-])`;
  const joined = new RegExp(`${name}(?:\\s*(?:,|→|\\||,? or|,? and)\\s*${name}){2,}`, 'g');
  for (const match of text.matchAll(LITERAL)) {
    const value = match[1] ?? match[2] ?? match[3] ?? '';
    if (end >= 0 && !BETWEEN.test(text.slice(end, match.index))) close();
    run.push(value);
    end = match.index + match[0].length;
    for (const list of value.matchAll(joined)) {
      const listed = [...new Set(list[0].match(new RegExp(name, 'g')) ?? [])];
      if (listed.length >= 3) copies.push(listed);
    }
  }
  close();
  return copies;
}

/** Each file outside a registry's home that copies its list: "file: concept [names]". */
function copiesOutsideHomes(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [file, text] of files)
    for (const registry of REGISTRIES) {
      if (file === registry.home) continue;
      for (const copy of copiesIn(text, registry))
        found.set(file, [...(found.get(file) ?? []), `${registry.concept} [${copy.join(', ')}]`]);
    }
  return found;
}

test('no file but its registry lists the state commands, phases or worker roles', () => {
  const found = copiesOutsideHomes(sources());
  const unlisted = [...found].filter(([file]) => ALLOWED[file] === undefined);
  assert.deepEqual(
    unlisted.map(([file, copies]) => `${file}: ${copies.join('; ')}`),
    [],
    'a copy of a registry list: read the registry instead (or, for a test that pins names on purpose, allow it here with the reason)',
  );
  const stale = Object.keys(ALLOWED).filter((file) => !found.has(file));
  assert.deepEqual(stale, [], 'allowed files that hold no copy any more: drop them from ALLOWED');
});

const ROLE_NAMES = WORKER_ROLES.map((entry) => entry.role);

/** The lists the docs may show, for the reader, of each registry: the whole, or one of its named parts. */
const DOCUMENTED: readonly { concept: string; names: readonly string[]; lists: readonly (readonly string[])[] }[] = [
  { concept: 'phases', names: PHASES, lists: [PHASES, TASK_PHASES, BRIEFED_PHASES] },
  {
    concept: 'worker roles',
    names: ROLE_NAMES,
    lists: [
      ROLE_NAMES,
      WORKER_ROLES.flatMap((entry) => ('stage' in entry ? [entry.role] : [])),
      WORKER_ROLES.flatMap((entry) => ('phase' in entry ? [entry.role] : [])),
    ],
  },
];

/** Lists of three or more of `names` in markdown (`a`, `b` and `c`; a → b → c), as the names they list. */
export function markdownLists(text: string, names: readonly string[]): string[][] {
  const alternatives = [...names]
    .sort((a, b) => b.length - a.length)
    .map(escaped)
    .join('|');
  const name = `\`?(?<![\\w-])(?:${alternatives})(?![\\w-])\`?`;
  const joined = new RegExp(`${name}(?:\\s*(?:,|→|,? or|,? and)\\s*${name}){2,}`, 'g');
  return [...text.matchAll(joined)].map(
    (list) => list[0].match(new RegExp(`(?:${alternatives})(?![\\w-])`, 'g')) ?? [],
  );
}

test("the docs list the registry's phases and worker roles: a list of three or more is the whole or a named part", () => {
  const docs = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).map((file) => `docs/${file}`)].filter(
    (file) => file.endsWith('.md'),
  );
  const wrong: string[] = [];
  let seen = 0;
  for (const file of docs) {
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const { concept, names, lists } of DOCUMENTED)
      for (const listed of markdownLists(text, names)) {
        seen += 1;
        if (!lists.some((list) => list.join() === listed.join()))
          wrong.push(`${file}: ${concept} [${listed.join(', ')}]`);
      }
  }
  assert.ok(seen >= 4, `the docs' lists were found: ${seen}`);
  assert.deepEqual(wrong, [], "a doc lists phases or roles that are not the registry's: update the doc");
});

test('the scan finds a planted copy: an array, a union, a joined list; names apart are none', () => {
  const [commands, , , phases, roles] = REGISTRIES;
  const planted = `const WORDS = ['state show', 'state next'];\ntype R = 'code-author' | 'code-fixer';`;
  assert.deepEqual(copiesIn(planted, commands!), [['state show', 'state next']]);
  assert.deepEqual(copiesIn(planted, roles!), [['code-author', 'code-fixer']]);
  assert.deepEqual(copiesIn("help: 'recon, sources, topics or curriculum'", phases!), [
    ['recon', 'sources', 'topics', 'curriculum'],
  ]);
  assert.deepEqual(copiesIn("f('recon'); g('sources');\nconst p = { phase: 'topics' };", phases!), []);
  assert.deepEqual(copiesIn("'the sources of the topics'", phases!), []);
});
