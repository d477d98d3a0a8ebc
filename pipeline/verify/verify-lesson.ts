// One lesson's verification: resolve its folder and command, hash its code, run its tests, write
// the run-result; with --update-state, commit the verdict (verified, or a fix attempt used).
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Budgets, Config, RunResult, State } from '../../content-schemas/index.ts';
import { hashLessonCode } from '../code-hash.ts';
import { insideCourse, printable, type Course } from '../course.ts';
import { refuse, RefusalError } from '../errors.ts';
import { decideFailure, requireLesson } from '../fix-budget.ts';
import { writeRunResult } from '../runs.ts';
import { commit, type Committed } from '../store/index.ts';
import { failureCause } from './failure-cause.ts';
import { runTests, SpawnError, type RunOutcome } from './run-tests.ts';
import { resolveTestCommand, MACHINE_PROBES, type Probes } from './runtime.ts';
import { parseTestCounts } from './test-counts.ts';

export interface VerifyOptions {
  config: Config;
  /** Overrides config.verify_timeout_seconds. */
  timeoutSeconds?: number | undefined;
  env: NodeJS.ProcessEnv;
  probes?: Probes;
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
  const dir = lessonFolder(course, state, id);
  const command = resolveTestCommand(course, requireLesson(state, id), dir, options.config, options.env, options.probes ?? MACHINE_PROBES);
  const timeoutSeconds = options.timeoutSeconds ?? options.config.verify_timeout_seconds;
  const codeHash = hashLessonCode(dir);
  const run = async (argv: string[]): Promise<RunOutcome> => {
    try {
      return await runTests({ argv, cwd: command.cwd, env: command.env, timeoutMs: timeoutSeconds * 1000 });
    } catch (error) {
      if (error instanceof SpawnError) throw new RefusalError(`lesson ${id}: ${error.message}`, [], { cause: error });
      throw error;
    }
  };
  let argv = command.argv;
  let outcome: RunOutcome | null = null;
  if (command.prepare) {
    const prepared = await run(command.prepare);
    if (prepared.exit_code !== 0 || prepared.timed_out) [argv, outcome] = [command.prepare, prepared];
  }
  outcome ??= await run(argv);
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
    cause: cause === null ? null : argv === command.prepare ? `${argv.slice(0, 2).join(' ')} failed: ${cause}` : cause,
  });
}

/** Refuses unless the lesson can take a verdict: at stage code and not blocked. */
export function requireAtCode(state: State, id: string): void {
  const lesson = requireLesson(state, id);
  if (lesson.blocked) refuse(`lesson ${id} is blocked (${printable(lesson.blocked.reason, 120)}); unblock it first`, `codelabgen state unblock ${id}`);
  if (lesson.stage !== 'code') refuse(`lesson ${id} is at ${lesson.stage}; verify --update-state needs it at code`, `to verify it again: codelabgen state set ${id} code`);
}

/** Commits the run's verdict: pass → lesson.verified with the code hash; failure → a fix attempt used. */
export function recordVerdict(course: Course, result: RunResult, budgets: Budgets, commandLine: string): Promise<Committed> {
  return commit(course, { command: commandLine }, (state) => {
    if (!result.passed) return decideFailure(state, result.lesson, result.cause ?? 'tests failed', budgets, 'verify', result.run, result.code_hash);
    requireAtCode(state, result.lesson);
    return { kind: 'lesson.verified', lesson: result.lesson, code_hash: result.code_hash, run: result.run };
  });
}
