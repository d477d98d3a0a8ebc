// Why a run failed, drawn from its output: failureCause() is one line (the first failing test and
// its assertion message, else the first error line; a timeout or a signal first); failureEvidence()
// keeps a few lines of that test's message with the actual and expected values.
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const MAX_CAUSE = 300;
const MAX_EVIDENCE_LINES = 12;
const MAX_EVIDENCE = 1500;

export interface Ending {
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  timeout_seconds: number;
  /** The step that was running when the lesson's time ran out (`npm ci`, `the tests`). */
  timed_out_in?: string;
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
const ERROR_LINE =
  /^\s*(?:E\s+)?((?:[\w.]*(?:Error|Exception|Failure)(?: \[\w+\])?|AssertionError|assert|panic|Error):? .+)$/;
const TAP_ERROR = /^\s+error: (?:\|-?|'(.+)')\s*$/;

export function failureCause(output: string, ending: Ending): string {
  const lines = output.replace(ANSI, '').split(/\r?\n/);
  const detail = failingTest(lines) ?? firstErrorLine(lines, 0);
  if (ending.timed_out) {
    const where = ending.timed_out_in ? ` (the lesson's time, all its steps together), in ${ending.timed_out_in}` : '';
    return oneLine(`timed out after ${ending.timeout_seconds}s${where}${detail ? `; ${detail}` : ''}`);
  }
  if (ending.signal !== null) return oneLine(`killed by ${ending.signal}${detail ? `; ${detail}` : ''}`);
  if (detail) return oneLine(detail);
  const last = lines
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1);
  return oneLine(`exit code ${ending.exit_code ?? '?'}${last ? `: ${last}` : ' with no output'}`);
}

function failingTest(lines: string[]): string | null {
  for (let index = 0; index < lines.length; index += 1) {
    for (const pattern of FAILING_TEST) {
      const match = pattern.exec(lines[index]!);
      if (!match) continue;
      const name = match[1]!.trim();
      if (/ - \S/.test(name) && name.startsWith('FAILED')) return name; // pytest gives name and message
      const message = tapError(lines, index + 1) ?? withValues(lines, index + 1, index + 20);
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
    const block = lines
      .slice(index + 1, index + 6)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    return block.length === 0 ? null : block[0]!.endsWith(':') && block[1] ? `${block[0]} ${block[1]}` : block[0]!;
  }
  return null;
}

/** The first error line; when it ends with a colon ("Expected values to be strictly equal:"), the line with the values too. */
function withValues(lines: string[], from: number, to: number): string | null {
  for (let index = from; index < Math.min(to, lines.length); index += 1) {
    const match = ERROR_LINE.exec(lines[index]!);
    if (!match) continue;
    const first = match[1]!.trim();
    const next = lines
      .slice(index + 1, index + 4)
      .map((line) => line.trim())
      .find((line) => line !== '');
    return first.endsWith(':') && next !== undefined && !next.startsWith('at ') ? `${first} ${next}` : first;
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
  const flat = text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > MAX_CAUSE ? `${flat.slice(0, MAX_CAUSE - 3)}...` : flat;
}

/**
 * The first failing test's name and its message, a few lines (node test runner TAP or spec,
 * pytest, unittest); null when the output names no failing test.
 */
export function failureEvidence(output: string): string | null {
  const lines = output
    .replace(ANSI, '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd());
  const found = tapEvidence(lines) ?? specEvidence(lines) ?? pytestEvidence(lines) ?? unittestEvidence(lines);
  if (found === null) return null;
  const body = dedent(found.message.filter((line) => line.trim() !== '')).slice(0, MAX_EVIDENCE_LINES - 1);
  const text = [found.name, ...body.map((line) => `  ${line}`)]
    .join('\n')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]+/g, ' ');
  return text.length > MAX_EVIDENCE ? `${text.slice(0, MAX_EVIDENCE - 3)}...` : text;
}

interface Found {
  name: string;
  message: string[];
}

const indentOf = (line: string) => line.length - line.trimStart().length;

function dedent(lines: string[]): string[] {
  const common = Math.min(...lines.map(indentOf));
  return lines.map((line) => line.slice(Number.isFinite(common) ? common : 0));
}

/** node --test TAP: `not ok N - name`, then the YAML block's `error:` text and scalar actual/expected. */
function tapEvidence(lines: string[]): Found | null {
  const start = lines.findIndex((line) => /^\s*not ok \d+ - /.test(line));
  if (start < 0) return null;
  const name = /^\s*not ok \d+ - (.+?)(?:\s+#.*)?$/.exec(lines[start]!)![1]!;
  const message: string[] = [];
  const values: string[] = [];
  for (
    let index = start + 1;
    index < lines.length && !/^\s*(?:\.\.\.|(?:not )?ok \d+)/.test(lines[index]!);
    index += 1
  ) {
    const line = lines[index]!;
    const error = /^(\s+)error: (?:'(.*)'|"(.*)"|(\|-?))$/.exec(line);
    if (error) {
      if (error[4] === undefined) message.push(error[2] ?? error[3] ?? '');
      const keyIndent = error[1]!.length;
      while (index + 1 < lines.length && (lines[index + 1]!.trim() === '' || indentOf(lines[index + 1]!) > keyIndent))
        message.push(lines[(index += 1)]!);
    }
    const value = /^\s+((?:actual|expected): \S.*)$/.exec(line);
    if (value) values.push(value[1]!);
  }
  return { name, message: [...dedent(message.filter((line) => line.trim() !== '')), ...values] };
}

/** node --test spec reporter: the first entry under `✖ failing tests:` (else the first ✖), its message, actual and expected. */
function specEvidence(lines: string[]): Found | null {
  const section = lines.findIndex((line) => /^\s*✖ failing tests:/.test(line));
  const start = lines.findIndex((line, index) => index > section && /^\s*✖ (?!failing tests:)/.test(line));
  if (start < 0) return null;
  const name = /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/.exec(lines[start]!)![1]!;
  const message: string[] = [];
  let index = start + 1;
  for (; index < lines.length && !/^\s+at /.test(lines[index]!) && !/^\s*✖ /.test(lines[index]!); index += 1)
    message.push(lines[index]!);
  for (; index < lines.length && !/^\s*(?:}|✖ )/.test(lines[index]!); index += 1) {
    const value = /^\s+((?:actual|expected): .+?),?$/.exec(lines[index]!);
    if (value) message.push(`  ${value[1]}`);
  }
  return { name, message };
}

/** pytest: the first `___ name ___` section's `E` lines, named by its short-summary node id when there is one. */
function pytestEvidence(lines: string[]): Found | null {
  const start = lines.findIndex((line) => /^_{3,} (.+?) _{3,}$/.test(line));
  if (start < 0) return null;
  const header = /^_{3,} (.+?) _{3,}$/.exec(lines[start]!)![1]!;
  const nodeId = lines
    .map((line) => /^FAILED (\S+)/.exec(line)?.[1])
    .find((id) => id !== undefined && id.endsWith(header.replace(/\./g, '::')));
  const message: string[] = [];
  for (let index = start + 1; index < lines.length && !/^(?:_{3,} |={3,})/.test(lines[index]!); index += 1) {
    const line = /^E {0,3}(.*)$/.exec(lines[index]!);
    if (line) message.push(line[1]!);
  }
  return { name: nodeId ?? header, message };
}

/** unittest: `FAIL: name`, then the exception line after the traceback and what follows it. */
function unittestEvidence(lines: string[]): Found | null {
  const start = lines.findIndex((line) => /^(?:FAIL|ERROR): /.test(line));
  if (start < 0) return null;
  const message: string[] = [];
  let index = lines.findIndex((line, i) => i > start && line.startsWith('Traceback'));
  if (index < 0) return { name: lines[start]!.replace(/^(?:FAIL|ERROR): /, ''), message };
  while (index + 1 < lines.length && (lines[index + 1]!.startsWith(' ') || lines[index + 1]!.trim() === '')) index += 1;
  for (index += 1; index < lines.length && !/^(?:-{10,}|={10,})$/.test(lines[index]!); index += 1)
    message.push(lines[index]!);
  return { name: lines[start]!.replace(/^(?:FAIL|ERROR): /, ''), message };
}
