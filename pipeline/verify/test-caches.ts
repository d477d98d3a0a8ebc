// Cache folders test runners leave in the lesson folder (pytest's, pytest-benchmark's): noted
// before a run, and the ones the run created removed after it, so verify leaves the lesson as it was.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';

/** `.benchmarks/` is created by pytest-benchmark at start-up and no option keeps it out without breaking runs that lack the plugin. */
export const TEST_CACHE_FOLDERS = ['.pytest_cache', '.benchmarks', '__pycache__'] as const;

/** The cache folders present in `dir` now. */
export function presentCaches(dir: string): Set<string> {
  return new Set(TEST_CACHE_FOLDERS.filter((name) => existsSync(path.join(dir, name))));
}

/** Removes the cache folders in `dir` that were not there before the run; returns their names. */
export function removeNewCaches(dir: string, before: ReadonlySet<string>): string[] {
  const created = TEST_CACHE_FOLDERS.filter((name) => !before.has(name) && existsSync(path.join(dir, name)));
  for (const name of created) rmSync(path.join(dir, name), { recursive: true, force: true });
  return created;
}
