// Whether lesson pages can date a lesson by its last git commit (site/lib/lessons.ts) and whether a
// build says why they do not (pipeline/site/integration.ts). A shallow clone (CI's default depth-1
// checkout) knows one commit, which would date every lesson by it: such a course gets no dates.
import { spawnSync } from 'node:child_process';

/** full: a whole history; shallow: a clone cut short; none: not in git (or git is missing). */
export type GitHistory = 'full' | 'shallow' | 'none';

export function gitHistory(course: string): GitHistory {
  const result = spawnSync('git', ['-C', course, 'rev-parse', '--is-shallow-repository'], { encoding: 'utf8' });
  if (result.status !== 0) return 'none';
  return result.stdout.trim() === 'true' ? 'shallow' : 'full';
}

/** The build's one line about a shallow clone, with the hint (docs/site.md "Last updated"). */
export const SHALLOW_CLONE_WARNING = 'the course is in a shallow git clone: lesson pages show no "Last updated" date';
export const SHALLOW_CLONE_HINT =
  'fetch the whole history for the dates: git fetch --unshallow, or actions/checkout with fetch-depth: 0';
