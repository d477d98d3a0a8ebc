// The site's content caches (one per course and settings): marking the current one used and
// removing those unused for a week, whose course is gone, or left by a killed CLI.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Content caches unused this long are removed (courses in temp folders come and go). */
const CACHE_KEEP_MS = 7 * 24 * 3600_000;

/**
 * Marks this run's content cache as used (and records whose it is); removes caches unused for
 * CACHE_KEEP_MS or whose course folder is gone (courses in temp folders), and run folders left by
 * a killed CLI.
 */
export function sweepCaches(current: string, course: string): void {
  mkdirSync(current, { recursive: true });
  writeFileSync(path.join(current, 'course'), course);
  const now = new Date();
  utimesSync(current, now, now);
  for (const name of readdirSync(path.dirname(current))) {
    const dir = path.join(path.dirname(current), name);
    // run-* folders are left behind only when the CLI was killed mid-run
    if (!(name.startsWith('content-') || name.startsWith('run-')) || dir === current) continue;
    try {
      const old = now.getTime() - statSync(dir).mtimeMs > CACHE_KEEP_MS;
      if (old || (name.startsWith('content-') && courseGone(dir))) rmSync(dir, { recursive: true, force: true });
    } catch {
      // another build removed or is using it: leave it
    }
  }
}

/** The cache records its course folder, and that folder no longer exists. */
function courseGone(cache: string): boolean {
  try {
    return !existsSync(readFileSync(path.join(cache, 'course'), 'utf8'));
  } catch {
    return false; // no record (an older cache): left to the age limit
  }
}
