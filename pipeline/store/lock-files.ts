// The small files of the lock protocol (`lock`, `lock.break` and their temp files): written whole
// or not at all, the temp files a signal handler must remove, and refusals that name them.
import { closeSync, openSync, writeFileSync } from 'node:fs';
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

/** `lock` or `lock.break` that cannot be read as a file (a folder, say): never removed for the user. */
export function notAFileRefusal(error: unknown, file: string): RefusalError {
  const code = errorCode(error);
  const what = code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read (${code ?? (error as Error).message})`;
  return new RefusalError(
    `${lockName(file)} ${what}; codelabgen never creates it that way, so it is left alone`,
    [`if no codelabgen is running, remove ${file}, then retry`],
    { cause: error },
  );
}
