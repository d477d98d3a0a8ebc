// One lesson's verification: resolve its folder and command, hash its code, run its tests; with
// --update-state, commit the run-result and its verdict (verified, or a fix attempt used) as one change.
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
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
import { nextRunWrite } from './runs.ts';
import { commitChange, makeCourseFolder, type Committed } from '../store/index.ts';
import { failureCause, failureEvidence } from './failure-cause.ts';
import type { RunOutcome } from './run-tests.ts';
import type { StepOutcome } from './lesson-step.ts';
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
import { SANDBOX_VARIABLE, sandboxChoice, type FileProbes, type SandboxChoice } from './sandbox.ts';
import { lessonDeadline, refuseIfCancelled, runLessonStep, type LessonBox } from './lesson-step.ts';
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
  /** Hears why `auto` runs without the sandbox, or that the course's `off` was not honoured (a warning and its hints, for stderr). */
  onWarning?: ((message: string, hints: readonly string[]) => void) | undefined;
}

/**
 * The sandbox for `verify`, from verify.sandbox and the machine (`required` without a usable bwrap
 * refuses; the course's `off` runs as `auto`, only CODELABGEN_SANDBOX=off turns it off).
 */
export function chooseVerifySandbox(options: VerifyOptions): SandboxChoice {
  return sandboxChoice(options.config.verify.sandbox, options.env, (options.probes ?? MACHINE_PROBES).isExecutable);
}

/** Tells why `auto` runs without the sandbox, or that the course could not turn it off: neither is ever silent. */
export function warnAboutSandbox(choice: SandboxChoice, options: VerifyOptions): void {
  if (choice.warning) options.onWarning?.(choice.warning.message, choice.warning.hints);
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

/** A run-result before it is given its number (when it is recorded). */
export type UnrecordedRun = Omit<RunResult, 'run'>;

/** Runs the lesson's tests; returns the run-result for the caller to record: alone (writeRunResult in runs.ts), or with its verdict (recordVerdict). */
export async function runLesson(
  course: Course,
  state: State,
  id: string,
  options: VerifyOptions,
): Promise<UnrecordedRun> {
  const probes = options.probes ?? MACHINE_PROBES;
  const choice = options.sandbox ?? chooseVerifySandbox(options);
  const { bwrap } = choice;
  const dir = lessonFolder(course, state, id);
  const lesson = requireLesson(state, id);
  if (bwrap !== null) makeDocsFolder(course, dir);
  const timeoutSeconds = options.timeoutSeconds ?? options.config.verify_timeout_seconds;
  const maxWriteMb = options.config.verify.max_write_mb;
  const spec = loadLessonSpec(course, id);
  // Every step this lesson controls runs in this one box: the same sandbox, network and limits, one deadline.
  const box: LessonBox = {
    id,
    dir,
    bwrap,
    course,
    prerequisiteDirs: bwrap === null ? [] : prerequisiteFolders(course, state, id),
    parentEnv: options.env,
    files: FILE_PROBES(probes),
    network: spec?.network ?? false,
    timeoutSeconds,
    deadline: lessonDeadline(timeoutSeconds),
    maxFileBytes: maxWriteMb * 1024 * 1024,
    maxProcesses: spec?.max_processes ?? options.config.verify.max_processes,
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
  if (options.sandbox === undefined) warnAboutSandbox(choice, options); // after the refusals: a refusal prints its error alone
  const codeHash = hashLessonCode(dir, lesson.dir);
  const { argv, outcome, forbidden, timedOutIn } = await runChecked(box, command, {
    label: lesson.dir,
    maxWriteMb,
    docsReadOnly: bwrap !== null && isRealFolder(path.join(realpathSync(dir), 'docs')),
  });
  refuseIfCancelled(id, options.signal);
  const tests = parseTestCounts(outcome.output_tail);
  const succeeded = outcome.exit_code === 0 && !outcome.timed_out && outcome.signal === null;
  const noTests = succeeded && tests !== null && tests.total === 0;
  const passed = succeeded && !noTests && forbidden === null;
  const ending = { ...outcome, timeout_seconds: timeoutSeconds, timed_out_in: timedOutIn };
  const cause = passed
    ? null
    : (forbidden ?? (noTests ? 'no tests ran (the runner found no tests)' : failureCause(outcome.output_tail, ending)));
  return {
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
    cause:
      cause === null
        ? null
        : argv === command.prepare
          ? preparationCause(argv, cause, box.network || forbidden !== null)
          : cause,
  };
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
): Promise<{ argv: string[]; outcome: RunOutcome; forbidden: string | null; timedOutIn: string }> {
  const cachesBefore = presentCaches(command.cwd);
  const unmeasured = [...(runtimeEntry(command.runtime)?.unmeasured ?? [])];
  const scope = { unmeasured, docs: !checks.docsReadOnly };
  const maxWriteBytes = checks.maxWriteMb * 1024 * 1024;
  const before = snapshotLesson(box.dir, checks.label, scope);
  const step = (argv: string[]) =>
    runLessonStep(box, { argv, cwd: command.cwd, env: command.env, runtime: command.runtime });
  let argv = command.argv;
  let stepOutcome: StepOutcome | null = null;
  let limitReached = false;
  if (command.prepare) {
    const prepared = await step(command.prepare);
    limitReached = prepared.processLimitReached;
    if (prepared.exit_code !== 0 || prepared.timed_out || prepared.signal !== null)
      [argv, stepOutcome] = [command.prepare, prepared];
  }
  stepOutcome ??= await step(argv);
  limitReached ||= stepOutcome.processLimitReached;
  const { processLimitReached: _, ...outcome } = stepOutcome;
  removeNewCaches(command.cwd, cachesBefore);
  const forbidden =
    forbiddenChanges(box.dir, checks.label, before, maxWriteBytes, scope) ??
    (outcome.signal === 'SIGXFSZ'
      ? `a test wrote a file over verify.max_write_mb (${checks.maxWriteMb} MiB) and was stopped (SIGXFSZ)`
      : null) ??
    (limitReached ? processLimitCause(box.maxProcesses, outcome) : null);
  const timedOutIn = argv === command.prepare ? argv.slice(0, 2).join(' ') : 'the tests';
  return { argv, outcome, forbidden, timedOutIn };
}

/** A step that reached the process-count limit: a fork bomb or a runaway pool, named as such. */
function processLimitCause(maxProcesses: number, outcome: RunOutcome): string {
  const ended = outcome.timed_out ? 'ran until the timeout' : 'failed';
  return (
    `the lesson's programs reached the process limit (max_processes: ${maxProcesses} processes and threads ` +
    `at once; a fork bomb?) and ${ended}; raise max_processes in the lesson spec or verify.max_processes if they need more`
  );
}

/** How a failed preparation step is named in the cause; without network (and nothing forbidden done), npm ci can only install what needs no download. */
function preparationCause(argv: readonly string[], cause: string, networkNotTheCause: boolean): string {
  const named = `${argv.slice(0, 2).join(' ')} failed: ${cause}`;
  return networkNotTheCause
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
      `or set ${SANDBOX_VARIABLE}=off to run the tests without the sandbox`,
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
  entries: (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return []; // missing or unreadable: nothing in it to hide
    }
  },
});

/**
 * Records the run and its verdict in one all-or-nothing change (pipeline/store/staged-change.ts):
 * the run file is staged, the verdict's event appended (pass → lesson.verified with the code hash;
 * failure → a fix attempt used), then the file moved into place. A refused verdict or a failed
 * write leaves neither, so no run-result ever claims a verdict that state does not hold.
 */
export async function recordVerdict(
  course: Course,
  unrecorded: UnrecordedRun,
  budgets: Budgets,
  commandLine: string,
): Promise<{ result: RunResult; committed: Committed }> {
  const evidence = unrecorded.passed ? null : failureEvidence(unrecorded.output_tail);
  let result: RunResult | null = null;
  const committed = await commitChange(course, { command: commandLine, what: 'run-result' }, (state) => {
    const next = nextRunWrite(course, unrecorded);
    result = next.run;
    return { draft: decideVerdict(state, next.run, evidence, budgets), writes: [next.write] };
  });
  return { result: result!, committed };
}
