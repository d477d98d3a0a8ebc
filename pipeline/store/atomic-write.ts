// Atomic file replacement: temp file in the same folder, write, fsync, rename, fsync the folder.
// On any failure the temp file is removed and the old file is untouched. The folder fsync only makes
// the new name durable at once; state.json replacements skip it (docs/reliability.md, "fsyncs").
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
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
