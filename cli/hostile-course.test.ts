// The hostile-course fuzzer (issue 34): seeded course trees with things planted in them
// (cli/hostile-trees.ts), and every front door over them: the CLI commands a user or an agent runs,
// the MCP server (cli/hostile-mcp.ts) and `site dev` (cli/hostile-site-dev.ts). For each: an end in
// {0, 1, 2} or an allowed refusal (never exit 3, -32603, a crash, a signal or a hang past its
// deadline), no output or answer holding the canary of the folder beside the course or /etc/passwd,
// nothing changed or written outside the course, no module of the course run; after them, nothing
// published (report, site) that holds the canary or runs script. HOSTILE_SEED (default 1) and
// HOSTILE_TREES (default 3; `npm run test:stress` 30) choose the trees, HOSTILE_SITE_DEV `site dev`'s
// (first: the first tree, all: every tree, as in test:stress); a failure prints the seed, the tree
// and its plants, so it can be replayed alone (HOSTILE_SEED=S HOSTILE_ONLY=N). docs/security.md.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { prng } from './fuzz-cases.ts';
import { CANARY, outsideContent, PASSWD_LINE, PLANTS, PUBLISHED_SCRIPT, PWNED } from './hostile-trees.ts';
import { courseWithLessons, LESSON_DIRS, write } from './protocol-fixture.ts';
import { mcpProblems } from './hostile-mcp.ts';
import { siteDevProblems } from './hostile-site-dev.ts';
import { CLI, removeDir, tempDir } from './testing.ts';

const SEED = Number(process.env.HOSTILE_SEED ?? 1);
const TREES = Number(process.env.HOSTILE_TREES ?? 3);
const ONLY = process.env.HOSTILE_ONLY === undefined ? null : Number(process.env.HOSTILE_ONLY);
/** `site dev` on the first tree of a run (`first`, in `npm test`) or on every tree (`all`, `npm run test:stress`). */
const SITE_DEV = process.env.HOSTILE_SITE_DEV ?? 'first';
if (SITE_DEV !== 'first' && SITE_DEV !== 'all')
  throw new Error(`HOSTILE_SITE_DEV: expected first or all, got ${SITE_DEV}`);
const COMMAND_DEADLINE_MS = 90_000;
const SITE_DEADLINE_MS = 600_000;

/** Every command a tree is run through, in order (each sees what the ones before it left). */
const COMMANDS: string[][] = [
  ['check'],
  ['state', 'show'],
  ['state', 'next', '--json'],
  ['state', 'set', '1.2', 'readalong'],
  ['state', 'set', '1.2', 'notes'],
  ['report'],
  ['verify', '1.2'],
  ['register'],
];
/** The lesson pages `site dev` is asked for, whether or not its index links them. */
const LESSON_PAGES = Object.values(LESSON_DIRS).map((dir) => `/lessons/${path.basename(dir)}/`);
/** The first tree of a run is also built into a site (a build takes a minute). */
const SITE_BUILD = ['site', 'build', '--drafts', '--out', 'site-out'];

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

function run(args: string[], cwd: string, deadlineMs: number): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '10' };
  delete env.CODELABGEN_COURSE;
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    }),
  );
}

/** Every entry under `dir` by hash (files), target (links) or kind, without following links. */
function tree(dir: string): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(path.join(dir, rel));
    } catch {
      return;
    }
    for (const name of names) {
      const child = rel === '' ? name : `${rel}/${name}`;
      const stat = lstatSync(path.join(dir, child));
      if (stat.isSymbolicLink()) entries.set(child, `link ${readlinkSync(path.join(dir, child))}`);
      else if (stat.isDirectory()) {
        entries.set(child, 'dir');
        walk(child);
      } else if (stat.isFile() && stat.size < 1 << 20)
        entries.set(
          child,
          createHash('sha256')
            .update(readFileSync(path.join(dir, child)))
            .digest('hex'),
        );
      else entries.set(child, `${stat.isFile() ? 'file' : 'special'} ${stat.size}`);
    }
  };
  walk('');
  return entries;
}

/** Files under `dir` (regular, under 8 MiB, links not followed) whose bytes hold `needle`. */
function filesHolding(dir: string, needle: string | RegExp): string[] {
  const found: string[] = [];
  for (const [rel, kind] of tree(dir)) {
    if (kind === 'dir' || kind.startsWith('link ') || kind.startsWith('special')) continue;
    const file = path.join(dir, rel);
    if (lstatSync(file).size > 8 << 20) continue;
    const text = readFileSync(file, 'latin1');
    if (typeof needle === 'string' ? text.includes(needle) : needle.test(text)) found.push(rel);
  }
  return found;
}

let base: string;
before(() => {
  // A registered course: 1.1 verified, 1.2 at code with its code (the plants go into 1.2's folder).
  base = courseWithLessons({ '1.1': 'verified', '1.2': 'code' }, { register: true });
  write(base, `${LESSON_DIRS['1.2']}/docs/readalong.md`, '# Read along\n\n```js file=main.mjs\n```\n');
  write(base, `${LESSON_DIRS['1.2']}/docs/notes.md`, '# Notes\n\nPlain notes.\n');
});
after(() => removeDir(path.dirname(base)));

function makeTree(index: number): { work: string; root: string; outside: string; plants: string[] } {
  const random = prng(SEED * 1000 + index);
  const work = tempDir('codelabgen-hostile-');
  const root = path.join(work, 'course');
  cpSync(base, root, { recursive: true, verbatimSymlinks: true });
  const outside = path.join(work, 'outside');
  mkdirSync(path.join(outside, 'dir'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), `${CANARY}\n`);
  writeFileSync(path.join(outside, 'flow.mmd'), `flowchart LR\n  A["${CANARY}"] --> B\n`);
  writeFileSync(path.join(outside, 'dir', 'notes.md'), `# ${CANARY}\n`);
  const count = 2 + Math.floor(random() * 4);
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(random() * PLANTS.length));
  const plants: string[] = [];
  const lesson = path.join(root, LESSON_DIRS['1.2']!);
  const last = (at: number) => (PLANTS[at]!.last === true ? 1 : 0);
  for (const at of [...chosen].sort((a, b) => last(a) - last(b) || a - b)) {
    const plant = PLANTS[at]!;
    plant.plant(root, outside, lesson);
    plants.push(plant.name);
  }
  return { work, root, outside, plants };
}

/** Runs each CLI command of a tree (and `site build` on the first); returns the problems. */
async function cliProblems(root: string, outside: string, withSite: boolean): Promise<string[]> {
  const problems: string[] = [];
  for (const args of withSite ? [...COMMANDS, SITE_BUILD] : COMMANDS) {
    const isSite = args[0] === 'site';
    const outcome = await run(args, root, isSite ? SITE_DEADLINE_MS : COMMAND_DEADLINE_MS);
    const name = `codelabgen ${args.join(' ')}`;
    if (outcome.signal !== null)
      problems.push(
        `${name}: ended by ${outcome.signal}${outcome.signal === 'SIGKILL' ? ' (a hang: past its deadline)' : ''}`,
      );
    else if (![0, 1, 2].includes(outcome.code ?? -1))
      problems.push(`${name}: exit ${outcome.code}\n${outcome.output.slice(-1500)}`);
    for (const leaked of outsideContent(outcome.output)) problems.push(`${name}: printed ${leaked}`);
    if (existsSync(path.join(outside, PWNED))) problems.push(`${name}: ran a module of the course (${PWNED} written)`);
  }
  return problems;
}

const besideCourse = (work: string) =>
  [...tree(work).keys()].filter((rel) => rel !== 'course' && !rel.startsWith('course/'));

/**
 * A watch on the folders around the course: each call names what the part of the run since the last
 * call changed outside the course, wrote beside it, or ran (PWNED written).
 */
function outsideWatch(work: string, outside: string): (part: string) => string[] {
  let outsideBefore = tree(outside);
  let besideBefore = besideCourse(work);
  let ran = false;
  return (part) => {
    const problems: string[] = [];
    const now = tree(outside);
    const changed = [...new Set([...outsideBefore.keys(), ...now.keys()])].filter(
      (rel) => outsideBefore.get(rel) !== now.get(rel),
    );
    if (changed.length > 0) problems.push(`${part}: changed outside the course: ${changed.join(', ')}`);
    const beside = besideCourse(work);
    const written = beside.filter((rel) => !besideBefore.includes(rel));
    if (written.length > 0) problems.push(`${part}: written beside the course: ${written.join(', ')}`);
    if (!ran && existsSync(path.join(outside, PWNED))) {
      ran = true;
      problems.push(`${part}: ran a module of the course (${PWNED} written)`);
    }
    outsideBefore = now;
    besideBefore = beside;
    return problems;
  };
}

/**
 * A watch on the course outside `.codelabgen/` (the store, which MCP's state tools write): each call
 * names what the part of the run since the last call changed there (lesson files, docs, the site).
 */
function courseWatch(root: string): (part: string) => string[] {
  const files = () =>
    new Map([...tree(root)].filter(([rel]) => rel !== '.codelabgen' && !rel.startsWith('.codelabgen/')));
  let before = files();
  return (part) => {
    const now = files();
    const changed = [...new Set([...before.keys(), ...now.keys()])].filter((rel) => before.get(rel) !== now.get(rel));
    before = now;
    return changed.length === 0 ? [] : [`${part}: changed in the course outside .codelabgen/: ${changed.join(', ')}`];
  };
}

const indexes = ONLY === null ? Array.from({ length: TREES }, (_, i) => i) : [ONLY];
for (const index of indexes) {
  const first = index === indexes[0];
  const withDev = SITE_DEV === 'all' || (SITE_DEV === 'first' && first);
  test(`hostile tree ${index} (seed ${SEED}): ${withDev ? 'the CLI, MCP and site dev' : 'the CLI and MCP'} end in time, and nothing leaks or runs`, {
    timeout: 3_600_000,
  }, async (t) => {
    const { work, root, outside, plants } = makeTree(index);
    t.after(() => removeDir(work));
    const where = `seed ${SEED}, tree ${index} (replay: HOSTILE_SEED=${SEED} HOSTILE_ONLY=${index}); plants: ${plants.join('; ')}`;
    const watch = outsideWatch(work, outside);
    const problems = await cliProblems(root, outside, first);
    problems.push(...watch('the CLI'));
    const inCourse = courseWatch(root);
    problems.push(...(await mcpProblems(root, outside, prng(SEED * 1000 + index + 500))));
    problems.push(...watch('MCP'), ...inCourse('MCP'));
    if (withDev) {
      const random = prng(SEED * 1000 + index + 700);
      problems.push(...(await siteDevProblems(root, outside, LESSON_PAGES, random, (stop) => t.after(stop))));
      problems.push(...watch('site dev'), ...inCourse('site dev'));
    }
    const published = [path.join(root, '.codelabgen'), path.join(root, 'site-out')];
    for (const dir of published) {
      const leaked = [...filesHolding(dir, CANARY), ...filesHolding(dir, PASSWD_LINE)];
      if (leaked.length > 0)
        problems.push(`${path.basename(dir)} holds the canary or /etc/passwd: ${[...new Set(leaked)].join(', ')}`);
    }
    const scripted = filesHolding(path.join(root, 'site-out'), PUBLISHED_SCRIPT);
    if (scripted.length > 0) problems.push(`the site publishes script from the course: ${scripted.join(', ')}`);
    assert.deepEqual([...new Set(problems)], [], where);
  });
}
