// Reading a file a worker may have written (docs/security.md): regular files only, up to a size
// limit. The type is checked before the file is opened, and the open never blocks (O_NONBLOCK), so a
// FIFO, device or socket put where a file is expected is refused at once instead of hanging the read.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** A file that is not a regular file, or larger than its limit; `reason` reads after the file name. */
export class UnreadableFileError extends Error {
  readonly reason: string;
  /** What is wrong: not a regular file, too large, or replaced while it was read. */
  readonly kind: 'type' | 'size' | 'changed';
  constructor(kind: UnreadableFileError['kind'], reason: string) {
    super(reason);
    this.name = 'UnreadableFileError';
    this.kind = kind;
    this.reason = reason;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'a special file';
}

function checked(stats: Stats, maxBytes: number): void {
  if (stats.isDirectory()) throw new UnreadableFileError('type', 'is a folder, not a file');
  if (!stats.isFile()) throw new UnreadableFileError('type', `is ${kindOf(stats)}, not a regular file`);
  if (stats.size > maxBytes) throw new UnreadableFileError('size', `is ${stats.size} bytes; the limit is ${maxBytes}`);
}

export interface ReadOptions {
  /**
   * The path is already real (pipeline/course/confined.ts resolved it): a symlink found there now
   * was swapped in since, so it is refused (lstat, O_NOFOLLOW) instead of followed.
   */
  noFollow?: boolean;
}

function openNonBlocking(absPath: string, noFollow: boolean): number {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
  try {
    return openSync(absPath, flags | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && noFollow)
      throw new UnreadableFileError('changed', 'was replaced by a symbolic link while it was read');
    throw error;
  }
}

/**
 * The bytes of the regular file at `absPath` (symlinks followed unless `noFollow`: the caller has
 * checked where it resolves), at most `maxBytes`. UnreadableFileError for anything else; fs errors
 * (ENOENT, EACCES) pass through with their code.
 */
export function readRegularFile(absPath: string, maxBytes: number, options: ReadOptions = {}): Buffer {
  const noFollow = options.noFollow === true;
  const before = noFollow ? lstatSync(absPath) : statSync(absPath);
  if (noFollow && before.isSymbolicLink())
    throw new UnreadableFileError('changed', 'was replaced by a symbolic link while it was read');
  checked(before, maxBytes);
  const fd = openNonBlocking(absPath, noFollow);
  try {
    const opened = fstatSync(fd);
    checked(opened, maxBytes);
    if (opened.ino !== before.ino || opened.dev !== before.dev)
      throw new UnreadableFileError('changed', 'changed while it was read');
    // One byte more than the size: a file that grew while it was read is refused, not cut short.
    const buffer = Buffer.alloc(opened.size + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length === buffer.length) throw new UnreadableFileError('changed', 'changed while it was read');
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
