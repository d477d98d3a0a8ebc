// How a failed Astro run reaches the CLI: codelabgen's own errors (found anywhere in the cause
// chain) keep their name, message and hints; anything else becomes one line naming the command.
const OUR_ERRORS = new Set(['RefusalError', 'StoreWriteError', 'DataFileError', 'ChecksFailedError']);

export interface Failure {
  name: string;
  message: string;
  hints: string[];
}

export function failure(error: unknown, mode: string): Failure {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (OUR_ERRORS.has(e.name)) return { name: e.name, message: e.message, hints: (e as { hints?: string[] }).hints ?? [] };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { name: 'ChecksFailedError', message: `site ${mode} failed: ${oneLine(text) || 'unknown error'}`, hints: [] };
}

/** Astro's and Rolldown's messages span lines, carry colours and traces: one line, 400 characters. */
function oneLine(text: string): string {
  const withoutTrace = text.split(/Stack backtrace:|\n\s+at /)[0] ?? '';
  return withoutTrace.replace(/\u001b\[[0-9;]*m/g, '').replace(/\s+/g, ' ').trim().slice(0, 400);
}
