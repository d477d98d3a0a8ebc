// The process runner for lesson tests: argv without a shell, a given clean environment, its own
// process group, a timeout that SIGKILLs the whole group, and output kept as a capped tail.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { ChildEnv } from './child-env.ts';
import { OutputTail } from './output-tail.ts';

export const DEFAULT_TAIL_BYTES = 64 * 1024;
/** How long to wait for the pipes to close after the group was killed (a process outside it may hold them). */
const CLOSE_GRACE_MS = 2000;

export interface RunRequest {
  argv: readonly string[];
  cwd: string;
  env: ChildEnv;
  timeoutMs: number;
  tailBytes?: number;
}

export interface RunOutcome {
  started_at: string;
  duration_ms: number;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  output_tail: string;
  output_bytes: number;
  output_truncated: boolean;
}

/** A program that could not be started at all (not found, not executable). */
export class SpawnError extends Error {
  readonly code: string | undefined;
  constructor(program: string, error: NodeJS.ErrnoException) {
    super(`cannot run "${program}": ${error.code === 'ENOENT' ? 'not found (is it installed and on PATH?)' : error.message}`, { cause: error });
    this.name = 'SpawnError';
    this.code = error.code;
  }
}

export function runTests(request: RunRequest): Promise<RunOutcome> {
  const [program, ...args] = request.argv;
  if (program === undefined) throw new Error('runTests: empty argv');
  const tail = new OutputTail(request.tailBytes ?? DEFAULT_TAIL_BYTES);
  const startedAt = new Date().toISOString();
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd: request.cwd, env: request.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, shell: false, windowsHide: true });
    let timedOut = false;
    let ended: { code: number | null; signal: string | null } | null = null;
    let grace: NodeJS.Timeout | undefined;
    const killGroup = () => killProcessGroup(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(grace);
      const result = tail.result();
      resolve({ started_at: startedAt, duration_ms: Math.round((performance.now() - start) * 10) / 10, exit_code: ended?.code ?? null, signal: ended?.signal ?? null, timed_out: timedOut, ...result });
    };
    child.stdout.on('data', (chunk: Buffer) => tail.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => tail.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (child.pid === undefined) reject(new SpawnError(program, error));
    });
    child.on('exit', (code, signal) => {
      ended = { code, signal };
      killGroup(); // leftovers (a background grandchild) die with the test command
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, CLOSE_GRACE_MS);
    });
    child.on('close', () => {
      if (child.pid !== undefined) finish();
    });
  });
}

/** SIGKILL to every process of the group led by `pid` (the test command and all it started). */
function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: every process of the group has already exited
  }
}
