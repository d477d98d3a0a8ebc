// Runs one command module inside the MCP server exactly as the CLI runs it (the same module, the
// same store and decisions: one locked, logged commit), with its output captured instead of
// printed and its exit code returned instead of set. Nothing is kept between calls.
import type { ContextIo, ProgressUpdate } from '../context.ts';
import { createContext } from '../context.ts';
import { EXIT } from '../exit-codes.ts';
import { describeError } from '../settle.ts';
import type { Sink } from '../output.ts';
import type { Invocation } from './tools.ts';
import type { CommandSpec } from '../spec.ts';

export interface Outcome {
  exitCode: number;
  /** What the command printed on stdout: its --json document. */
  stdout: string;
  /** Warnings it printed on stderr (notices, verify's lesson lines). */
  stderr: string;
  /** The `error: ...` and `hint: ...` lines (exit 1-3), or null. */
  error: string | null;
}

function buffer(): Sink & { text(): string } {
  const chunks: string[] = [];
  return { write: (text: string) => chunks.push(text), isTTY: false, text: () => chunks.join('') };
}

export interface InvokeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  progress?: (update: ProgressUpdate) => void;
  /** The client cancelled the call: verify stops its tests and records nothing. */
  signal?: AbortSignal;
}

export async function invoke(spec: CommandSpec, invocation: Invocation, options: InvokeOptions): Promise<Outcome> {
  const stdout = buffer();
  const stderr = buffer();
  const io: ContextIo = {
    stdout,
    stderr,
    cwd: options.cwd,
    env: options.env,
    // Never the process's stdin: in the server it is the JSON-RPC channel.
    readStdin: () => invocation.stdin ?? '',
    progress: options.progress,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  try {
    const module = await spec.load();
    const ctx = createContext(spec.name, invocation.argv, invocation.values, invocation.positionals, io);
    const exitCode = (await module.run(ctx)) ?? EXIT.ok;
    return { exitCode, stdout: stdout.text(), stderr: stderr.text(), error: null };
  } catch (error) {
    const { exitCode, text } = describeError(error);
    return { exitCode, stdout: stdout.text(), stderr: stderr.text(), error: text.trimEnd() };
  }
}
