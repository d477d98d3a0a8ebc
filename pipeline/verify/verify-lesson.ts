// One lesson's verification: resolve its folder and command, hash its code, run its tests, write
// the run-result; with --update-state, commit the verdict (verified, or a fix attempt used).
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Budgets, Config, RunResult, State } from '../../content-schemas/index.ts';
import { runtimeEntry } from '../../content-schemas/fast.ts';
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
import type { RunOutcome } from './run-tests.ts';
import {
  loadLessonSpec,
  PYTEST_PROBE,
  resolveTestCommand,
  MACHINE_PROBES,
  type CommandProbes,
  type Probes,
  type TestCommand,
} from './runtime.ts';
import { presentCaches, removeNewCaches } from './test-caches.ts';
import { sandboxChoice, type FileProbes, type SandboxChoice } from './sandbox.ts';
import { refuseIfCancelled, runLessonStep, type LessonBox } from './lesson-step.ts';
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
  /** The sandbox chosen once for several lessons (verify --all); else chosen here. */
  sandbox?: SandboxChoice | undefined;
  /** Hears why `auto` runs without the sandbox (a warning and its hints, for stderr). */
  onWarning?: ((message: string, hints: readonly string[]) => void) | undefined;
}

/** The sandbox for `verify`, from verify.sandbox and the machine (`required` without a usable bwrap refuses). */
export function chooseVerifySandbox(options: VerifyOptions): SandboxChoice {
  return sandboxChoice(options.config.verify.sandbox, options.env, (options.probes ?? MACHINE_PROBES).isExecutable);
}

/** Tells why `auto` runs without the sandbox: running lesson code unprotected is never silent. */
export function warnIfUnsandboxed(choice: SandboxChoice, options: VerifyOptions): void {
  if (choice.fallback) options.onWarning?.(choice.fallback.message, choice.fallback.hints);
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
  const choice = options.sandbox ?? chooseVerifySandbox(options);
  const { bwrap } = choice;
  const dir = lessonFolder(course, state, id);
  const lesson = requireLesson(state, id);
  if (bwrap !== null) makeDocsFolder(course, dir);
  const timeoutSeconds = options.timeoutSeconds ?? options.config.verify_timeout_seconds;
  const maxWriteMb = options.config.verify.max_write_mb;
  // Every step this lesson controls runs in this one box: the same sandbox, network and limits.
  const box: LessonBox = {
    id,
    dir,
    bwrap,
    course,
    prerequisiteDirs: bwrap === null ? [] : prerequisiteFolders(course, state, id),
    parentEnv: options.env,
    files: FILE_PROBES(probes),
    network: loadLessonSpec(course, id)?.network ?? false,
    timeoutSeconds,
    maxFileBytes: maxWriteMb * 1024 * 1024,
    signal: options.signal,
  };
  const command = await resolveTestCommand(
    course,
    lesson,
    dir,
    options.config,
    options.env,
    commandProbes(box, probes),
  );
  if (bwrap !== null) refuseUnlockedWorkspace(id, command, dir);
  if (options.sandbox === undefined) warnIfUnsandboxed(choice, options); // after the refusals: a refusal prints its error alone
  const codeHash = hashLessonCode(dir, lesson.dir);
  const { argv, outcome, forbidden } = await runChecked(box, command, {
    label: lesson.dir,
    maxWriteMb,
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
    cause: cause === null ? null : argv === command.prepare ? preparationCause(argv, cause, box.network) : cause,
  });
}

interface RunChecks {
  /** The lesson folder as messages name it (relative to the course). */
  label: string;
  maxWriteMb: number;
  /** The sandbox binds docs/ read-only (a folder, not a symlink): no docs check needed. */
  docsReadOnly: boolean;
}

/**
 * Runs the preparation step (npm ci) and the test command, each a lesson step in the box, then what
 * the run may not have done: change the lesson's docs, add more than verify.max_write_mb to its
 * folder, counted from before the preparation (lesson-changes.ts), or write a single file past it
 * (SIGXFSZ). `forbidden` is that finding, or null.
 */
async function runChecked(
  box: LessonBox,
  command: TestCommand,
  checks: RunChecks,
): Promise<{ argv: string[]; outcome: RunOutcome; forbidden: string | null }> {
  const cachesBefore = presentCaches(command.cwd);
  const unmeasured = [...(runtimeEntry(command.runtime)?.unmeasured ?? [])];
  const scope = { unmeasured, docs: !checks.docsReadOnly };
  const maxWriteBytes = checks.maxWriteMb * 1024 * 1024;
  const before = snapshotLesson(box.dir, checks.label, scope);
  const step = (argv: string[]) =>
    runLessonStep(box, { argv, cwd: command.cwd, env: command.env, runtime: command.runtime });
  let argv = command.argv;
  let outcome: RunOutcome | null = null;
  if (command.prepare) {
    const prepared = await step(command.prepare);
    if (prepared.exit_code !== 0 || prepared.timed_out || prepared.signal !== null)
      [argv, outcome] = [command.prepare, prepared];
  }
  outcome ??= await step(argv);
  removeNewCaches(command.cwd, cachesBefore);
  const forbidden =
    forbiddenChanges(box.dir, checks.label, before, maxWriteBytes, scope) ??
    (outcome.signal === 'SIGXFSZ'
      ? `a test wrote a file over verify.max_write_mb (${checks.maxWriteMb} MiB) and was stopped (SIGXFSZ)`
      : null);
  return { argv, outcome, forbidden };
}

/** How a failed preparation step is named in the cause; without network, npm ci can only install what needs no download. */
function preparationCause(argv: readonly string[], cause: string, network: boolean): string {
  const named = `${argv.slice(0, 2).join(' ')} failed: ${cause}`;
  return network
    ? named
    : `${named} (the lesson has no network: set network: true in its spec if npm ci must download dependencies)`;
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
    'run `uv lock` in that folder (and review the lock file), or give the lesson a pyproject.toml of its own, ' +
      'or set verify.sandbox: off in .codelabgen/config.yaml',
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

/** The pytest check runs as a lesson step in the box, like the tests (the lesson folder may hold a python3 or pytest.py of its own). */
function commandProbes(box: LessonBox, probes: Probes): CommandProbes {
  return {
    isExecutable: probes.isExecutable,
    hasPytest: async (python, cwd, env) => {
      try {
        const checked = await runLessonStep(box, { argv: [python, ...PYTEST_PROBE], cwd, env, runtime: 'python' });
        return checked.exit_code === 0;
      } catch (error) {
        if (error instanceof RefusalError && !box.signal?.aborted) return false; // a python the sandbox cannot start has no pytest to offer
        throw error;
      }
    },
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
