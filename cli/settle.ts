// How an error ends a command: its exit code and the `error: ...` line with its `hint: ...` lines
// (one line each). cli/run.ts settles on stderr; the MCP server settles into a tool result.
import { CodelabgenError, EXIT } from '../content-schemas/errors.ts';
import type { Sink } from './output.ts';

function oneLine(text: string): string {
  // C1 controls (U+009B is a one-character CSI), line separators and bidi overrides act on a terminal too.
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '?');
}

/** The exit code and the `error: ...` / `hint: ...` lines of an error; quiet: the command already said it (a --json document). */
export function describeError(error: unknown): { exitCode: number; text: string; quiet: boolean } {
  if (error instanceof CodelabgenError) {
    const { error: line, hints } = error.report();
    return {
      exitCode: error.exitCode,
      text: `error: ${oneLine(line)}\n${hints.map((hint) => `hint: ${oneLine(hint)}\n`).join('')}`,
      quiet: error.quiet,
    };
  }
  const e = error as Error | undefined;
  return { exitCode: EXIT.internal, text: `internal error: ${oneLine(e?.stack ?? String(error))}\n`, quiet: false };
}

/** Maps an error to its exit code and writes `error: ...` (one line, then optional hints) to `stderr`. */
export function settle(error: unknown, stderr: Sink): number {
  const { exitCode, text, quiet } = describeError(error);
  if (!quiet) stderr.write(text);
  return exitCode;
}
