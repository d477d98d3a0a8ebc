// A site build's output folder (`--out`): where a build may write, the marker a finished build
// leaves, and swapping a finished build in so that a failed one leaves the previous site as it was.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { SITE_OUT_DIR } from '../course/course.ts';
import { errorCode, refuse } from '../course/errors.ts';
import { isInside, realPathOf } from '../course/inside.ts';

/** Written into every finished build; an `--out` folder holding it may be replaced by the next build. */
export const SITE_MARKER = path.join('_codelabgen', 'site.json');

/**
 * Where a build may put its output. A build replaces the whole folder, so it refuses the course
 * itself, a folder inside it or containing it, something that is not a folder, and a non-empty
 * folder that is not an earlier codelabgen build (no SITE_MARKER): never empty a user's folder.
 */
export function checkOut(courseRoot: string, out: string): string {
  const resolved = checkOutsideCourse(courseRoot, out);
  const fix = 'pass a new or empty folder outside the course, e.g. --out ../site-out';
  if (!existsSync(resolved)) return resolved;
  if (!statSync(resolved).isDirectory()) refuse(`--out ${out} is not a folder`, fix);
  if (readdirSync(resolved).length > 0 && !isSiteBuild(resolved)) {
    refuse(
      `--out ${out} is a non-empty folder that is not an earlier codelabgen site build (no ${SITE_MARKER}); a build replaces its output folder`,
      `${fix}, or remove that folder yourself`,
    );
  }
  return resolved;
}

/**
 * The part of checkOut that also holds for an author's own Astro project using the integration
 * (whose outDir Astro empties as it always does): never the course, inside it or around it, except
 * the course's own output folder `site-out/` (SITE_OUT_DIR), which the site never reads.
 */
export function checkOutsideCourse(courseRoot: string, out: string): string {
  const course = realpathSync(courseRoot);
  const resolved = realPathOf(out);
  const fix = 'pass a new or empty folder outside the course, e.g. --out ../site-out';
  // A path written inside the course (the default site-out/ included) must stay there: a symlink a
  // worker planted in the course would otherwise send the build to replace a folder outside it.
  for (const root of new Set([path.resolve(courseRoot), course])) {
    const written = path.relative(root, path.resolve(out));
    if (path.isAbsolute(written) || written.split(path.sep)[0] === '..') continue;
    if (resolved !== path.join(course, written))
      refuse(
        `--out ${out} leads out of the course through a symbolic link (to ${resolved})`,
        `${fix}, or remove the link`,
      );
  }
  if (isInside(resolved, course) && resolved !== path.join(course, SITE_OUT_DIR))
    refuse(
      `--out ${out} is inside the course directory; the site never writes into the course except its ${SITE_OUT_DIR}/ folder`,
      fix,
    );
  if (isInside(course, resolved))
    refuse(`--out ${out} contains the course directory ${course}; a build replaces its output folder`, fix);
  return resolved;
}

/** A folder an earlier `site build` wrote (it may be served by `site preview` or replaced). */
export function isSiteBuild(dir: string): boolean {
  try {
    return (
      (JSON.parse(readFileSync(path.join(dir, SITE_MARKER), 'utf8')) as { generator?: unknown }).generator ===
      'codelabgen'
    );
  } catch {
    return false; // missing or unreadable marker: not ours
  }
}

/** The --base a site build was made with (its marker), or null for an older build that did not say. */
export function builtBase(dir: string): string | null {
  try {
    const base = (JSON.parse(readFileSync(path.join(dir, SITE_MARKER), 'utf8')) as { base?: unknown }).base;
    return typeof base === 'string' ? base : null;
  } catch {
    return null;
  }
}
/**
 * Astro empties its output folder before it writes, so `site build` has it build into a fresh
 * sibling folder that replaces `out` only once the pages, search index and marker are complete: a
 * failed or killed build leaves the previous site as it was.
 */
export function stagingFolder(out: string): string {
  mkdirSync(path.dirname(out), { recursive: true });
  return mkdtempSync(path.join(path.dirname(out), `.${path.basename(out)}.building-`));
}

export function replaceOutput(staging: string, out: string, base: string): void {
  mkdirSync(path.join(staging, path.dirname(SITE_MARKER)), { recursive: true });
  // The base it was built under: `site preview` serves it there without being told again.
  writeFileSync(path.join(staging, SITE_MARKER), `${JSON.stringify({ generator: 'codelabgen', base })}\n`);
  if (!existsSync(out)) {
    renameSync(staging, out);
    return;
  }
  const old = `${staging}.old`;
  renameSync(out, old);
  renameSync(staging, out);
  rmSync(old, { recursive: true, force: true });
}

/** Moves a finished build to the (empty) staging folder: a rename, or a copy across file systems. */
export function moveInto(built: string, staging: string): void {
  try {
    renameSync(built, staging);
  } catch (error) {
    if (errorCode(error) !== 'EXDEV') throw error;
    cpSync(built, staging, { recursive: true });
    rmSync(built, { recursive: true, force: true });
  }
}
