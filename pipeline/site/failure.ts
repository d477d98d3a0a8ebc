// How a failed Astro run reaches the CLI: codelabgen's own errors (found anywhere in the cause
// chain) cross the IPC channel as their exit code and printed lines, which the CLI re-raises as a
// `RelayedError` with the same code; anything else becomes one line naming the command (exit 1).
import { EXIT, type ExitCode } from '../course/errors.ts';

export interface Failure {
  exitCode: ExitCode;
  /** The `error:` line, as the error's own report() prints it. */
  error: string;
  hints: string[];
}

/**
 * An error that carries its exit code and report (CodelabgenError). Recognised by shape, not by
 * class: the worker loads the error classes both from dist/ and, inside Vite, from the sources.
 */
function reported(error: Error): Failure | undefined {
  const candidate = error as Partial<{ exitCode: unknown; report: unknown }>;
  const exitCode = candidate.exitCode;
  if ((exitCode !== EXIT.refused && exitCode !== EXIT.checkFailed) || typeof candidate.report !== 'function')
    return undefined;
  const { error: line, hints } = (candidate.report as () => { error: string; hints: string[] }).call(error);
  return { exitCode, error: line, hints };
}

export function failure(error: unknown, mode: string): Failure {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const ours = reported(e);
    if (ours) return ours;
  }
  const text = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT.checkFailed, error: `site ${mode} failed: ${oneLine(text) || 'unknown error'}`, hints: [] };
}

/** Astro's and Rolldown's messages span lines, carry colours and traces: one line, 400 characters. */
function oneLine(text: string): string {
  const withoutTrace = text.split(/Stack backtrace:|\n\s+at /)[0] ?? '';
  return withoutTrace
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 400);
}
