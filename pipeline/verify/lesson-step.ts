// The one way a lesson's own programs run. Every step a lesson controls (npm ci and the install
// scripts it may run, the pytest probe, the tests; any runtime, any argv) goes through
// runLessonStep(): the same sandbox, the same network setting (the spec's `network`), the same limits
// (RLIMIT_FSIZE, the process-count limit, one deadline for all the steps, one process group or PID
// namespace killed whole). one-sandbox.test.ts fails when any other module spawns a program or calls
// the process runner.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Runtime } from '../../content-schemas/index.ts';
import { ARTIFACTS, type Course } from '../course/course.ts';
import { refuse, RefusalError } from '../course/errors.ts';
import { resolveProgram, type ChildEnv } from './child-env.ts';
import { cgroupWrapper, makePidsCgroup } from './process-limit.ts';
import { runTests, SandboxError, SpawnError, type RunOutcome } from './run-tests.ts';
import type { NetworkPrograms } from './sandbox-network.ts';
import {
  hiddenInSandbox,
  sandboxArgv,
  sandboxEnv,
  sandboxLayout,
  SANDBOX_VARIABLE,
  type FileProbes,
  type SandboxLayout,
} from './sandbox.ts';

/** What every step of one lesson's verification shares: where it may write, what it may reach, its limits. */
export interface LessonBox {
  /** The lesson id, for messages. */
  id: string;
  /** The lesson folder: the only folder a step may write. */
  dir: string;
  /** The bwrap program, or null when verify runs unsandboxed (CODELABGEN_SANDBOX=off, or auto without a usable bwrap). */
  bwrap: string | null;
  course: Course;
  /** Folders of the curriculum prerequisites, shown read-only. */
  prerequisiteDirs: readonly string[];
  /** codelabgen's own environment: only its HOME is read (to hide it); the steps get a ChildEnv. */
  parentEnv: NodeJS.ProcessEnv;
  files: FileProbes;
  /** The spec's `network: true`; false (no network, not even the host's loopback) otherwise. */
  network: boolean;
  /** Seconds all the steps together may run (the verify timeout), for messages. */
  timeoutSeconds: number;
  /** performance.now() (ms) when the lesson's time is up: each step gets what is left, then its whole process group (or sandbox) is killed. */
  deadline: number;
  /** RLIMIT_FSIZE of each step, in bytes: no file it writes grows past it (verify.max_write_mb). */
  maxFileBytes: number;
  /** Processes and threads a step may have at once (verify.max_processes): RLIMIT_NPROC in the sandbox, a pids cgroup where one can be made. */
  maxProcesses: number;
  /** Aborts (an MCP client cancelled the call): the running step is killed. */
  signal: AbortSignal | undefined;
}

/** How a step ended, and whether it met the process-count limit (a fork refused at it). */
export interface StepOutcome extends RunOutcome {
  processLimitReached: boolean;
}

/** The lesson's deadline for a verify timeout of `seconds`, counted from now. */
export function lessonDeadline(seconds: number): number {
  return performance.now() + seconds * 1000;
}

/** One step: the argv (argv[0] a program name or path), where it runs, its environment and runtime. */
export interface LessonStep {
  argv: readonly string[];
  cwd: string;
  env: ChildEnv;
  runtime: Runtime;
}

/**
 * Runs one step of the lesson inside the box: its program resolved outside the lesson folder, then
 * (`sh` moving into a pids cgroup, where one can be made) → `prlimit --fsize` → bwrap (when there is
 * one) → `prlimit --nproc` → the program, for the time left before the lesson's deadline. A program
 * that cannot start, or a sandbox that cannot start it, is a refusal; a cancelled run is a refusal
 * that records nothing.
 */
export async function runLessonStep(box: LessonBox, step: LessonStep): Promise<StepOutcome> {
  const [name = '', ...args] = step.argv;
  const program = resolveProgram(name, step.env, box.files.isExecutable, [box.dir]);
  if (program === null)
    refuse(
      `lesson ${box.id}: cannot run "${name}": not found (is it installed and on PATH? PATH folders inside ` +
        'the lesson folder and relative ones are not searched)',
    );
  if (program.includes('/') && !box.files.isExecutable(path.resolve(step.cwd, program)))
    refuse(`lesson ${box.id}: cannot run "${name}": not found or not executable`);
  // prlimit execs bwrap (or the program) in its own place: the process tree and the kills stay the same.
  const prlimit = resolveProgram('prlimit', step.env, box.files.isExecutable, [box.dir]);
  const layout = box.bwrap === null ? null : sandboxLayoutOf(box, step, program);
  if (layout !== null && hiddenInSandbox(layout, path.resolve(step.cwd, program)))
    refuseUnstartable(box.id, `${program} is in a folder the sandbox hides, and no bind shows it again`);
  const sandbox =
    box.bwrap === null || layout === null
      ? null
      : { bwrap: box.bwrap, options: sandboxArgv(layout), network: networkPrograms(box, step) };
  const env = sandbox ? sandboxEnv(step.env) : { ...step.env };
  // uv's environment goes into the lesson folder, the only writable one (a workspace above it is read-only).
  if (sandbox && step.runtime === 'python-uv' && step.cwd !== box.dir)
    env.UV_PROJECT_ENVIRONMENT = path.join(box.dir, '.venv');
  refuseIfCancelled(box.id, box.signal);
  // In the sandbox's own user namespace RLIMIT_NPROC counts the sandbox's tasks only (outside it, all of the user's).
  const nproc = sandbox && prlimit !== null ? [prlimit, `--nproc=${box.maxProcesses}`, '--'] : [];
  const cgroup = makePidsCgroup(box.maxProcesses);
  try {
    const outcome = await runTests({
      argv: [...nproc, program, ...args],
      wrapper: [
        ...(cgroup === null ? [] : cgroupWrapper(cgroup)),
        ...(prlimit === null ? [] : [prlimit, `--fsize=${box.maxFileBytes}`, '--']),
      ],
      cwd: step.cwd,
      env,
      timeoutMs: Math.max(1, Math.round(box.deadline - performance.now())),
      sandbox,
      signal: box.signal,
    });
    return { ...outcome, processLimitReached: cgroup?.reached() === true || forkRefused(outcome) };
  } catch (error) {
    if (error instanceof SpawnError) throw new RefusalError(`lesson ${box.id}: ${error.message}`, [], { cause: error });
    if (error instanceof SandboxError) refuseUnstartable(box.id, error.message, error);
    throw error;
  } finally {
    cgroup?.remove();
  }
}

/** What programs print when a fork or thread is refused (EAGAIN at RLIMIT_NPROC), in a step that failed. */
const FORK_REFUSED = new RegExp(
  [
    'fork: (?:retry: )?Resource temporarily unavailable',
    'Cannot fork',
    'spawn EAGAIN',
    'Errno 11\\] Resource temporarily unavailable',
    'pthread_create: Resource temporarily unavailable',
    'uv_thread_create',
  ].join('|'),
);

function forkRefused(outcome: RunOutcome): boolean {
  const failed = outcome.exit_code !== 0 || outcome.signal !== null || outcome.timed_out;
  return failed && FORK_REFUSED.test(outcome.output_tail);
}

/**
 * unshare and slirp4netns when the lesson asked for the network (null otherwise): the sandbox then
 * reaches the internet but never the host's loopback. Without them a networked lesson is refused,
 * not given the host's network.
 */
function networkPrograms(box: LessonBox, step: LessonStep): NetworkPrograms | null {
  if (!box.network) return null;
  const find = (name: string) => resolveProgram(name, step.env, box.files.isExecutable, [box.dir]);
  const [unshare, slirp] = [find('unshare'), find('slirp4netns')];
  if (unshare === null || slirp === null)
    refuse(
      `lesson ${box.id}: network: true needs ${slirp === null ? 'slirp4netns' : 'unshare (util-linux)'}, ` +
        `which give the sandbox the internet but not this machine's loopback; it is not on PATH`,
      'install it: apt-get install slirp4netns (Debian, Ubuntu), dnf install slirp4netns (Fedora)',
      `or remove network: true from ${ARTIFACTS.lessonSpec(box.id)} (the lesson then has no network)`,
    );
  return { unshare, slirp };
}

/** A cancelled run records nothing: no run result, no verdict (its tests were killed, not failed). */
export function refuseIfCancelled(id: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new RefusalError(`lesson ${id}: verify was cancelled; its tests were stopped and nothing was recorded`, []);
}

/**
 * A program the sandbox cannot start: a refusal, not a failed run (bwrap's own message, or found
 * before the run: inside the sandbox prlimit execs the program, and a failure of its exec would be
 * indistinguishable from the lesson's own output).
 */
function refuseUnstartable(id: string, why: string, cause?: Error): never {
  throw new RefusalError(
    `lesson ${id}: the sandbox could not start the tests: ${why}`,
    [
      `the sandbox shows the lesson folder and the toolchain on PATH (docs/verify.md); or set ${SANDBOX_VARIABLE}=off to run without it`,
    ],
    { cause },
  );
}

/** The sandbox for this step: the lesson folder writable, a uv workspace above it read-only, the box's network. */
function sandboxLayoutOf(box: LessonBox, step: LessonStep, program: string): SandboxLayout {
  return sandboxLayout(
    {
      writable: box.dir,
      cwd: step.cwd,
      workspace: step.cwd === box.dir ? null : step.cwd,
      courseRoot: box.course.root,
      courseDotDir: box.course.dir,
      home: box.parentEnv.HOME,
      network: box.network,
      programs: [program],
      env: step.env,
      nodePath: process.execPath,
      prerequisiteDirs: [...box.prerequisiteDirs],
    },
    box.files,
  );
}
