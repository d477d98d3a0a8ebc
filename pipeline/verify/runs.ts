// Run-results: `.codelabgen/runs/<id>/<n>.json`, one per verification run. Written atomically with
// an exclusive number (safe under concurrent verifies of the same lesson); read with RunResultSchema.
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../../content-schemas/index.ts';
import {
  DataFileError,
  MAX_DATA_FILE_BYTES,
  RunResultParser,
  decodeUtf8,
  parseData,
} from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { errorCode } from '../course/errors.ts';
import { type CourseWrite, createCourseFile, makeCourseFolder } from '../store/staged-change.ts';

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
  const folder = ARTIFACTS.runsDir(result.lesson);
  makeCourseFolder(course, folder, 'run-results folder'); // never through a symlink out of the course
  let run = (runNumbers(abs(course, folder)).at(-1) ?? 0) + 1;
  for (;;) {
    const complete = RunResultParser.parse({ ...result, run });
    if (createCourseFile(course, `${folder}/${run}.json`, `${JSON.stringify(complete, null, 2)}\n`, 'run-result'))
      return complete;
    run += 1;
  }
}

/**
 * `result` numbered as the next run of its lesson, and the file write that records it, for a change
 * that commits it together with its verdict (verify --update-state): the number is taken under the
 * store's lock, and a file that appeared meanwhile (a plain verify) makes the change refuse, not
 * overwrite it.
 */
export function nextRunWrite(course: Course, result: Omit<RunResult, 'run'>): { run: RunResult; write: CourseWrite } {
  const folder = ARTIFACTS.runsDir(result.lesson);
  const run = RunResultParser.parse({ ...result, run: (runNumbers(abs(course, folder)).at(-1) ?? 0) + 1 });
  return { run, write: { path: `${folder}/${run.run}.json`, data: `${JSON.stringify(run, null, 2)}\n` } };
}

/** Every run-result of a lesson, oldest first; a file that does not parse throws DataFileError. */
export function readRuns(course: Course, id: string): RunResult[] {
  return readRunsIn(abs(course, ARTIFACTS.runsDir(id)), `${ARTIFACTS.runsDir(id)}`);
}

/** Run-results in any runs folder (e.g. a CI shard's copy); `label` names it in errors. */
export function readRunsIn(dir: string, label: string): RunResult[] {
  return runNumbers(dir).map((n) => readRunFile(path.join(dir, `${n}.json`), `${label}/${n}.json`));
}

/** The newest run-result of a lesson, or null when it was never verified here. */
export function lastRun(course: Course, id: string): RunResult | null {
  const dir = abs(course, ARTIFACTS.runsDir(id));
  const last = runNumbers(dir).at(-1);
  if (last === undefined) return null;
  return readRunFile(path.join(dir, `${last}.json`), `${ARTIFACTS.runsDir(id)}/${last}.json`);
}

/**
 * Reads one run-result: a regular file, never through a symlink (a run file may come from a CI
 * artifact or a lesson's test). Problems name `label` and the field, never the file's contents.
 */
export function readRunFile(file: string, label: string): RunResult {
  let data: unknown;
  try {
    data = JSON.parse(decodeUtf8(readRegularFile(file, label), label));
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(label, ['not valid JSON; a run-result is a JSON file written by codelabgen verify'], {
      cause: error,
    });
  }
  try {
    return parseData(RunResultParser, data, label);
  } catch (error) {
    if (!(error instanceof DataFileError)) throw error;
    throw new DataFileError(label, error.problems.map(withoutValue), { cause: error });
  }
}

function readRegularFile(file: string, label: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    throw new DataFileError(
      label,
      [code === 'ELOOP' ? 'is a symbolic link; run-results are regular files' : `cannot be read (${code ?? 'error'})`],
      { cause: error },
    );
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new DataFileError(label, ['is not a regular file']);
    if (info.size > MAX_DATA_FILE_BYTES)
      throw new DataFileError(label, [`file is ${info.size} bytes; the limit is ${MAX_DATA_FILE_BYTES}`]);
    const bytes = new Uint8Array(info.size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) break;
      read += got;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** `field: message, got "..."` → `field: message`; an unknown field's name is dropped too (it is the file's text). */
function withoutValue(problem: string): string {
  return problem.replace(/: unknown (fields?) .*$/, ': unknown $1').replace(/, got .*$/, '');
}
