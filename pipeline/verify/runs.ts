// Run-results: `.codelabgen/runs/<id>/<n>.json`, one per verification run. Written atomically with
// an exclusive number (safe under concurrent verifies of the same lesson); read with RunResultSchema.
import { linkSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../../content-schemas/index.ts';
import { RunResultParser, parseDataFile } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, insideCourse, type Course } from '../course.ts';
import { errorCode } from '../errors.ts';
import { fsyncDir, safeUnlink, tempPathFor, writeNewFileDurably } from '../store/atomic-write.ts';

const RUN_FILE = /^([1-9][0-9]{0,8})\.json$/;

/** Run numbers present in a runs folder, ascending. */
export function runNumbers(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
  const numbers: number[] = [];
  for (const name of names) {
    const match = RUN_FILE.exec(name);
    if (match) numbers.push(Number(match[1]));
  }
  return numbers.sort((a, b) => a - b);
}

/**
 * Writes `result` as the next `<n>.json` of its lesson and returns it with `run` set to n. The file
 * appears whole (temp file, fsync, hard link): a link never replaces an existing file, so two
 * concurrent verifies never share a number; the loser takes the next one.
 */
export function writeRunResult(course: Course, result: Omit<RunResult, 'run'>): RunResult {
  const dir = insideCourse(course, ARTIFACTS.runsDir(result.lesson), 'run-results folder'); // never through a symlink out of the course
  mkdirSync(dir, { recursive: true });
  let run = (runNumbers(dir).at(-1) ?? 0) + 1;
  for (;;) {
    const complete = RunResultParser.parse({ ...result, run });
    const target = path.join(dir, `${run}.json`);
    const temp = tempPathFor(target);
    try {
      writeNewFileDurably(temp, `${JSON.stringify(complete, null, 2)}\n`);
      linkSync(temp, target);
      fsyncDir(dir);
      return complete;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      run += 1;
    } finally {
      safeUnlink(temp);
    }
  }
}

/** Every run-result of a lesson, oldest first; a file that does not parse throws DataFileError. */
export function readRuns(course: Course, id: string): RunResult[] {
  return readRunsIn(abs(course, ARTIFACTS.runsDir(id)), `${ARTIFACTS.runsDir(id)}`);
}

/** Run-results in any runs folder (e.g. a CI shard's copy); `label` names it in errors. */
export function readRunsIn(dir: string, label: string): RunResult[] {
  return runNumbers(dir).map((n) => parseDataFile(RunResultParser, path.join(dir, `${n}.json`), `${label}/${n}.json`));
}

/** The newest run-result of a lesson, or null when it was never verified here. */
export function lastRun(course: Course, id: string): RunResult | null {
  const dir = abs(course, ARTIFACTS.runsDir(id));
  const last = runNumbers(dir).at(-1);
  if (last === undefined) return null;
  return parseDataFile(RunResultParser, path.join(dir, `${last}.json`), `${ARTIFACTS.runsDir(id)}/${last}.json`);
}
