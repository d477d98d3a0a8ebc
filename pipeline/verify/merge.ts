// `verify merge DIR...`: folds run-results from CI shard artifacts (each a copy of
// `.codelabgen/runs/`) into one summary: each lesson's newest run across every folder.
// The artifacts are untrusted: the folder decides the lesson, a start time in the future is
// refused, symlinks are never followed, and errors name files and fields, never their contents.
import { lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../../content-schemas/index.ts';
import { LessonIdParser } from '../../content-schemas/fast.ts';
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { readRunFile, runNumbers } from './runs.ts';
import { summarize, summaryEntry, type VerifySummary } from './summary.ts';

/** How far a shard's clock may run ahead of this machine's. */
const CLOCK_SKEW_MS = 5 * 60_000;

export function mergeRunFolders(
  dirs: readonly string[],
  cwd: string,
  now: number = Date.now(),
): VerifySummary & { sources: string[] } {
  const newest = new Map<string, RunResult>();
  for (const given of dirs) {
    const dir = path.resolve(cwd, given);
    if (!isDirectory(dir))
      refuse(`verify merge: "${printable(given)}" is not a folder; give folders that are copies of .codelabgen/runs/`);
    for (const name of readdirSync(dir)) {
      if (!LessonIdParser.safeParse(name).success) continue;
      const lessonDir = path.join(dir, name);
      const label = `${printable(given)}/${name}`;
      const kind = lstatSync(lessonDir);
      if (kind.isSymbolicLink())
        refuse(`verify merge: ${label} is a symbolic link; run-result folders are copied as real folders`);
      if (!kind.isDirectory()) continue;
      for (const n of runNumbers(lessonDir)) {
        const run = readShardRun(path.join(lessonDir, `${n}.json`), `${label}/${n}.json`, name, now);
        const seen = newest.get(name);
        if (seen === undefined || Date.parse(run.started_at) > Date.parse(seen.started_at)) newest.set(name, run);
      }
    }
  }
  const ids = [...newest.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return { ...summarize(ids.map((id) => summaryEntry(id, newest.get(id)!))), sources: [...dirs] };
}

/** One run-result of the folder of `lesson`: a regular file (never through a symlink) that says it is that lesson's and that ran in the past. */
function readShardRun(file: string, label: string, lesson: string, now: number): RunResult {
  const run = readRunFile(file, label);
  if (run.lesson !== lesson)
    refuse(
      `verify merge: ${label}: its "lesson" field names another lesson than its folder ${lesson}; a run-result belongs in its lesson's folder`,
    );
  if (!(Date.parse(run.started_at) <= now + CLOCK_SKEW_MS))
    refuse(`verify merge: ${label}: started_at is in the future; a run-result records a run that happened`);
  return run;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false; // missing: not a folder
  }
}
