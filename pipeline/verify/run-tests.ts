// The process runner for lesson tests: argv without a shell, a given clean environment, its own
// process group (inside bubblewrap when asked), a timeout that SIGKILLs the whole group, output
// kept as a capped tail; stopRunningTests() kills every running test when codelabgen is stopped.
import { spawn } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { ChildEnv } from './child-env.ts';
import { OutputTail } from './output-tail.ts';
import {
  NETWORK_BLOCK_FD,
  RESOLV_CONF_FD,
  SANDBOX_RESOLV_CONF,
  networkPrefix,
  startSandboxNetwork,
  type NetworkPrograms,
  type SandboxNetwork,
} from './sandbox-network.ts';

export const DEFAULT_TAIL_BYTES = 64 * 1024;
/** How long to wait for the pipes to close after the group was killed (a process outside it may hold them). */
const CLOSE_GRACE_MS = 2000;

export interface RunRequest {
  argv: readonly string[];
  cwd: string;
  env: ChildEnv;
  timeoutMs: number;
  tailBytes?: number;
  /**
   * Run inside bubblewrap: the bwrap program and its options (ending with `--`); `network` (unshare
   * and slirp4netns) when the options give the sandbox a network (`--block-fd`, sandbox-network.ts).
   */
  sandbox?: { bwrap: string; options: readonly string[]; network?: NetworkPrograms | null } | null;
  /** A program and options that exec the rest (bwrap or the command) in their own place: `prlimit --fsize=N --`. */
  wrapper?: readonly string[];
  /** Kills the tests when it aborts (an MCP client cancelled the call); the outcome is then a kill. */
  signal?: AbortSignal | undefined;
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
    super(
      `cannot run "${program}": ${error.code === 'ENOENT' ? 'not found (is it installed and on PATH?)' : error.message}`,
      { cause: error },
    );
    this.name = 'SpawnError';
    this.code = error.code;
  }
}

/** bwrap ran but never started the command (a bad bind, the program missing inside the sandbox). */
export class SandboxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxError';
  }
}

/** Kills of the tests running now, so that SIGINT or SIGTERM to codelabgen leaves none behind. */
const running = new Set<() => void>();

/** SIGKILLs every test this process is running (each whole group or sandbox). */
export function stopRunningTests(): void {
  for (const kill of running) kill();
}

export function runTests(request: RunRequest): Promise<RunOutcome> {
  if (request.argv[0] === undefined) throw new Error('runTests: empty argv');
  const sandbox = request.sandbox ?? null;
  const [program = '', ...args] = [
    ...(request.wrapper ?? []),
    ...(sandbox
      ? [...(sandbox.network ? networkPrefix(sandbox.network) : []), sandbox.bwrap, ...sandbox.options, ...request.argv]
      : request.argv),
  ];
  const tail = new OutputTail(request.tailBytes ?? DEFAULT_TAIL_BYTES);
  const startedAt = new Date().toISOString();
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const networked = sandbox?.network ?? null;
    const child = spawn(program, args, {
      cwd: request.cwd,
      env: request.env,
      stdio: withoutInherited(
        ['ignore', 'pipe', 'pipe', sandbox ? 'pipe' : 'ignore', ...(networked ? (['pipe', 'pipe'] as const) : [])],
        inheritedDescriptors(),
      ),
      detached: true,
      shell: false,
      windowsHide: true,
    });
    const [stdout, stderr, statusPipe] = [child.stdout!, child.stderr!, child.stdio[3] as Readable | null];
    const status = statusPipe ? new BwrapStatus(statusPipe) : null;
    let network: SandboxNetwork | null = null;
    let networkFailure: string | null = null;
    let timedOut = false;
    let ended: { code: number | null; signal: string | null } | null = null;
    let grace: NodeJS.Timeout | undefined;
    const killGroup = () => {
      killProcessGroup(child.pid);
      // The sandbox's PID 1: killing it ends its PID namespace even in the few ms before bwrap arms --die-with-parent.
      if (status?.childPid !== undefined && status.exitCode === undefined) killProcess(status.childPid);
    };
    running.add(killGroup);
    request.signal?.addEventListener('abort', killGroup, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeoutMs);
    if (networked && status) {
      const pipes = child.stdio as unknown as Writable[];
      const [block, resolvConf] = [pipes[NETWORK_BLOCK_FD]!, pipes[RESOLV_CONF_FD]!];
      for (const pipe of [block, resolvConf]) pipe.on('error', () => {}); // bwrap already gone: the ending says why
      resolvConf.end(SANDBOX_RESOLV_CONF);
      // Not the sandbox's PID 1 (it moves on into a nested user namespace) but bwrap's own process, which stays in unshare's.
      status.onChildPid = () => {
        if (child.pid === undefined) return;
        network = startSandboxNetwork(
          networked.slirp,
          child.pid,
          () => block.end('1'),
          (why) => {
            networkFailure = why;
            killGroup();
          },
        );
      };
    }
    const finish = () => {
      network?.stop();
      clearTimeout(timer);
      clearTimeout(grace);
      running.delete(killGroup);
      request.signal?.removeEventListener('abort', killGroup);
      const result = tail.result();
      let ending = { code: ended?.code ?? null, signal: ended?.signal ?? null };
      if (networkFailure !== null)
        return reject(new SandboxError(`slirp4netns could not give the sandbox its network: ${networkFailure}`));
      if (status && !timedOut) {
        if (status.exitCode === undefined) return reject(new SandboxError(sandboxFailure(result.output_tail, ending)));
        ending = exitOf(status.exitCode);
      }
      resolve({
        started_at: startedAt,
        duration_ms: Math.round((performance.now() - start) * 10) / 10,
        exit_code: ending.code,
        signal: ending.signal,
        timed_out: timedOut,
        ...result,
      });
    };
    stdout.on('data', (chunk: Buffer) => tail.push(chunk));
    stderr.on('data', (chunk: Buffer) => tail.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      running.delete(killGroup);
      request.signal?.removeEventListener('abort', killGroup);
      if (child.pid === undefined) reject(new SpawnError(program, error));
    });
    child.on('exit', (code, signal) => {
      ended = { code, signal };
      killGroup(); // leftovers (a background grandchild) die with the test command
      grace = setTimeout(() => {
        stdout.destroy();
        stderr.destroy();
        statusPipe?.destroy();
      }, CLOSE_GRACE_MS);
    });
    child.on('close', () => {
      if (child.pid !== undefined) finish();
    });
  });
}

/** O_CLOEXEC in the octal `flags:` line of /proc/self/fdinfo/N. */
const O_CLOEXEC = 0o2000000;

/**
 * The descriptors above stderr that a program this process starts would inherit: those codelabgen
 * itself inherited without close-on-exec (Node opens its own with it), such as a folder or a log
 * file its caller left open (`exec 7</course`). Neither spawn nor bwrap closes them, and a folder's
 * descriptor leads past every bind of the sandbox (`/proc/self/fd/7/.codelabgen/...` is the host's
 * folder, writable). Empty where /proc is missing.
 */
export function inheritedDescriptors(procSelf = '/proc/self'): number[] {
  let names: string[];
  try {
    names = readdirSync(path.join(procSelf, 'fd'));
  } catch {
    return []; // no /proc (not Linux): nothing to read the flags from
  }
  return names.map(Number).filter((fd) => {
    if (!Number.isInteger(fd) || fd <= 2) return false;
    try {
      const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(path.join(procSelf, 'fdinfo', String(fd)), 'utf8'));
      return flags !== null && (Number.parseInt(flags[1]!, 8) & O_CLOEXEC) === 0;
    } catch {
      return false; // closed meanwhile (the folder's own descriptor): nothing to pass on
    }
  });
}

/** A child's descriptor: a pipe to this process, nothing, or a descriptor of this process dup2'ed in. */
type StdioEntry = 'pipe' | 'ignore' | number;

let devNull: number | undefined;

/**
 * `stdio` with /dev/null in the place of each inherited descriptor it does not already give a
 * pipe: the child (bwrap, the sandbox, the tests) then holds nothing of the caller's but what
 * `stdio` lists. Node's `ignore` past fd 2 leaves an inherited descriptor open; an fd number is
 * dup2'ed over it.
 */
export function withoutInherited(stdio: readonly StdioEntry[], inherited: readonly number[]): StdioEntry[] {
  const over = inherited.filter((fd) => fd >= stdio.length || stdio[fd] === 'ignore');
  if (over.length === 0) return [...stdio];
  devNull ??= openSync('/dev/null', 'r');
  const length = Math.max(stdio.length, ...over.map((fd) => fd + 1));
  // Dense: Node skips the holes of a sparse array and shifts the entries after them down.
  const full: StdioEntry[] = Array.from({ length }, (_, fd) => stdio[fd] ?? 'ignore');
  for (const fd of over) full[fd] = devNull;
  return full;
}

/** SIGKILL to every process of the group led by `pid` (the test command and all it started). */
function killProcessGroup(pid: number | undefined): void {
  if (pid !== undefined) killProcess(-pid);
}

function killProcess(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // ESRCH: already exited
  }
}

/** bwrap's `--json-status-fd` lines: `{"child-pid": N, ...}` when the sandbox starts, `{"exit-code": N}` when its command ends. */
class BwrapStatus {
  childPid: number | undefined;
  exitCode: number | undefined;
  /** Called once, when the sandbox's PID 1 is known. */
  onChildPid: ((pid: number) => void) | undefined;
  #pending = '';
  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (this.#pending + chunk).split('\n');
      this.#pending = lines.pop() ?? '';
      for (const line of lines) this.#read(line);
    });
    stream.on('end', () => this.#read(this.#pending));
  }
  #read(line: string): void {
    try {
      const fields = JSON.parse(line) as Record<string, unknown>;
      if (typeof fields['child-pid'] === 'number' && this.childPid === undefined) {
        this.childPid = fields['child-pid'];
        this.onChildPid?.(this.childPid);
      }
      if (typeof fields['exit-code'] === 'number') this.exitCode = fields['exit-code'];
    } catch {
      // not a status line (bwrap writes only JSON here): nothing to learn from it
    }
  }
}

/** bwrap reports a command killed by signal N as exit code 128 + N, like a shell: read it back as the signal. */
function exitOf(code: number): { code: number | null; signal: string | null } {
  const signal =
    code > 128 ? Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0] : undefined;
  return signal === undefined ? { code, signal: null } : { code: null, signal };
}

/** bwrap's own complaint (`bwrap: execvp python3: No such file or directory`), else how it ended. */
function sandboxFailure(output: string, ending: { code: number | null; signal: string | null }): string {
  const complaint = output
    .split('\n')
    .reverse()
    .find((line) => line.startsWith('bwrap: '));
  return complaint ?? `bwrap ended (${ending.signal ?? `exit ${ending.code}`}) before the tests started`;
}
