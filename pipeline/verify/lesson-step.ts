// The one way a lesson's own programs run. Every step a lesson controls (npm ci and the install
// scripts it may run, the pytest probe, the tests; any runtime, any argv) goes through
// runLessonStep(): the same sandbox, the same network setting (the spec's `network`), the same limits
// (RLIMIT_FSIZE, the timeout, one process group or PID namespace killed whole). one-sandbox.test.ts
// fails when any other module spawns a program or calls the process runner.
import path from 'node:path';
import type { Runtime } from '../../content-schemas/index.ts';
import { ARTIFACTS, type Course } from '../course/course.ts';
import { refuse, RefusalError } from '../course/errors.ts';
import { resolveProgram, type ChildEnv } from './child-env.ts';
import { runTests, SandboxError, SpawnError, type RunOutcome } from './run-tests.ts';
import type { NetworkPrograms } from './sandbox-network.ts';
import { sandboxArgv, sandboxEnv, sandboxLayout, type FileProbes } from './sandbox.ts';

/** What every step of one lesson's verification shares: where it may write, what it may reach, its limits. */
export interface LessonBox {
  /** The lesson id, for messages. */
  id: string;
  /** The lesson folder: the only folder a step may write. */
  dir: string;
  /** The bwrap program, or null when verify runs unsandboxed (verify.sandbox off, or auto without a usable bwrap). */
  bwrap: string | null;
  course: Course;
  /** Folders of the curriculum prerequisites, shown read-only. */
  prerequisiteDirs: readonly string[];
  /** codelabgen's own environment: only its HOME is read (to hide it); the steps get a ChildEnv. */
  parentEnv: NodeJS.ProcessEnv;
  files: FileProbes;
  /** The spec's `network: true`; false (no network, not even the host's loopback) otherwise. */
  network: boolean;
  /** Seconds each step may run before its whole process group (or sandbox) is killed. */
  timeoutSeconds: number;
  /** RLIMIT_FSIZE of each step, in bytes: no file it writes grows past it (verify.max_write_mb). */
  maxFileBytes: number;
  /** Aborts (an MCP client cancelled the call): the running step is killed. */
  signal: AbortSignal | undefined;
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
 * `prlimit --fsize` → bwrap (when there is one) → the program. A program that cannot start, or a
 * sandbox that cannot start it, is a refusal; a cancelled run is a refusal that records nothing.
 */
export async function runLessonStep(box: LessonBox, step: LessonStep): Promise<RunOutcome> {
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
  const sandbox =
    box.bwrap === null
      ? null
      : { bwrap: box.bwrap, options: sandboxOptions(box, step, program), network: networkPrograms(box, step) };
  const env = sandbox ? sandboxEnv(step.env) : { ...step.env };
  // uv's environment goes into the lesson folder, the only writable one (a workspace above it is read-only).
  if (sandbox && step.runtime === 'python-uv' && step.cwd !== box.dir)
    env.UV_PROJECT_ENVIRONMENT = path.join(box.dir, '.venv');
  refuseIfCancelled(box.id, box.signal);
  try {
    return await runTests({
      argv: [program, ...args],
      wrapper: prlimit === null ? [] : [prlimit, `--fsize=${box.maxFileBytes}`, '--'],
      cwd: step.cwd,
      env,
      timeoutMs: box.timeoutSeconds * 1000,
      sandbox,
      signal: box.signal,
    });
  } catch (error) {
    if (error instanceof SpawnError) throw new RefusalError(`lesson ${box.id}: ${error.message}`, [], { cause: error });
    if (error instanceof SandboxError)
      throw new RefusalError(
        `lesson ${box.id}: the sandbox could not start the tests: ${error.message}`,
        [
          `the sandbox shows the lesson folder and the toolchain on PATH (docs/verify.md); or set verify.sandbox: off in ${ARTIFACTS.config}`,
        ],
        { cause: error },
      );
    throw error;
  }
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

/** bwrap's options for this step: the lesson folder writable, a uv workspace above it read-only, the box's network. */
function sandboxOptions(box: LessonBox, step: LessonStep, program: string): string[] {
  const layout = sandboxLayout(
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
  return sandboxArgv(layout);
}
