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

class Descriptor implements Sink {
  private direct: boolean | undefined;
  private terminal: boolean | undefined;
  /** The reader went away (EPIPE) or the descriptor is closed: later output is dropped. */
  private gone = false;

  private readonly fd: 1 | 2;
  private readonly stream: () => NodeJS.WriteStream;

  constructor(fd: 1 | 2, stream: () => NodeJS.WriteStream) {
    this.fd = fd;
    this.stream = stream;
  }

  get isTTY(): boolean {
    this.terminal ??= isTerminal(this.fd);
    return this.terminal;
  }

  get columns(): number | undefined {
    return this.isTTY ? this.stream().columns : undefined;
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
        at += writeSync(this.fd, bytes, at);
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

export const stdout: Sink = new Descriptor(1, stdoutStream);
export const stderr: Sink = new Descriptor(2, () => process.stderr);
