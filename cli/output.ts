// Printing: stdout for people and JSON, stderr for diagnostics; colour on a TTY, or as FORCE_COLOR
// and NO_COLOR say.
export interface Output {
  color: boolean;
  isTTY: boolean;
  /** stdout is a terminal (a screen to redraw, `state watch`); `isTTY` is stderr's. */
  outIsTTY: boolean;
  /** stdout's width in columns (80 when unknown). */
  outColumns(): number;
  print(text?: string): void;
  json(value: unknown): void;
  /** A JSON document that is already text (ending in a newline), printed as it is. */
  jsonText(text: string): void;
  warn(text: string): void;
  /** Rewrites the current stderr line (progress on a TTY); no-op otherwise. */
  status(text: string): void;
  /** Erases the status line, so what follows (an error too) starts on a clean line. */
  clearStatus(): void;
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

/** NO_COLOR turns colour off; else FORCE_COLOR decides when set (0 or false: off, anything else: on); else the TTY. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
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
  const started = script.split(/[\\/]/);
  if (started.some((part, i) => part === 'node_modules' && started[i + 1] === '.bin')) return 'npx codelabgen';
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 1 || parts[at + 1] !== 'codelabgen') return 'codelabgen';
  return parts[at - 1] === 'lib' ? 'codelabgen' : 'npx codelabgen';
}

export function createOutput(stdout: Sink, stderr: Sink, env: NodeJS.ProcessEnv, invocation = 'codelabgen'): Output {
  const color = colorEnabled(stdout, env);
  const errIsTTY = stderr.isTTY === true;
  let statusShown = false;
  const clearStatus = () => {
    if (statusShown) stderr.write('\r\x1b[2K');
    statusShown = false;
  };
  return {
    color,
    isTTY: errIsTTY,
    outIsTTY: stdout.isTTY === true,
    outColumns: () => stdout.columns || 80,
    print: (text = '') => {
      clearStatus();
      stdout.write(`${asInvoked(text, invocation)}\n`);
    },
    json: (value) => stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    jsonText: (text) => stdout.write(text),
    warn: (text) => {
      clearStatus();
      stderr.write(`${asInvoked(text, invocation)}\n`);
    },
    status: (text) => {
      if (!errIsTTY) return;
      const width = Math.max(20, (stderr.columns || 80) - 1); // a pty may report 0 columns
      stderr.write(`\r\x1b[2K${text.length > width ? text.slice(0, width) : text}`);
      statusShown = true;
    },
    clearStatus,
    paint: (style, text) => {
      if (!color) return text;
      const [open, close] = CODES[style];
      return `\x1b[${open}m${text}\x1b[${close}m`;
    },
  };
}
