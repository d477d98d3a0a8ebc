// Printing: stdout for people and JSON, stderr for diagnostics; colour on a TTY, or as FORCE_COLOR
// and NO_COLOR say, decided for each stream; the progress line of long work (status) only where it
// can be redrawn (progressLine). Every human line passes one filter (terminalText) before it is
// written, so no course text moves the cursor, sets a title or writes the clipboard (docs/security.md
// "The terminal").
import { escapeControl } from '../pipeline/state-commands.ts';

export interface Output {
  /** stdout's colour (colorEnabled); stderr's is decided on its own. */
  color: boolean;
  /** A progress line is drawn on stderr (progressLine): long work shows one through status(), else plain lines. */
  live: boolean;
  /** stdout is a terminal (a screen to redraw, `state watch`). */
  outIsTTY: boolean;
  /** stdout's width in columns (80 when unknown). */
  outColumns(): number;
  print(text?: string): void;
  json(value: unknown): void;
  /** A JSON document that is already text (ending in a newline), printed as it is. */
  jsonText(text: string): void;
  warn(text: string): void;
  /** Rewrites the current stderr line (the progress line, when `live`); no-op otherwise. */
  status(text: string): void;
  /** Erases the status line, so what follows (an error too) starts on a clean line. */
  clearStatus(): void;
  /** Redraws the whole stdout screen with `lines` (`state watch` on a terminal); `clear` wipes it first. */
  screen(lines: string[], clear: boolean): void;
  paint(style: Style, text: string): string;
}

/** Where output goes: a process stream, or a buffer when a command runs inside the MCP server. */
export interface Sink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';
const CODES: Record<Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

/** The codes paint() writes: with colour on, the only escape sequences human output keeps. */
const PAINTED = new RegExp(`(\x1b\\[(?:${[...new Set(Object.values(CODES).flat())].join('|')})m)`);
const ALL_PAINTED = new RegExp(PAINTED.source, 'g');

/**
 * The one filter of human output: every control character of `text` shown escaped (escapeControl),
 * line breaks and tabs kept, and with `color` the exact codes paint() writes. Course text with an
 * escape sequence of its own (a title, a block reason, test output) reaches the terminal inert.
 */
export function terminalText(text: string, color: boolean): string {
  const line = (part: string) => part.split('\t').map(escapeControl).join('\t');
  return text
    .split('\n')
    .map((row) => (color ? row.split(PAINTED) : [row]).map((part, i) => (i % 2 === 1 ? part : line(part))).join(''))
    .join('\n');
}

/** JSON for the terminal: JSON.stringify leaves C1 controls and bidi overrides raw; as \u escapes they read the same. */
function jsonSafe(text: string): string {
  return text.replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** NO_COLOR turns colour off; else FORCE_COLOR decides when set (0 or false: off, anything else: on); else the TTY. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/**
 * The one rule for progress displays (verify --all's running lessons, site build's steps): a line
 * redrawn in place (carriage return, erase line) only when stderr is a terminal that can move the
 * cursor, i.e. not TERM=dumb (editors' shells, which print the codes); else plain lines, or none.
 * NO_COLOR takes the colours off, not the progress line, which has none: NO_COLOR is about colour
 * only, and cargo, npm and pnpm keep their progress displays under it (docs/protocol.md).
 */
export function progressLine(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The CLI's commands, as a printed command line starts (`codelabgen site dev ...`). */
const MENTION =
  /(?<!npx)(^|[\s(`'"=:])codelabgen (?=(?:check|completion|conventions|init|mcp|new|register|report|schema|site|state|status|verify)\b|--)/g;

/** `text` with each command it names written as the user runs this CLI (`npx codelabgen ...`). */
export function asInvoked(text: string, invocation: string): string {
  return invocation === 'codelabgen' ? text : text.replace(MENTION, `$1${invocation} `);
}

/**
 * How the user runs the CLI whose code is at `file`, started as `script` (process.argv[1]): from a
 * project's own install (its node_modules/.bin, a linked folder install too, or npx's cache) the
 * command is not on PATH, so `npx codelabgen`; from a global install (`<prefix>/lib/node_modules`,
 * `<prefix>/bin`) or a checkout, `codelabgen`.
 */
export function invocationFor(file: string, script = ''): string {
  // Split at / and \ without a regular expression (V8 compiles each one a process runs)
  const started = script.replaceAll('\\', '/').split('/');
  if (started.some((part, i) => part === 'node_modules' && started[i + 1] === '.bin')) return 'npx codelabgen';
  const parts = file.replaceAll('\\', '/').split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 1 || parts[at + 1] !== 'codelabgen') return 'codelabgen';
  return parts[at - 1] === 'lib' ? 'codelabgen' : 'npx codelabgen';
}

export function createOutput(stdout: Sink, stderr: Sink, env: NodeJS.ProcessEnv, invocation = 'codelabgen'): Output {
  const color = colorEnabled(stdout, env);
  // Lines for stderr are painted with stdout's choice (paint() does not know where they go): on a
  // stderr without colour (redirected to a file while stdout is a terminal) the paint comes off.
  const errColor = colorEnabled(stderr, env);
  const forStderr = (text: string) => (color && !errColor ? text.replace(ALL_PAINTED, '') : text);
  const live = progressLine(stderr, env);
  let statusShown = false;
  const clearStatus = () => {
    if (statusShown) stderr.write('\r\x1b[2K');
    statusShown = false;
  };
  return {
    color,
    live,
    outIsTTY: stdout.isTTY === true,
    outColumns: () => stdout.columns || 80,
    print: (text = '') => {
      clearStatus();
      stdout.write(`${terminalText(asInvoked(text, invocation), color)}\n`);
    },
    json: (value) => stdout.write(`${jsonSafe(JSON.stringify(value, null, 2))}\n`),
    jsonText: (text) => stdout.write(jsonSafe(text)),
    warn: (text) => {
      clearStatus();
      stderr.write(`${terminalText(forStderr(asInvoked(text, invocation)), errColor)}\n`);
    },
    status: (text) => {
      if (!live) return;
      const width = Math.max(20, (stderr.columns || 80) - 1); // a pty may report 0 columns
      const line = terminalText(text.replace(/\n/g, ' '), false);
      stderr.write(`\r\x1b[2K${line.length > width ? line.slice(0, width) : line}`);
      statusShown = true;
    },
    clearStatus,
    screen: (lines, clear) => {
      const rows = lines.map((line) => `${terminalText(line.replace(/\n/g, ' '), color)}\x1b[K`);
      stdout.write(`${clear ? '\x1b[2J' : ''}\x1b[H${rows.join('\n')}\n\x1b[J`);
    },
    paint: (style, text) => {
      if (!color) return text;
      const [open, close] = CODES[style];
      return `\x1b[${open}m${text}\x1b[${close}m`;
    },
  };
}
