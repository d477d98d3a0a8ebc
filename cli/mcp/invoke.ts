// Runs one command module inside the MCP server exactly as the CLI runs it (the same module, the
// same store and decisions: one locked, logged commit), with its output captured instead of
// printed and its exit code returned instead of set. Nothing is kept between calls.
import { spawn } from 'node:child_process';
import type { ContextIo, ProgressUpdate } from '../context.ts';
import { createContext } from '../context.ts';
import { EXIT } from '../exit-codes.ts';
import { loadCommand } from '../loaders.ts';
import { notifyAfter } from '../notify.ts';
import { describeError } from '../settle.ts';
import type { Sink } from '../output.ts';
import type { Invocation } from './tool-arguments.ts';
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

/** Commands that run as a child process of the server, so that a cancel can stop them (kill their process group). */
const IN_A_CHILD = new Set(['site build']);
/** `site build`'s steps (pipeline/site/integration.ts), for progress: loading, diagrams, pages, search, done. */
const SITE_STEPS = 5;

export async function invoke(spec: CommandSpec, invocation: Invocation, options: InvokeOptions): Promise<Outcome> {
  if (IN_A_CHILD.has(spec.name)) return invokeChild(invocation, options);
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
    const module = await loadCommand(spec.name);
    const ctx = createContext(spec.name, invocation.argv, invocation.values, invocation.positionals, io);
    const exitCode = (await module.run(ctx)) ?? EXIT.ok;
    await notifyAfter(spec, ctx);
    return { exitCode, stdout: stdout.text(), stderr: stderr.text(), error: null };
  } catch (error) {
    const { exitCode, text } = describeError(error);
    return { exitCode, stdout: stdout.text(), stderr: stderr.text(), error: text.trimEnd() };
  }
}

/**
 * Runs the command as `codelabgen <argv> --course C` in a child process group: its stdout is the
 * --json document, its `site build: <step>: <detail>` lines are progress, its `error:`/`hint:` lines
 * the refusal. A cancel kills the group (the Astro worker with it); a killed build leaves the
 * previous site in place and records nothing (docs/site.md).
 */
function invokeChild(invocation: Invocation, options: InvokeOptions): Promise<Outcome> {
  const course = invocation.values.course;
  const argv = [...invocation.argv, ...(typeof course === 'string' ? ['--course', course] : [])];
  if (options.signal?.aborted) return Promise.resolve(cancelled());
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [process.argv[1]!, ...argv], {
      cwd: options.cwd,
      env: { ...options.env, CODELABGEN_PROGRESS: 'lines' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: string[] = [];
    let stderr = '';
    let step = 0;
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      for (let at = stderr.indexOf('\n'); at !== -1; at = stderr.indexOf('\n')) {
        const line = stderr.slice(0, at);
        stderr = stderr.slice(at + 1);
        const progress = /^site build: (\w+): (.*)$/.exec(line);
        if (progress)
          options.progress?.({
            done: (step += 1),
            total: Math.max(step, SITE_STEPS),
            message: `${progress[1]}: ${progress[2]}`,
          });
        else lines.push(line);
      }
    });
    const lines: string[] = [];
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', kill);
      if (stderr !== '') lines.push(stderr);
      if (options.signal?.aborted) return resolve(cancelled());
      const errorAt = lines.findIndex((line) => line.startsWith('error: '));
      const error = errorAt === -1 ? null : lines.slice(errorAt).join('\n').trimEnd();
      const warnings = errorAt === -1 ? lines : lines.slice(0, errorAt);
      resolve({
        exitCode: code ?? EXIT.internal,
        stdout: stdout.join(''),
        stderr: warnings.join('\n'),
        error: error ?? (code === 0 ? null : `error: ${invocation.argv.join(' ')} ended with exit ${code}`),
      });
    });
  });
}

function cancelled(): Outcome {
  return {
    exitCode: EXIT.refused,
    stdout: '',
    stderr: '',
    error:
      'error: site build was cancelled: the build was stopped and nothing was recorded; the previous site is left as it was',
  };
}
