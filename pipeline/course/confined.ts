// Reading inside a folder (a lesson folder, the course, .codelabgen/): a path is followed only when
// the real path of every component stays inside, so a symlinked folder or file cannot lead a read
// outside. With content-schemas/regular-file.ts this is the one hardened reader (docs/security.md
// "Reads"); cli/scan-file-reads.test.ts fails when another module opens files of its own.
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../../content-schemas/fast.ts';
import { errorCode } from './errors.ts';
import { isInside, realPathOf } from './inside.ts';

/** A path that resolves (through a symlink) outside the folder it must stay in. */
export class OutsideError extends Error {
  readonly real: string;
  constructor(relative: string, real: string) {
    super(`${relative} resolves outside its folder (to ${real})`);
    this.name = 'OutsideError';
    this.real = real;
  }
}

/**
 * The real path of `relative` under `root`: null when it does not exist (a dangling symlink, a
 * symlink loop or one through a folder this user cannot search included), OutsideError when it leaves `root`. `relative` has been checked for ".." already.
 */
export function realPathInside(root: string, relative: string): string | null {
  const realRoot = realPathOf(root); // a folder not made yet holds nothing: null below
  let real: string;
  try {
    real = realpathSync(path.resolve(root, relative));
  } catch (error) {
    // missing, a symlink loop (a test can leave one), or a link through a folder this user cannot
    // search: nothing to read, never a crashed build
    if (['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES'].includes(errorCode(error) ?? '')) return null;
    throw error;
  }
  if (!isInside(real, realRoot)) throw new OutsideError(relative, real);
  return real;
}

/** Like realPathInside, for a file to read: null also when it is not a regular file. */
export function fileInside(root: string, relative: string): string | null {
  const real = realPathInside(root, relative);
  return real !== null && lstatSync(real).isFile() ? real : null;
}

/**
 * The one hardened read of a file that a course, a worker, an agent or a client can name or plant:
 * `relative` resolved through symlinks must stay inside `root`, be a regular file of at most
 * `maxBytes`, opened non-blocking and no-follow (a link swapped in after the check is refused), so
 * a FIFO, device or socket is refused at once. null when it does not exist; OutsideError when it
 * leaves `root`; UnreadableFileError (content-schemas) for a folder, a special file, a file too large.
 */
export function readFileInside(root: string, relative: string, maxBytes: number): Buffer | null {
  const real = realPathInside(root, relative);
  return real === null ? null : readRegularFile(real, maxBytes, { noFollow: true });
}
