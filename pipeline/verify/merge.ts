// `verify merge DIR...`: folds run-results from CI shard artifacts (each a copy of
// `.codelabgen/runs/`) into one summary: each lesson's newest run across every folder.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../../content-schemas/index.ts';
import { LessonIdParser } from '../../content-schemas/fast.ts';
import { printable } from '../course.ts';
import { refuse } from '../errors.ts';
import { readRunsIn } from './runs.ts';
import { summarize, summaryEntry, type VerifySummary } from './summary.ts';

export function mergeRunFolders(dirs: readonly string[], cwd: string): VerifySummary & { sources: string[] } {
  const newest = new Map<string, RunResult>();
  for (const given of dirs) {
    const dir = path.resolve(cwd, given);
    if (!isDirectory(dir)) refuse(`verify merge: "${printable(given)}" is not a folder; give folders that are copies of .codelabgen/runs/`);
    for (const name of readdirSync(dir)) {
      if (!LessonIdParser.safeParse(name).success || !isDirectory(path.join(dir, name))) continue;
      for (const run of readRunsIn(path.join(dir, name), path.join(given, name))) {
        const seen = newest.get(run.lesson);
        if (seen === undefined || run.started_at > seen.started_at) newest.set(run.lesson, run);
      }
    }
  }
  const ids = [...newest.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return { ...summarize(ids.map((id) => summaryEntry(id, newest.get(id)!))), sources: [...dirs] };
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false; // missing: not a folder
  }
}
