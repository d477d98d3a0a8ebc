// Recovery of changes a killed process left staged (staged-change.ts): under the lock, a staging
// folder of a process that is gone is finished when its change committed (its event is in the log
// at the recorded offset, or it has a manifest and no event) and removed otherwise.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import type { Course } from '../course/course.ts';
import { MANIFEST, STAGING_FOLDER, moveIn, removeFolder, type Manifest } from './staged-change.ts';
import { pidAlive } from './process-identity.ts';
import { writeFailure } from './write-error.ts';

const MAX_MANIFEST_BYTES = 1 << 20;

/** Finishes or removes the changes of gone processes; returns what it did, for the command's notices. */
export function recoverStagedChanges(course: Course, logFile: string): string[] {
  const notices: string[] = [];
  for (const name of readdirSync(course.dir)) {
    const match = name.endsWith('.tmp') ? STAGING_FOLDER.exec(name) : null; // no expression compiled for the rest
    if (!match || pidAlive(Number(match[1]))) continue;
    const dir = path.join(course.dir, name);
    const manifest = readManifest(path.join(dir, MANIFEST));
    if (manifest !== null && (manifest.event === undefined || holdsLine(logFile, manifest.event))) {
      const left = manifest.moves.filter((move) => exists(path.join(dir, move.staged))); // the others moved before the process died
      for (const move of left) {
        try {
          moveIn(course, dir, move);
        } catch (error) {
          throw writeFailure(
            error,
            move.target,
            `the interrupted change stays in ${path.relative(course.root, dir)} until it can be finished`,
          );
        }
      }
      if (left.length > 0)
        notices.push(
          `recovered: finished moving in the files of an interrupted change (${left.map((move) => move.target).join(', ')})`,
        );
    } else notices.push('recovered: removed the staged files of an interrupted change that was never committed');
    removeFolder(dir);
  }
  return notices;
}

/** True when the log holds exactly `line` at `offset`. */
function holdsLine(logFile: string, event: { offset: number; line: string }): boolean {
  const expected = Buffer.from(event.line, 'utf8');
  const found = Buffer.alloc(expected.length);
  const fd = openRegular(logFile);
  if (fd === null) return false;
  try {
    return readSync(fd, found, 0, found.length, event.offset) === found.length && found.equals(expected);
  } finally {
    closeSync(fd);
  }
}

/** The manifest, or null when it is missing, torn or not one codelabgen writes (the change never committed). */
function readManifest(file: string): Manifest | null {
  const fd = openRegular(file);
  if (fd === null) return null;
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_MANIFEST_BYTES) return null;
    const bytes = Buffer.alloc(size);
    if (readSync(fd, bytes, 0, size, 0) !== size) return null;
    const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
    return Array.isArray(manifest.moves) && manifest.moves.every((move) => plain(move.staged) && plain(move.target))
      ? manifest
      : null;
  } catch {
    return null; // not JSON: written by something else, or torn
  } finally {
    closeSync(fd);
  }
}

/** A relative path without `..`: a manifest never moves anything outside the course or its staging folder. */
function plain(file: unknown): boolean {
  return typeof file === 'string' && file !== '' && !path.isAbsolute(file) && !file.split(/[\\/]/).includes('..');
}

/** Opens a regular file without following a link or blocking; null when it is not one. */
function openRegular(file: string): number | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  return null;
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
