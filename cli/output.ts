// Printing: stdout for people and JSON, stderr for diagnostics; colour only on a TTY without NO_COLOR.
export interface Output {
  color: boolean;
  isTTY: boolean;
  print(text?: string): void;
  json(value: unknown): void;
  warn(text: string): void;
  /** Rewrites the current stderr line (progress on a TTY); no-op otherwise. */
  status(text: string): void;
  paint(style: Style, text: string): string;
}

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';
const CODES: Record<Style, [number, number]> = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] };

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

export function createOutput(stdout: NodeJS.WriteStream, stderr: NodeJS.WriteStream, env: NodeJS.ProcessEnv): Output {
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
    print: (text = '') => {
      clearStatus();
      stdout.write(`${text}\n`);
    },
    json: (value) => stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    warn: (text) => {
      clearStatus();
      stderr.write(`${text}\n`);
    },
    status: (text) => {
      if (!errIsTTY) return;
      const width = Math.max(20, (stderr.columns ?? 80) - 1);
      stderr.write(`\r\x1b[2K${text.length > width ? text.slice(0, width) : text}`);
      statusShown = true;
    },
    paint: (style, text) => {
      if (!color) return text;
      const [open, close] = CODES[style];
      return `\x1b[${open}m${text}\x1b[${close}m`;
    },
  };
}
