// One lesson's verification: resolve its folder and command, hash its code, run its tests, write
// the run-result; with --update-state, commit the verdict (verified, or a fix attempt used).
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Budgets, Config, RunResult, State } from '../../content-schemas/index.ts';
import { hashLessonCode } from '../artifacts/code-hash.ts';
import { ARTIFACTS, abs, lessonFolderPath, type Course } from '../course/course.ts';
import { readCurriculum } from '../artifacts/curriculum.ts';
import { getOwn } from '../state/keyed.ts';
import { errorCode, refuse, RefusalError } from '../course/errors.ts';
import { requireLesson } from '../protocol/lessons.ts';
import { decideVerdict } from '../protocol/verdict.ts';
import { writeRunResult } from './runs.ts';
import { commit, makeCourseFolder, type Committed } from '../store/index.ts';
import { failureCause, failureEvidence } from './failure-cause.ts';
import { runTests, SandboxError, SpawnError, type RunOutcome } from './run-tests.ts';
import {
  loadLessonSpec,
  resolveTestCommand,
  MACHINE_PROBES,
  type Probes,
  type SandboxCommand,
  type TestCommand,
} from './runtime.ts';
import { presentCaches, removeNewCaches } from './test-caches.ts';
import { chooseSandbox, sandboxArgv, sandboxEnv, sandboxLayout, type FileProbes } from './sandbox.ts';
import { childEnv, resolveProgram } from './child-env.ts';
import { forbiddenChanges, snapshotLesson } from './lesson-changes.ts';
import { parseTestCounts } from './test-counts.ts';

export interface VerifyOptions {
  config: Config;
  /** Overrides config.verify_timeout_seconds. */
  timeoutSeconds?: number | undefined;
  env: NodeJS.ProcessEnv;
  probes?: Probes;
  /** Cancels the run (an MCP client cancelled the call): the tests are killed and nothing is recorded. */
  signal?: AbortSignal | undefined;
}

/** The lesson folder, refused when it escapes the course (also through a symlink) or is missing. */
export function lessonFolder(course: Course, state: State, id: string): string {
  const lesson = requireLesson(state, id);
  const dir = lessonFolderPath(course, lesson.dir, `lesson ${id}: dir`);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false; // missing: refused below
  }
  if (!isDir) refuse(`lesson ${id}: folder ${lesson.dir} does not exist; write the lesson code first`);
  return dir;
}

/** Runs the lesson's tests and writes `.codelabgen/runs/<id>/<n>.json`; returns that run-result. */
export async function verifyLesson(
  course: Course,
  state: State,
  id: string,
  options: VerifyOptions,
): Promise<RunResult> {
  const probes = options.probes ?? MACHINE_PROBES;
  const bwrap = chooseSandbox(options.config.verify.sandbox, options.env, probes.isExecutable);
  const dir = lessonFolder(course, state, id);
  const lesson = requireLesson(state, id);
  if (bwrap !== null) makeDocsFolder(course, dir);
  const sandboxFor =
    bwrap === null
      ? () => null
      : sandboxPlanner(bwrap, course, dir, prerequisiteFolders(course, state, id), options.env, probes);
  // The pytest probe runs in the sandbox like the tests (the lesson folder may hold a python3 of its own).
  const sandboxedProbes: Probes = {
    ...probes,
    hasPytest: (python, cwd, env) => probes.hasPytest(python, cwd, env, sandboxFor(cwd, python, false)),
  };
  const command = resolveTestCommand(course, lesson, dir, options.config, options.env, sandboxedProbes);
  if (bwrap !== null) refuseUnlockedWorkspace(id, command, dir);
  const timeoutSeconds = options.timeoutSeconds ?? options.config.verify_timeout_seconds;
  const codeHash = hashLessonCode(dir, lesson.dir);
  const network = loadLessonSpec(course, id)?.network ?? false;
  const run = testRunner(id, dir, command, { sandboxFor, timeoutSeconds, probes, signal: options.signal });
  const { argv, outcome, forbidden } = await runChecked(run, command, {
    dir,
    label: lesson.dir,
    network,
    maxWriteMb: options.config.verify.max_write_mb,
    docsReadOnly: bwrap !== null && isRealFolder(path.join(realpathSync(dir), 'docs')),
  });
  refuseIfCancelled(id, options.signal);
  const tests = parseTestCounts(outcome.output_tail);
  const succeeded = outcome.exit_code === 0 && !outcome.timed_out && outcome.signal === null;
  const noTests = succeeded && tests !== null && tests.total === 0;
  const passed = succeeded && !noTests && forbidden === null;
  const ending = { ...outcome, timeout_seconds: timeoutSeconds };
  const cause = passed
    ? null
    : (forbidden ?? (noTests ? 'no tests ran (the runner found no tests)' : failureCause(outcome.output_tail, ending)));
  return writeRunResult(course, {
    schema_version: 1,
    lesson: id,
    runtime: command.runtime,
    argv,
    cwd: path.relative(course.root, command.cwd).split(path.sep).join('/') || '.',
    ...outcome,
    passed,
    tests,
    code_hash: codeHash,
    sandbox: bwrap === null ? 'none' : 'bwrap',
    cause: cause === null ? null : argv === command.prepare ? `${argv.slice(0, 2).join(' ')} failed: ${cause}` : cause,
  });
}

interface RunChecks {
  dir: string;
  /** The lesson folder as messages name it (relative to the course). */
  label: string;
  network: boolean;
  maxWriteMb: number;
  /** The sandbox binds docs/ read-only (a folder, not a symlink): no docs check needed. */
  docsReadOnly: boolean;
}

/**
 * Runs the preparation step (npm ci) and the test command, then what the run may not have done:
 * change the lesson's docs, add more than verify.max_write_mb to its folder (lesson-changes.ts),
 * or write a single file past it (SIGXFSZ). `forbidden` is that finding, or null.
 */
async function runChecked(
  run: TestRun,
  command: TestCommand,
  checks: RunChecks,
): Promise<{ argv: string[]; outcome: RunOutcome; forbidden: string | null }> {
  const cachesBefore = presentCaches(command.cwd);
  const scope = { unmeasured: command.runtime === 'python-uv' ? ['.venv'] : [], docs: !checks.docsReadOnly };
  const maxWriteBytes = checks.maxWriteMb * 1024 * 1024;
  let before = snapshotLesson(checks.dir, checks.label, scope);
  let argv = command.argv;
  let outcome: RunOutcome | null = null;
  if (command.prepare) {
    const prepared = await run(command.prepare, true, null); // npm ci downloads the dependencies
    if (prepared.exit_code !== 0 || prepared.timed_out) [argv, outcome] = [command.prepare, prepared];
    // What npm ci installed is not the tests' writing: sizes count from here, docs from before it.
    else before = { docs: before.docs, sizes: snapshotLesson(checks.dir, checks.label, scope).sizes };
  }
  outcome ??= await run(argv, checks.network, maxWriteBytes);
  removeNewCaches(command.cwd, cachesBefore);
  const forbidden =
    forbiddenChanges(checks.dir, checks.label, before, maxWriteBytes, scope) ??
    (outcome.signal === 'SIGXFSZ'
      ? `a test wrote a file over verify.max_write_mb (${checks.maxWriteMb} MiB) and was stopped (SIGXFSZ)`
      : null);
  return { argv, outcome, forbidden };
}

/**
 * In the sandbox a uv workspace above the lesson folder is read-only, so uv cannot write its
 * uv.lock there: a project (pyproject.toml) without one is refused before anything runs.
 */
function refuseUnlockedWorkspace(id: string, command: TestCommand, dir: string): void {
  if (
    command.runtime !== 'python-uv' ||
    command.cwd === dir ||
    !existsSync(path.join(command.cwd, 'pyproject.toml')) ||
    existsSync(path.join(command.cwd, 'uv.lock'))
  )
    return;
  refuse(
    `lesson ${id}: the uv workspace ${command.cwd} has no uv.lock, and the sandbox lets tests write only their lesson folder`,
    'run `uv lock` in that folder (and review the lock file), or give the lesson a pyproject.toml of its own, or set verify.sandbox: off in .codelabgen/config.yaml',
  );
}

/**
 * A lesson at `code` has no docs/ yet: made empty before a sandboxed run so that the sandbox binds
 * it read-only. Else a test could plant docs/readalong.mdx: the run failed, but the file stayed for
 * the site to run (with site.mdx: true) outside the sandbox. A docs symlink is left to the check after the run.
 */
function makeDocsFolder(course: Course, dir: string): void {
  const docs = path.join(dir, 'docs');
  try {
    lstatSync(docs);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    makeCourseFolder(course, path.relative(course.root, docs), 'lesson docs folder');
  }
}

/** The folders of the lesson's prerequisites in the curriculum, transitively (none without a curriculum); each checked to stay inside the course. */
export function prerequisiteFolders(course: Course, state: State, id: string): string[] {
  if (!existsSync(abs(course, ARTIFACTS.curriculum))) return [];
  const prerequisites = new Map(
    readCurriculum(course).modules.flatMap((module) =>
      module.lessons.map((lesson) => [lesson.id, lesson.prerequisites] as const),
    ),
  );
  const found = new Set<string>();
  const visit = (lessonId: string) => {
    for (const prerequisite of prerequisites.get(lessonId) ?? []) {
      if (found.has(prerequisite) || prerequisite === id) continue;
      found.add(prerequisite);
      visit(prerequisite);
    }
  };
  visit(id);
  return [...found].flatMap((prerequisite) => {
    const lesson = getOwn(state.lessons, prerequisite);
    if (lesson === undefined) return [];
    return [lessonFolderPath(course, lesson.dir, `lesson ${prerequisite}: dir`)];
  });
}

interface RunnerSettings {
  sandboxFor: SandboxFor;
  timeoutSeconds: number;
  probes: Probes;
  signal: AbortSignal | undefined;
}

/** A cancelled run records nothing: no run result, no verdict (its tests were killed, not failed). */
function refuseIfCancelled(id: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new RefusalError(`lesson ${id}: verify was cancelled; its tests were stopped and nothing was recorded`, []);
}

type SandboxFor = (cwd: string, program: string, network: boolean) => SandboxCommand;

/** The bwrap options for running `program` in `cwd`: the lesson folder `dir` writable, the rest as sandbox.ts lays it out. */
function sandboxPlanner(
  bwrap: string,
  course: Course,
  dir: string,
  prerequisiteDirs: string[],
  parentEnv: NodeJS.ProcessEnv,
  probes: Probes,
): SandboxFor {
  const env = childEnv(parentEnv);
  return (cwd, program, network) => {
    const layout = sandboxLayout(
      {
        writable: dir,
        cwd,
        workspace: cwd === dir ? null : cwd,
        courseRoot: course.root,
        courseDotDir: course.dir,
        home: parentEnv.HOME,
        network,
        programs: [program],
        env,
        nodePath: process.execPath,
        prerequisiteDirs,
      },
      FILE_PROBES(probes),
    );
    return { bwrap, options: sandboxArgv(layout) };
  };
}

/** Runs one argv of the lesson's command; `maxFileBytes` (RLIMIT_FSIZE) null for none. */
type TestRun = (argv: string[], network: boolean, maxFileBytes: number | null) => Promise<RunOutcome>;

/**
 * Runs one argv of the lesson's command (in the sandbox when there is one), its program resolved
 * outside the lesson folder; a program that cannot start is a refusal.
 */
function testRunner(id: string, dir: string, command: TestCommand, settings: RunnerSettings): TestRun {
  return async (argv, network, maxFileBytes) => {
    const program = resolveProgram(argv[0]!, command.env, settings.probes.isExecutable, [dir]);
    if (program === null)
      refuse(
        `lesson ${id}: cannot run "${argv[0]}": not found (is it installed and on PATH? PATH folders inside the lesson folder and relative ones are not searched)`,
      );
    // RLIMIT_FSIZE: no single file the tests write (in the lesson folder, /tmp, anywhere) grows past the limit, sparse ones included.
    // prlimit execs bwrap (or the command) in its own place, so the process tree and the kills stay the same.
    const prlimit =
      maxFileBytes === null ? null : resolveProgram('prlimit', command.env, settings.probes.isExecutable, [dir]);
    if (program.includes('/') && !settings.probes.isExecutable(path.resolve(command.cwd, program)))
      refuse(`lesson ${id}: cannot run "${argv[0]}": not found or not executable`);
    const sandbox = settings.sandboxFor(command.cwd, program, network);
    const env = sandbox ? sandboxEnv(command.env) : command.env;
    // uv's environment goes into the lesson folder, the only writable one (a workspace above it is read-only).
    if (sandbox && command.runtime === 'python-uv' && command.cwd !== dir)
      env.UV_PROJECT_ENVIRONMENT = path.join(dir, '.venv');
    try {
      refuseIfCancelled(id, settings.signal);
      return await runTests({
        argv: [program, ...argv.slice(1)],
        wrapper: prlimit === null ? [] : [prlimit, `--fsize=${maxFileBytes}`, '--'],
        cwd: command.cwd,
        env,
        timeoutMs: settings.timeoutSeconds * 1000,
        sandbox,
        signal: settings.signal,
      });
    } catch (error) {
      if (error instanceof SpawnError) throw new RefusalError(`lesson ${id}: ${error.message}`, [], { cause: error });
      if (error instanceof SandboxError) {
        throw new RefusalError(
          `lesson ${id}: the sandbox could not start the tests: ${error.message}`,
          [
            `the sandbox shows the lesson folder and the toolchain on PATH (docs/verify.md); or set verify.sandbox: off in ${ARTIFACTS.config}`,
          ],
          { cause: error },
        );
      }
      throw error;
    }
  };
}

function isRealFolder(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false; // missing
  }
}

const FILE_PROBES = (probes: Probes): FileProbes => ({
  isExecutable: probes.isExecutable,
  isDirectory: (dir) => {
    try {
      return statSync(dir).isDirectory();
    } catch {
      return false; // missing: nothing to hide or bind
    }
  },
  realPath: (file) => {
    try {
      return realpathSync(file);
    } catch {
      return null; // missing
    }
  },
});

/** Commits the run's verdict: pass → lesson.verified with the code hash; failure → a fix attempt used. */
export function recordVerdict(
  course: Course,
  result: RunResult,
  budgets: Budgets,
  commandLine: string,
): Promise<Committed> {
  const evidence = result.passed ? null : failureEvidence(result.output_tail);
  return commit(course, { command: commandLine }, (state) => decideVerdict(state, result, evidence, budgets));
}
