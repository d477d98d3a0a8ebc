// stdout and stderr for the CLI. On a pipe or a file, text goes straight to the file descriptor
// (fs.writeSync): creating process.stdout or process.stderr there loads Node's net and stream
// modules, a few ms of every command (docs/performance.md). On a terminal, or once a non-blocking
// descriptor is full (EAGAIN), the process's own stream takes over, and keeps the order of writes.
import { fstatSync, writeSync } from 'node:fs';

/** What cli/output.ts needs of stdout or stderr (a NodeJS.WriteStream is one too). */
export interface Sink {
  readonly isTTY: boolean;
  readonly columns: number | undefined;
  write(text: string): void;
}

/** Exported for its test (cli/stdio.test.ts); the CLI uses `stdout` and `stderr` below. */
export class Descriptor implements Sink {
  private direct: boolean | undefined;
  private terminal: boolean | undefined;
  /** The reader went away (EPIPE) or the descriptor is closed: later output is dropped. */
  private gone = false;

  private readonly fd: 1 | 2;
  private readonly stream: () => NodeJS.WriteStream;
  private readonly writeFd: typeof writeSync;

  constructor(fd: 1 | 2, stream: () => NodeJS.WriteStream, writeFd: typeof writeSync = writeSync) {
    this.fd = fd;
    this.stream = stream;
    this.writeFd = writeFd;
  }

  get isTTY(): boolean {
    this.terminal ??= isTerminal(this.fd);
    return this.terminal;
  }

  get columns(): number | undefined {
    return this.isTTY ? this.stream().columns : undefined;
  }

  /** Nothing written waits in a queue: it went straight to the descriptor, or the stream has sent it. */
  get drained(): boolean {
    return this.direct !== false || this.stream().writableLength === 0;
  }

  write(text: string): void {
    if (this.gone) return;
    this.direct ??= !this.isTTY;
    if (!this.direct) {
      this.stream().write(text);
      return;
    }
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; ) {
      try {
        at += this.writeFd(this.fd, bytes, at);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          this.direct = false; // the stream waits for the descriptor to drain
          this.stream().write(bytes.subarray(at));
        } else this.gone = true; // EPIPE (`| head`), EBADF: nobody reads what follows
        return;
      }
    }
  }
}

/** isatty() without loading node:tty when fstat already says pipe, file or socket. */
function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false; // closed
  }
  const { isatty } = process.getBuiltinModule('node:tty');
  return isatty(fd);
}

function stdoutStream(): NodeJS.WriteStream {
  const stream = process.stdout;
  if (stream.listenerCount('error') === 0) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0); // reader went away (| head)
    });
  }
  return stream;
}

const stdoutDescriptor = new Descriptor(1, stdoutStream);
const stderrDescriptor = new Descriptor(2, () => process.stderr);
export const stdout: Sink = stdoutDescriptor;
export const stderr: Sink = stderrDescriptor;

/** True when all output written so far has reached stdout and stderr (a process may exit now). */
export function outputDrained(): boolean {
  return stdoutDescriptor.drained && stderrDescriptor.drained;
}
