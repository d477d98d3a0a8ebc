// "Is this path inside that folder" for the whole codebase (docs/security.md): compared segment by
// segment after resolving symlinks, so `..mine`, `/a/bc` next to `/a/b` and a link out of the
// folder are not inside. Every containment check imports isInside(); none is written by hand.
import { realpathSync } from 'node:fs';
import path from 'node:path';

/** The absolute path with every existing part's symlinks resolved (the rest may not exist yet). */
export function realPathOf(target: string): string {
  // A path already absolute and normalized (every course path abs() makes) is its own path.resolve():
  // skipping it keeps a state command's node:path calls few enough that V8 does not optimize
  // normalizeString on a second thread during the command (docs/performance.md).
  const absolute = isNormalizedAbsolute(target) ? target : path.resolve(target);
  try {
    // The common case, an existing path: realpath's answer is already absolute and normalized, and
    // a state command makes a dozen of these, enough path work that V8 would optimize node:path's
    // normalizeString on a second thread during a 40 ms command (docs/performance.md).
    return realpathSync.native(absolute);
  } catch {
    // missing or unreadable: resolved part by part below
  }
  let probe = path.dirname(absolute);
  if (probe === absolute) return absolute;
  for (;;) {
    try {
      return path.join(realpathSync.native(probe), path.relative(probe, absolute));
    } catch {
      // missing or unreadable: resolve its parent, and keep the rest as written
      const parent = path.dirname(probe);
      if (parent === probe) return absolute;
      probe = parent;
    }
  }
}

/** Whether `child` is `parent` itself or inside it, segment by segment, after realpath of both. */
export function isInside(child: string, parent: string): boolean {
  return isInsideReal(realPathOf(child), realPathOf(parent));
}

/**
 * isInside() for two paths that are already real (realPathOf's answers: absolute, normalized, no
 * trailing separator but the root's): on POSIX `child` is `parent` or starts with `parent/`, which is
 * the segment-wise comparison of path.relative without its four path normalizations per call.
 */
export function isInsideReal(child: string, parent: string): boolean {
  if (path.sep === '/') return child === parent || child.startsWith(parent === '/' ? '/' : `${parent}/`);
  const relative = path.relative(parent, child);
  return relative === '' || (!path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..');
}

/**
 * True when `p` is an absolute POSIX path that path.resolve() and path.join() return unchanged:
 * no empty, `.` or `..` segment and no trailing `/` (but `/` itself). Plain string tests, no node:path.
 */
export function isNormalizedAbsolute(p: string): boolean {
  if (path.sep !== '/' || !p.startsWith('/')) return false;
  if (p === '/') return true;
  return (
    !p.endsWith('/') &&
    !p.includes('//') &&
    !p.includes('/./') &&
    !p.includes('/../') &&
    !p.endsWith('/.') &&
    !p.endsWith('/..')
  );
}
