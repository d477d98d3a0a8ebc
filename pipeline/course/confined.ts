// Reading inside a folder (a lesson folder, the course): a path is followed only when the real
// path of every component stays inside, so a symlinked folder or file cannot lead a read outside.
// Used by every reader of lesson docs and code references (check and the site).
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
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
