// Walking a lesson folder that a test may have filled with anything: bounded depth and file count,
// symlinks never followed, each file read in chunks (no whole-file reads). Used by the code hash,
// the docs snapshot and the write measure of `verify` (pipeline/verify/lesson-changes.ts).
// fs.opendirSync is read when a walk starts, not imported: reading it loads Node's fs/dir module,
// which a state command that walks no lesson folder would load for nothing (docs/performance.md).
import fs, { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { errorCode, RefusalError } from '../course/errors.ts';

/** Bounds of a walk; over them the walk throws a LessonLimitError naming the path. */
export interface WalkLimits {
  /** Folder levels below the root (a file directly in the root is at depth 0). */
  maxDepth: number;
  /** Entries seen (files, symlinks and folders). */
  maxFiles: number;
  /** Bytes of one file that is hashed. */
  maxFileBytes: number;
}

/** Lesson code: folders deeper than this, more files and folders, or a larger file are refused (docs/verify.md). */
export const CODE_LIMITS: WalkLimits = { maxDepth: 32, maxFiles: 20_000, maxFileBytes: 100 * 1024 * 1024 };

/** A lesson folder over a walk limit (a test left a huge, deep or crowded tree): a refusal naming the path. */
export class LessonLimitError extends RefusalError {
  constructor(message: string) {
    super(message, ['delete it (a lesson test may have left it), or move it out of the lesson folder']);
    this.name = 'LessonLimitError';
  }
}

export interface WalkedFile {
  /** Path relative to the root, `/`-separated. */
  relative: string;
  /** Apparent size in bytes (a symlink: its own). */
  bytes: number;
  symlink: boolean;
}

/**
 * Files (and symlinks) under `root` sorted by path, skipping the folders `skipDir` names; `label`
 * is how messages name the root. Refuses past the limits before reading further.
 */
export function walkFiles(
  root: string,
  label: string,
  limits: WalkLimits,
  skipDir: (relative: string, name: string) => boolean = () => false,
): WalkedFile[] {
  const files: WalkedFile[] = [];
  let entries = 0;
  const walk = (relative: string, depth: number) => {
    if (depth > limits.maxDepth)
      throw new LessonLimitError(`${shown(label, relative)} is nested more than ${limits.maxDepth} folders deep`);
    // Read entry by entry (opendir), so a folder with millions of entries is refused, not loaded.
    const folder = bounded(label, relative, () => fs.opendirSync(relative === '' ? root : path.join(root, relative)));
    try {
      for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) {
        entries += 1;
        if (entries > limits.maxFiles)
          throw new LessonLimitError(`${shown(label, '')} holds more than ${limits.maxFiles} files and folders`);
        const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.name.includes('\uFFFD')) refuseUndecodable(root, label, rel);
        if (entry.isDirectory()) {
          if (!skipDir(relative, entry.name)) walk(rel, depth + 1);
        } else if (entry.isFile() || entry.isSymbolicLink()) {
          const stat = bounded(label, rel, () => lstatSync(path.join(root, rel)));
          files.push({ relative: rel, bytes: stat.size, symlink: stat.isSymbolicLink() });
        }
      }
    } finally {
      folder.closeSync();
    }
  };
  walk('', 0);
  // Sorted by the whole path (as the hash always was), not folder by folder: `a-b` comes before `a/c`.
  return files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/** Feeds `update` the bytes a hash covers for one walked file: a symlink's target text (never followed), else the file's bytes in chunks. */
export function hashFileInto(
  update: (header: string, chunk?: Buffer) => void,
  root: string,
  label: string,
  file: WalkedFile,
  limits: WalkLimits,
): void {
  const full = path.join(root, file.relative);
  if (file.symlink) {
    const target = Buffer.from(`symlink:${safeReadlink(full)}`);
    update(`${file.relative}\0${target.length}\0`, target);
    return;
  }
  const fd = bounded(label, file.relative, () =>
    openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0)),
  );
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new LessonLimitError(`${shown(label, file.relative)} is not a regular file`);
    if (stat.size > limits.maxFileBytes)
      throw new LessonLimitError(
        `${shown(label, file.relative)} is ${mebibytes(stat.size)}, over the ${mebibytes(limits.maxFileBytes)} limit for one lesson file`,
      );
    update(`${file.relative}\0${stat.size}\0`);
    const buffer = Buffer.allocUnsafe(Math.min(stat.size, 1024 * 1024) || 1);
    let left = stat.size;
    while (left > 0) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, left), null);
      if (read === 0)
        throw new RefusalError(`${shown(label, file.relative)} changed while it was read; run the command again`);
      update('', buffer.subarray(0, read));
      left -= read;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A name that is not valid UTF-8 comes back from the folder with U+FFFD in place of its bytes and
 * cannot be opened by that name: refused naming it (a test can write one), not an ENOENT crash. A
 * name that really holds U+FFFD opens and passes.
 */
function refuseUndecodable(root: string, label: string, relative: string): void {
  try {
    lstatSync(path.join(root, relative));
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    throw new LessonLimitError(`${shown(label, relative)} has a name that is not valid UTF-8`);
  }
}

/** Runs a file system call on a walked path; a path too long for the system is a refusal naming it, not a crash. */
function bounded<T>(label: string, relative: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (errorCode(error) === 'ENAMETOOLONG')
      throw new LessonLimitError(`${shown(label, relative)} has a path longer than the system allows`);
    // a test may chmod a folder of its lesson to 000: a refusal naming it, not an internal error on every verify
    if (errorCode(error) === 'EACCES' || errorCode(error) === 'EPERM')
      throw new LessonLimitError(`${shown(label, relative)} cannot be read (permission denied)`);
    throw error;
  }
}

/** `3.0 GiB`, `300 MiB`, `1.5 MiB`. */
export function mebibytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  const mib = bytes / 1024 ** 2;
  return `${mib >= 10 ? Math.round(mib) : mib.toFixed(1)} MiB`;
}

function shown(label: string, relative: string): string {
  return relative === '' ? label : `${label}/${relative}`;
}

function safeReadlink(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '?'; // gone between the listing and now: hashed as unreadable
  }
}
