// Fuzz: every state-changing command fed hostile input (see fuzz-cases.ts), each in a fresh copy of
// a registered course with a sibling "outside" folder. Every case must end with exit 0 or 2 (never
// 3, a signal or a hang), a refusal prints one `error:` line (+ `hint:` lines) and changes nothing,
// and nothing changes outside .codelabgen/ except the lesson folders `register` creates.
// Deterministic: the fixed cases plus FUZZ_CASES (default 30) argv cases generated from FUZZ_SEED
// (default 1); `npm run test:stress` runs many more.
import assert from 'node:assert/strict';
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { test } from 'node:test';
import { argvCases, escapeCases, fileCases, prng, type FuzzCase } from './fuzz-cases.ts';
import { spawn } from 'node:child_process';
import { CLI, cli, removeDir, tempDir, type CliResult } from './testing.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 1);
const GENERATED = Number(process.env.FUZZ_CASES ?? 30);
const PARALLEL = 3;
/**
 * A hang guard, not a budget: a case takes about 0.1 s of CPU, but at nice 10 beside busy cores four
 * cases took over the 20 s this was. As long as cli()'s (cli/testing.ts).
 */
const CASE_TIMEOUT_MS = 180_000;
// CODELABGEN_TEST_CLI: a private copy of bin/ + dist/, so a rebuild by someone else mid-run cannot break it.
const FUZZ_CLI = process.env.CODELABGEN_TEST_CLI ?? CLI;

/** Runs the CLI with `input` on stdin; SIGKILLs it after CASE_TIMEOUT_MS (reported as a hang). */
function runCli(args: string[], cwd: string, input: string | Buffer | undefined): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '10' };
  delete env.CODELABGEN_COURSE;
  delete env.CODELABGEN_TEST_FAULT;
  const child = spawn(process.execPath, [FUZZ_CLI, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => {}); // the command may exit without reading its stdin (EPIPE)
  child.stdin.end(input);
  const timer = setTimeout(() => child.kill('SIGKILL'), CASE_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => (clearTimeout(timer), resolve({ code, signal, stdout, stderr }))),
  );
}

const CURRICULUM = `title: Fuzz course
modules:
  - id: "1"
    slug: basics
    title: Basics
    lessons:
      - {id: "1.1", slug: intro, title: Intro}
      - {id: "1.2", slug: more, title: More}
`;
const SPEC = 'lesson: "1.2"\ntitle: More\ngoal: Show more.\n';

/** A registered course: 1.1 pending, 1.2 at spec, task t1 running on 1.2. */
function makeBase(dir: string): string {
  const root = path.join(dir, 'course');
  const steps = [
    () => cli(['init', root, '--title', 'Fuzz course']),
    () => (
      writeFileSync(path.join(root, '.codelabgen', 'curriculum.yaml'), CURRICULUM), cli(['register', '--course', root])
    ),
    () => (
      mkdirSync(path.join(root, '.codelabgen', 'lessons', '1.2'), { recursive: true }),
      writeFileSync(path.join(root, '.codelabgen', 'lessons', '1.2', 'spec.yaml'), SPEC),
      cli(['state', 'set', '1.2', 'spec', '--course', root])
    ),
    () => cli(['state', 'task', 'start', '1.2', '--role', 'code-author', '--course', root]),
  ];
  for (const step of steps) {
    const result = step();
    assert.equal(result.code, 0, result.stderr);
  }
  return root;
}

function makeOutside(dir: string): string {
  const outside = path.join(dir, 'outside');
  mkdirSync(path.join(outside, 'dir'), { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'do not touch\n');
  writeFileSync(path.join(outside, 'dir', 'keep.txt'), 'keep\n');
  writeFileSync(
    path.join(outside, 'curriculum.yaml'),
    CURRICULUM.replace('more, title: More', 'more, title: More}\n      - {id: "1.3", slug: third, title: Third'),
  );
  writeFileSync(path.join(outside, 'spec.yaml'), 'lesson: "1.1"\ntitle: Intro\ngoal: Outside.\n');
  return outside;
}

/** Every entry under `dir` (files by hash, folders, symlinks by target), skipping .codelabgen/. */
function tree(dir: string, skipDot = true): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const child = rel === '' ? name : `${rel}/${name}`;
      if (skipDot && name === '.codelabgen') continue;
      const stat = lstatSync(path.join(dir, child));
      if (stat.isSymbolicLink()) entries.set(child, `link ${readlinkSync(path.join(dir, child))}`);
      else if (stat.isDirectory()) {
        entries.set(child, 'dir');
        walk(child);
      } else
        entries.set(
          child,
          createHash('sha256')
            .update(readFileSync(path.join(dir, child)))
            .digest('hex'),
        );
    }
  };
  walk('');
  return entries;
}

function storeBytes(root: string): string {
  const read = (name: string) => {
    try {
      return createHash('sha256')
        .update(readFileSync(path.join(root, '.codelabgen', name)))
        .digest('hex');
    } catch {
      return 'missing';
    }
  };
  return `${read('state.json')} ${read('events.jsonl')}`;
}

/** Folders `register` may create: each registered lesson's folder, its docs/ and its module folder. */
function registerFolders(root: string): Set<string> {
  const allowed = new Set<string>();
  try {
    const state = JSON.parse(readFileSync(path.join(root, '.codelabgen', 'state.json'), 'utf8')) as {
      lessons: Record<string, { dir: string }>;
    };
    for (const lesson of Object.values(state.lessons)) {
      for (let dir = `${lesson.dir}/docs`; dir !== '.' && dir !== ''; dir = path.posix.dirname(dir)) allowed.add(dir);
    }
  } catch {
    // no readable state: nothing may be created
  }
  return allowed;
}

function diff(before: Map<string, string>, after: Map<string, string>): { added: string[]; changed: string[] } {
  const added = [...after.keys()].filter((key) => !before.has(key));
  const changed = [...before.keys()].filter((key) => before.get(key) !== after.get(key));
  return { added, changed };
}

async function runCase(base: string, fuzz: FuzzCase): Promise<string[]> {
  const work = tempDir('codelabgen-fuzz-');
  try {
    const root = path.join(work, 'course');
    cpSync(base, root, { recursive: true, verbatimSymlinks: true });
    const outside = makeOutside(work);
    fuzz.prepare?.(root, outside);
    const before = { course: tree(root), outside: tree(outside, false), work: tree(work), store: storeBytes(root) };
    const result = await runCli(fuzz.args, fuzz.fromParent ? work : root, fuzz.input);
    const problems: string[] = [];
    if (result.signal !== null)
      problems.push(`ended by ${result.signal}${result.signal === 'SIGKILL' ? ' (hang: timeout)' : ''}`);
    else if (result.code !== 0 && result.code !== 2)
      problems.push(`exit ${result.code}: ${result.stderr.slice(0, 600)}`);
    if (result.code === 2 && !/^error: [^\n]+\n(hint: [^\n]*\n)*$/.test(result.stderr))
      problems.push(`refusal stderr is not one error line (+ hints): ${JSON.stringify(result.stderr.slice(0, 400))}`);
    if (result.code === 2 && storeBytes(root) !== before.store)
      problems.push('a refusal changed state.json or events.jsonl');
    const course = diff(before.course, tree(root));
    const allowed = result.code === 0 && fuzz.args[0] === 'register' ? registerFolders(root) : new Set<string>();
    const unexpected = course.added.filter((entry) => !allowed.has(entry));
    if (unexpected.length > 0 || course.changed.length > 0)
      problems.push(
        `changed outside .codelabgen/: added ${unexpected.join(', ')} changed ${course.changed.join(', ')}`,
      );
    const out = diff(before.outside, tree(outside, false));
    if (out.added.length > 0 || out.changed.length > 0)
      problems.push(`changed the outside folder: added ${out.added.join(', ')} changed ${out.changed.join(', ')}`);
    if (fuzz.fromParent) {
      const beside = diff(before.work, tree(work)).added.filter(
        (entry) =>
          !/^(fresh|linked)(\/\.gitignore)?$/.test(entry) &&
          !entry.startsWith('course/') &&
          !entry.startsWith('outside/'),
      );
      if (beside.length > 0) problems.push(`init created ${beside.join(', ')}`);
    }
    return problems.map((problem) => `${fuzz.name} [${fuzz.args.join(' ').slice(0, 120)}]: ${problem}`);
  } finally {
    removeDir(work);
  }
}

test(`fuzz: hostile input to every state-changing command (FUZZ_SEED=${SEED} FUZZ_CASES=${GENERATED})`, {
  timeout: 600_000 + GENERATED * 5_000,
}, async () => {
  console.log(
    `fuzz seed ${SEED}, ${GENERATED} generated cases (replay with FUZZ_SEED=${SEED} FUZZ_CASES=${GENERATED})`,
  );
  const baseDir = tempDir('codelabgen-fuzz-base-');
  try {
    const base = makeBase(baseDir);
    const random = prng(SEED);
    const fixed = [...escapeCases(), ...fileCases()];
    const queue = [...fixed, ...argvCases(random, GENERATED)];
    const failures: string[] = [];
    const lane = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift())
        failures.push(...(await runCase(base, next)));
    };
    await Promise.all(Array.from({ length: PARALLEL }, lane));
    console.log(
      `fuzz seed ${SEED}: ${fixed.length + GENERATED} cases (${fixed.length} fixed file/path cases, ${GENERATED} generated), ${failures.length} failures`,
    );
    for (const failure of failures) console.log(`FAIL ${failure}`);
    assert.deepEqual(failures, [], `reproduce with FUZZ_SEED=${SEED} FUZZ_CASES=${GENERATED}`);
  } finally {
    removeDir(baseDir);
  }
});
