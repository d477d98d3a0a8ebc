// Atomic file replacement: temp file in the same folder, write, fsync, rename, fsync the folder.
// On any failure the temp file is removed and the old file is untouched. The folder fsync only makes
// the new name durable at once; state.json replacements skip it (docs/reliability.md, "fsyncs").
import {
  closeSync,
  constants,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { faultPoint } from './fault.ts';
import { uniqueHex } from './unique-name.ts';

export function tempPathFor(target: string): string {
  return `${target}.${process.pid}.${uniqueHex()}.tmp`;
}

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    // Some platforms (Windows) cannot fsync a folder; the rename itself is still atomic.
    if (process.platform !== 'win32') throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Creates `file` (which must not exist), writes all of `data` and fsyncs it. */
export function writeNewFileDurably(file: string, data: string | Uint8Array, beforeWrite?: () => void): void {
  const fd = openSync(file, 'wx', 0o644);
  try {
    beforeWrite?.();
    writeFileSync(fd, data); // on an fd, writeFileSync loops until every byte is written
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const COPY_CHUNK_BYTES = 1 << 20;

/**
 * Creates `target` (which must not exist) holding `range` of `source`, read in chunks, and fsyncs
 * it. A chunk of zero bytes is skipped, not written: the copy of a sparse range stays sparse.
 */
export function copyRangeDurably(
  source: string,
  range: { offset: number; length: number },
  target: string,
  beforeWrite?: () => void,
): void {
  const from = openSync(source, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const fd = openSync(target, 'wx', 0o644);
    try {
      beforeWrite?.();
      const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(COPY_CHUNK_BYTES, range.length)));
      const zeros = Buffer.alloc(chunk.length);
      for (let done = 0; done < range.length; ) {
        const got = readSync(from, chunk, 0, Math.min(chunk.length, range.length - done), range.offset + done);
        if (got === 0) break;
        if (!chunk.subarray(0, got).equals(zeros.subarray(0, got))) {
          for (let written = 0; written < got; )
            written += writeSync(fd, chunk, written, got - written, done + written);
        }
        done += got;
      }
      ftruncateSync(fd, range.length);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } finally {
    closeSync(from);
  }
}

/**
 * Writes all of `data` to `target` atomically. `faults` enables the store's fault seam steps.
 * `syncFolder: false` leaves the rename to the filesystem's next journal commit: after a power loss
 * the folder holds either the old file or the new one, each complete (the temp file is fsynced).
 */
export function writeFileAtomic(target: string, data: string | Uint8Array, faults = false, syncFolder = true): void {
  const temp = tempPathFor(target);
  let renamed = false;
  try {
    writeNewFileDurably(temp, data, faults ? () => faultPoint('temp-write') : undefined);
    if (faults) faultPoint('after-temp-write');
    if (faults) faultPoint('rename');
    renameSync(temp, target);
    renamed = true;
    if (faults) faultPoint('after-rename');
    if (syncFolder) fsyncDir(path.dirname(target));
  } catch (error) {
    if (!renamed) safeUnlink(temp);
    throw error;
  }
}

export function safeUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone, or the folder is read-only: nothing more to clean
  }
}
