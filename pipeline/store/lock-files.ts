// The small files of the lock protocol (`lock`, `lock.break` and their temp files): written whole
// or not at all, read without ever blocking or following a link, the temp files a signal handler
// must remove, and refusals that name them.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RefusalError, StoreWriteError, errorCode, writeErrorReason } from '../course/errors.ts';
import { safeUnlink } from './atomic-write.ts';
import { faultPoint } from './fault.ts';

/** Temp files being written or waited on; releaseHeldLocks() removes them on SIGINT/SIGTERM. */
export const pendingTemps = new Set<string>();

/** Writes a whole new file; a failed write (disk full) removes it, so it never exists half-written. */
export function writeCompleteFile(file: string, text: string, step: 'lock-write' | 'guard-write'): void {
  try {
    const fd = openSync(file, 'wx', 0o644);
    try {
      faultPoint(step);
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    safeUnlink(file);
    throw writeRefusal(error, file);
  }
}

/** `.codelabgen/lock`, `.codelabgen/lock.break`: the name to show. */
export function lockName(file: string): string {
  return path.join(path.basename(path.dirname(file)), path.basename(file));
}

export function writeRefusal(error: unknown, file: string): RefusalError {
  const code = errorCode(error) ?? 'error';
  const lock = path.join(path.basename(path.dirname(file)), 'lock');
  return new StoreWriteError(
    `cannot write ${lock} (the course lock): ${writeErrorReason(error)} (${code}); nothing was changed`,
    [`check free space and permissions of ${path.dirname(file)}`],
    { cause: error },
  );
}

/** An owner record is under 1 KiB; a bigger `lock` or `lock.break` was not written by codelabgen. */
export const MAX_LOCK_FILE_BYTES = 64 * 1024;

/**
 * The text of `lock` or `lock.break` and its identity, or null when it is missing. Opened no-follow
 * and non-blocking and checked with fstat before any read, so a planted FIFO, device, symlink or
 * huge file is refused at once (naming it) instead of blocking the process or filling its memory: a
 * process blocked in open() or read() cannot even run its SIGTERM handler.
 */
export function readLockFile(file: string): { text: string; stats: Stats } | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw badLockFile(file, 'is a symbolic link, not a file', error);
    throw badLockFile(file, `cannot be read (${code ?? (error as Error).message})`, error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw badLockFile(file, `is ${kindOf(stats)}, not a file`);
    if (stats.size > MAX_LOCK_FILE_BYTES)
      throw badLockFile(file, `is ${stats.size} bytes (an owner record is under 1 KiB)`);
    const bytes = Buffer.alloc(MAX_LOCK_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const got = readSync(fd, bytes, length, bytes.length - length, length);
      length += got;
      if (got === 0 || length === bytes.length) break;
    }
    if (length > MAX_LOCK_FILE_BYTES)
      throw badLockFile(file, `grew past ${MAX_LOCK_FILE_BYTES} bytes while it was read`);
    return { text: bytes.toString('utf8', 0, length), stats };
  } finally {
    closeSync(fd);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** `lock` or `lock.break` in a form codelabgen never writes: refused, never removed for the user. */
export function badLockFile(file: string, what: string, cause?: unknown): RefusalError {
  return new RefusalError(
    `${lockName(file)} ${what}; codelabgen never creates it that way, so it is left alone`,
    [`if no codelabgen is running, remove ${file}, then retry`],
    cause === undefined ? undefined : { cause },
  );
}
