// What a command receives: parsed options and positionals, the environment and output streams.
// Commands print through it and never call process.exit. It imports nothing from pipeline/, so
// `--help` stays cheap; cli/course.ts resolves the course. The CLI gives it the process's streams;
// the MCP server (cli/mcp/invoke.ts) gives it buffers, a document as stdin and a progress callback.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOutput, invocationFor, type Output, type Sink } from './output.ts';
import { stderr, stdout } from './stdio.ts';

/** How far a long command (verify) is; the MCP server turns it into progress notifications. */
export interface ProgressUpdate {
  done: number;
  total: number;
  message: string;
  /** Updates sent per unit of `total` (verify: 2, a start and an end per lesson; else 1), so progress ends at its total. */
  updatesPerUnit?: number;
}

export interface ContextIo {
  stdout: Sink;
  stderr: Sink;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** What `-` reads (FILE|- options): the process's stdin, or a document the MCP client sent. */
  readStdin(): string;
  progress?: (update: ProgressUpdate) => void;
  /** Aborts when the caller gives up on the command (an MCP client cancelled the call). */
  signal?: AbortSignal;
  /** How the user runs the CLI (`npx codelabgen` from a project's install): printed commands say so. */
  invocation?: string;
}

export interface Context {
  command: string;
  /** The whole command line, recorded in events and the lock. */
  commandLine: string;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  out: Output;
  readStdin(): string;
  progress?: (update: ProgressUpdate) => void;
  signal?: AbortSignal | undefined;
  string(name: string): string | undefined;
  flag(name: string): boolean;
  list(name: string): string[];
}

export function processIo(): ContextIo {
  return {
    stdout,
    stderr,
    cwd: process.cwd(),
    env: process.env,
    readStdin: () => readFileSync(0, 'utf8'),
    invocation: processInvocation(),
  };
}

export function createContext(
  command: string,
  argv: string[],
  values: Context['values'],
  positionals: string[],
  io: ContextIo = processIo(),
): Context {
  const ctx: Context = {
    command,
    commandLine: ['codelabgen', ...argv].join(' ').slice(0, 500),
    values,
    positionals,
    cwd: io.cwd,
    env: io.env,
    out: createOutput(io.stdout, io.stderr, io.env, io.invocation),
    readStdin: io.readStdin,
    progress: io.progress,
    signal: io.signal,
    string: (name) => {
      const value = values[name];
      return typeof value === 'string' ? value : undefined;
    },
    flag: (name) => values[name] === true,
    list: (name) => {
      const value = values[name];
      return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    },
  };
  return ctx;
}

/** How this process's CLI is run (cli/output.ts invocationFor), from where its code is. */
export function processInvocation(): string {
  return invocationFor(fileURLToPath(import.meta.url), process.argv[1]);
}
