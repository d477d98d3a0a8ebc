// One lesson's verification: resolve its folder and command, hash its code, run its tests, write
// the run-result; with --update-state, commit the verdict (verified, or a fix attempt used).
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Budgets, Config, RunResult, State } from '../../content-schemas/index.ts';
import { hashLessonCode } from '../artifacts/code-hash.ts';
import { ARTIFACTS, abs, insideCourse, type Course } from '../course.ts';
import { readCurriculum } from '../artifacts/curriculum.ts';
import { getOwn } from '../state/keyed.ts';
import { refuse, RefusalError } from '../errors.ts';
import { requireLesson } from '../protocol/lessons.ts';
import { decideVerdict } from '../protocol/verdict.ts';
import { writeRunResult } from './runs.ts';
import { commit, type Committed } from '../store/index.ts';
import { failureCause, failureEvidence } from './failure-cause.ts';
import { runTests, SandboxError, SpawnError, type RunOutcome } from './run-tests.ts';
import { loadLessonSpec, resolveTestCommand, MACHINE_PROBES, type Probes, type TestCommand } from './runtime.ts';
import { presentCaches, removeNewCaches } from './test-caches.ts';
import { chooseSandbox, sandboxArgv, sandboxEnv, sandboxLayout, type FileProbes } from './sandbox.ts';
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
  const dir = insideCourse(course, lesson.dir, `lesson ${id}: dir`);
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
export async function verifyLesson(course: Course, state: State, id: string, options: VerifyOptions): Promise<RunResult> {
  const probes = options.probes ?? MACHINE_PROBES;
  const bwrap = chooseSandbox(options.config.verify.sandbox, options.env, probes.isExecutable);
  const dir = lessonFolder(course, state, id);
  const command = resolveTestCommand(course, requireLesson(state, id), dir, options.config, options.env, probes);
  const timeoutSeconds = options.timeoutSeconds ?? options.config.verify_timeout_seconds;
  const codeHash = hashLessonCode(dir);
  const network = loadLessonSpec(course, id)?.network ?? false;
  const prerequisiteDirs = bwrap === null ? [] : prerequisiteFolders(course, state, id);
  const run = testRunner(course, id, command, { bwrap, timeoutSeconds, env: options.env, probes, prerequisiteDirs, signal: options.signal });
  const cachesBefore = presentCaches(command.cwd);
  let argv = command.argv;
  let outcome: RunOutcome | null = null;
  if (command.prepare) {
    const prepared = await run(command.prepare, true); // npm ci downloads the dependencies
    if (prepared.exit_code !== 0 || prepared.timed_out) [argv, outcome] = [command.prepare, prepared];
  }
  outcome ??= await run(argv, network);
  removeNewCaches(command.cwd, cachesBefore);
  refuseIfCancelled(id, options.signal);
  const tests = parseTestCounts(outcome.output_tail);
  const succeeded = outcome.exit_code === 0 && !outcome.timed_out && outcome.signal === null;
  const noTests = succeeded && tests !== null && tests.total === 0;
  const passed = succeeded && !noTests;
  const ending = { ...outcome, timeout_seconds: timeoutSeconds };
  const cause = passed ? null : noTests ? 'no tests ran (the runner found no tests)' : failureCause(outcome.output_tail, ending);
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

/** The folders of the lesson's prerequisites in the curriculum, transitively (none without a curriculum); each checked to stay inside the course. */
export function prerequisiteFolders(course: Course, state: State, id: string): string[] {
  if (!existsSync(abs(course, ARTIFACTS.curriculum))) return [];
  const prerequisites = new Map(readCurriculum(course).modules.flatMap((module) => module.lessons.map((lesson) => [lesson.id, lesson.prerequisites] as const)));
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
    return lesson === undefined ? [] : [insideCourse(course, lesson.dir, `lesson ${prerequisite}: dir`)];
  });
}

interface RunnerSettings {
  bwrap: string | null;
  timeoutSeconds: number;
  env: NodeJS.ProcessEnv;
  probes: Probes;
  prerequisiteDirs: string[];
  signal: AbortSignal | undefined;
}

/** A cancelled run records nothing: no run result, no verdict (its tests were killed, not failed). */
function refuseIfCancelled(id: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RefusalError(`lesson ${id}: verify was cancelled; its tests were stopped and nothing was recorded`, []);
}

/** Runs one argv of the lesson's command (in the sandbox when `bwrap` is given); a program that cannot start is a refusal. */
function testRunner(course: Course, id: string, command: TestCommand, settings: RunnerSettings): (argv: string[], network: boolean) => Promise<RunOutcome> {
  return async (argv, network) => {
    // The writable folder is the working folder: the lesson folder, or for python-uv the workspace holding it (uv writes its .venv there).
    const layout = { writable: command.cwd, cwd: command.cwd, courseRoot: course.root, courseDotDir: course.dir, home: settings.env.HOME, network, programs: [argv[0]!], env: command.env, nodePath: process.execPath, prerequisiteDirs: settings.prerequisiteDirs };
    const sandbox = settings.bwrap === null ? null : { bwrap: settings.bwrap, options: sandboxArgv(sandboxLayout(layout, FILE_PROBES(settings.probes))) };
    try {
      refuseIfCancelled(id, settings.signal);
      return await runTests({ argv, cwd: command.cwd, env: sandbox ? sandboxEnv(command.env) : command.env, timeoutMs: settings.timeoutSeconds * 1000, sandbox, signal: settings.signal });
    } catch (error) {
      if (error instanceof SpawnError) throw new RefusalError(`lesson ${id}: ${error.message}`, [], { cause: error });
      if (error instanceof SandboxError) {
        throw new RefusalError(`lesson ${id}: the sandbox could not start the tests: ${error.message}`, [`the sandbox shows the lesson folder and the toolchain on PATH (docs/verify.md); or set verify.sandbox: off in ${ARTIFACTS.config}`], { cause: error });
      }
      throw error;
    }
  };
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
export function recordVerdict(course: Course, result: RunResult, budgets: Budgets, commandLine: string): Promise<Committed> {
  const evidence = result.passed ? null : failureEvidence(result.output_tail);
  return commit(course, { command: commandLine }, (state) => decideVerdict(state, result, evidence, budgets));
}
