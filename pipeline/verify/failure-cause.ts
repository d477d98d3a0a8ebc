// The one-line cause of a failed run, drawn from its output: the first failing test and its
// assertion message, else the first error line; a timeout or a signal says so first.
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const MAX_CAUSE = 300;

export interface Ending {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  timeout_seconds: number;
}

/** Lines that name a failing test, with the capture being the name (or the whole line). */
const FAILING_TEST = [
  /^\s*not ok \d+ - (.+?)(?:\s+#.*)?$/, // TAP, node --test
  /^\s*✖ (?!failing tests:)(.+?)(?: \([\d.]+m?s\))?$/, // node spec reporter
  /^((?:FAILED|ERROR) \S+(?: - .+)?)$/, // pytest short summary
  /^((?:FAIL|ERROR): .+)$/, // unittest
  /^\s*● (?!Console)(.+)$/, // jest
  /^\s*(?:×|FAIL)\s+(.+)$/, // vitest
];
const ERROR_LINE = /^\s*(?:E\s+)?((?:[\w.]*(?:Error|Exception|Failure)(?: \[\w+\])?|AssertionError|assert|panic|Error):? .+)$/;
const TAP_ERROR = /^\s+error: (?:\|-?|'(.+)')\s*$/;

export function failureCause(output: string, ending: Ending): string {
  const lines = output.replace(ANSI, '').split(/\r?\n/);
  const detail = failingTest(lines) ?? firstErrorLine(lines, 0);
  if (ending.timed_out) return oneLine(`timed out after ${ending.timeout_seconds}s${detail ? `; ${detail}` : ''}`);
  if (ending.signal !== null) return oneLine(`killed by ${ending.signal}${detail ? `; ${detail}` : ''}`);
  if (detail) return oneLine(detail);
  const last = lines.map((line) => line.trim()).filter((line) => line !== '').at(-1);
  return oneLine(`exit code ${ending.exit_code ?? '?'}${last ? `: ${last}` : ' with no output'}`);
}

function failingTest(lines: string[]): string | null {
  for (let index = 0; index < lines.length; index += 1) {
    for (const pattern of FAILING_TEST) {
      const match = pattern.exec(lines[index]!);
      if (!match) continue;
      const name = match[1]!.trim();
      if (/ - \S/.test(name) && name.startsWith('FAILED')) return name; // pytest gives name and message
      const message = tapError(lines, index + 1) ?? firstErrorLine(lines, index + 1, index + 20);
      return message ? `${name}: ${message}` : name;
    }
  }
  return null;
}

function tapError(lines: string[], from: number): string | null {
  for (let index = from; index < Math.min(lines.length, from + 12); index += 1) {
    const match = TAP_ERROR.exec(lines[index]!);
    if (!match) continue;
    if (match[1] !== undefined) return match[1];
    return lines.slice(index + 1, index + 4).map((line) => line.trim()).find((line) => line !== '') ?? null;
  }
  return null;
}

function firstErrorLine(lines: string[], from: number, to = lines.length): string | null {
  for (let index = from; index < Math.min(to, lines.length); index += 1) {
    const match = ERROR_LINE.exec(lines[index]!);
    if (match) return match[1]!.trim();
  }
  return null;
}

function oneLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > MAX_CAUSE ? `${flat.slice(0, MAX_CAUSE - 3)}...` : flat;
}
