// All-or-nothing changes of course files: the one place a command writes files of the course
// (docs/reliability.md, "Changes of several files"). Every file is first written whole into a
// staging folder, `.codelabgen/change.<pid>.<hex>.tmp/`, so all the disk space the change needs is
// taken before anything is committed; the files are moved into place (renames) only after the
// change's event is durable, or, for a change without event, its manifest. A failure before that
// removes the staging folder (nothing changed), a failure while moving puts back what was moved,
// and a process killed after the commit leaves the folder and its manifest for the next command's
// recovery to finish (recoverStagedChanges).
import { copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type Course, insideCourse } from '../course/course.ts';
import { RefusalError, errorCode } from '../course/errors.ts';
import { fsyncDir, safeUnlink, tempPathFor, writeFileAtomic, writeNewFileDurably } from './atomic-write.ts';
import { faultPoint } from './fault.ts';
import { uniqueHex } from './unique-name.ts';
import { writeFailure } from './write-error.ts';

/** One entry of a change: a file with its bytes, or an empty folder; `path` is course-relative. */
export type CourseWrite = { path: string; data: string | Uint8Array } | { path: string; folder: true };

export interface Move {
  /** Staging-relative path of the staged copy. */
  staged: string;
  /** Course-relative path it is moved to: a new file or folder (the highest one missing), or a file it replaces. */
  target: string;
  replaces: boolean;
}

export interface Manifest {
  moves: Move[];
  /** The change's first event line and its offset in events.jsonl: the change is committed when the log holds it there. */
  event?: { offset: number; line: string };
}

export const STAGING_FOLDER = /^change\.(\d+)\.[0-9a-f]+\.tmp$/;
export const MANIFEST = 'manifest.json';

/** A move that failed after the commit point; `undone`: every earlier move was put back. */
export class MoveError extends Error {
  readonly target: string;
  readonly undone: boolean;
  constructor(target: string, undone: boolean, options: ErrorOptions) {
    super(`cannot move ${target} into place`, options);
    this.target = target;
    this.undone = undone;
  }
}

export class StagedChange {
  private readonly moved: Move[] = [];
  private readonly course: Course;
  readonly dir: string;
  readonly moves: readonly Move[];

  private constructor(course: Course, dir: string, moves: readonly Move[]) {
    this.course = course;
    this.dir = dir;
    this.moves = moves;
  }

  /** Writes every entry into a new staging folder; on any failure removes it and refuses (nothing changed). */
  static stage(course: Course, writes: readonly CourseWrite[], what: string): StagedChange {
    const dir = path.join(course.dir, `change.${process.pid}.${uniqueHex()}.tmp`);
    let current = writes[0]?.path ?? path.basename(course.dir);
    try {
      mkdirSync(dir, { mode: 0o755 });
      mkdirSync(path.join(dir, 'files'));
      const moves = new Map<string, Move>();
      for (const write of writes) {
        current = write.path;
        const target = insideCourse(course, write.path, what);
        const top = relative(course, highestMissing(course, target));
        const earlier = moves.get(top);
        if (earlier !== undefined && (earlier.replaces || top === write.path))
          throw new RefusalError(`${what}: ${write.path} is written twice in one change`);
        const replaces = kindOf(target) !== null;
        if (replaces) keepBackup(course, dir, write, target, what);
        if (earlier === undefined) moves.set(top, { staged: path.join('files', top), target: top, replaces });
        const staged = path.join(dir, 'files', relative(course, target));
        mkdirSync(path.dirname(staged), { recursive: true });
        faultPoint('change-stage');
        if ('folder' in write) mkdirSync(staged);
        else writeNewFileDurably(staged, write.data);
      }
      syncTree(path.join(dir, 'files'));
      return new StagedChange(course, dir, [...moves.values()]);
    } catch (error) {
      removeFolder(dir);
      throw writeFailure(error, current, 'nothing was changed');
    }
  }

  /** Writes the manifest (with the event's first line and offset, if any): durable before the event is. */
  seal(event?: Manifest['event']): void {
    const manifest: Manifest = { moves: [...this.moves], ...(event && { event }) };
    try {
      writeFileAtomic(path.join(this.dir, MANIFEST), `${JSON.stringify(manifest)}\n`);
      fsyncDir(path.dirname(this.dir));
      faultPoint('change-seal');
    } catch (error) {
      this.discard();
      throw writeFailure(error, path.relative(this.course.root, this.dir), 'nothing was changed');
    }
  }

  /** Moves every staged entry into place, then syncs their folders; a failure puts back what was moved. */
  apply(): void {
    for (const move of this.moves) {
      try {
        faultPoint('change-move');
        moveIn(this.course, this.dir, move);
        this.moved.push(move);
        faultPoint('after-change-move');
      } catch (error) {
        throw new MoveError(move.target, this.tryUndo(), { cause: error });
      }
    }
    const folders = new Set(this.moves.map((move) => path.dirname(path.join(this.course.root, move.target))));
    try {
      for (const folder of folders) fsyncDir(folder);
    } catch (error) {
      throw new MoveError(this.moves[0]?.target ?? '.', this.tryUndo(), { cause: error });
    }
  }

  /** Puts back what apply() moved, newest first; false when a move could not be put back. */
  tryUndo(): boolean {
    try {
      for (const move of [...this.moved].reverse()) {
        const target = path.join(this.course.root, move.target);
        renameSync(
          move.replaces ? path.join(this.dir, 'backup', move.target) : target,
          move.replaces ? target : path.join(this.dir, move.staged),
        );
        this.moved.pop();
      }
      return true;
    } catch {
      return false; // the staging folder keeps the manifest: the next command's recovery finishes the change
    }
  }

  /** Removes the staging folder (the staged copies left, the backups). */
  discard(): void {
    removeFolder(this.dir);
  }
}

/** Moves one staged entry into place; a new entry never replaces one that appeared meanwhile. */
export function moveIn(course: Course, dir: string, move: Move): void {
  const target = path.join(course.root, move.target);
  if (!move.replaces && kindOf(target) !== null)
    throw new RefusalError(`${move.target} appeared while the change was being made; nothing was moved over it`, [
      'move it away, then retry',
    ]);
  renameSync(path.join(dir, move.staged), target);
}

/** The highest folder above `target` (below the course root) that does not exist, or `target` itself. */
function highestMissing(course: Course, target: string): string {
  const parts = path.relative(course.root, target).split(path.sep);
  for (let count = 1; count < parts.length; count++) {
    const folder = path.join(course.root, ...parts.slice(0, count));
    if (kindOf(folder) === null) return folder;
  }
  return target;
}

/** An existing file the change replaces: a hard link kept as its backup (a copy where links fail), so a failed move can put it back. */
function keepBackup(course: Course, dir: string, write: CourseWrite, target: string, what: string): void {
  const kind = kindOf(target);
  if ('folder' in write || kind !== 'a file')
    throw new RefusalError(`${what}: ${write.path} is ${kind ?? 'missing'}; the change would replace it`, [
      'move it away, then retry',
    ]);
  const backup = path.join(dir, 'backup', relative(course, target));
  mkdirSync(path.dirname(backup), { recursive: true });
  try {
    linkSync(target, backup);
  } catch {
    copyFileSync(target, backup); // a filesystem without hard links
  }
}

function kindOf(file: string): string | null {
  try {
    const stats = lstatSync(file);
    if (stats.isFile()) return 'a file';
    if (stats.isDirectory()) return 'a folder';
    if (stats.isSymbolicLink()) return 'a symbolic link';
    return 'not a regular file';
  } catch {
    return null;
  }
}

function relative(course: Course, file: string): string {
  return path.relative(course.root, file);
}

/** fsyncs every folder of the staged tree, so the staged names are durable before the commit. */
function syncTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) syncTree(path.join(dir, entry.name));
  fsyncDir(dir);
}

export function removeFolder(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // a read-only or vanished folder: the next command's recovery removes a change left behind
  }
}

/**
 * Creates one new course file whole (temp file, fsync, hard link, so it never replaces one) and
 * returns true, or false when `relative` exists. A disk or permission failure is a refusal naming it.
 */
export function createCourseFile(course: Course, relative: string, data: string, what: string): boolean {
  const target = insideCourse(course, relative, what);
  const temp = tempPathFor(target);
  try {
    writeNewFileDurably(temp, data);
    linkSync(temp, target);
    fsyncDir(path.dirname(target));
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw writeFailure(error, relative, 'nothing was changed');
  } finally {
    safeUnlink(temp);
  }
}

/**
 * Makes the course folder `relative` (with its parents) when it is missing; true when it made one.
 * Runs outside the store's lock (a verify writes its run folder while others do), so a folder another
 * process made meanwhile is what was wanted; anything else in its place is still a refusal.
 */
export function makeCourseFolder(course: Course, relative: string, what: string): boolean {
  const target = insideCourse(course, relative, what);
  // One folder at a time: a recursive mkdir reports a read-only file system as ENOENT.
  const missing: string[] = [];
  for (let folder = target; kindOf(folder) === null && folder !== course.root; folder = path.dirname(folder))
    missing.unshift(folder);
  let made = false;
  for (const folder of missing) {
    try {
      mkdirSync(folder);
      made = true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST' && kindOf(folder) === 'a folder') continue;
      throw writeFailure(error, path.relative(course.root, folder), 'nothing was changed');
    }
  }
  return made;
}
