// state.json: read with schema_version checks (newer refused, never coerced); an unreadable file is
// copied aside as state.corrupt-<hash>.json and the refusal names the recovery command. A file whose
// bytes hash to state.json.sha256 (written beside it by writeStateFile) skips the schema check.
import { copyFileSync, existsSync, lstatSync, readFileSync, renameSync, writeFileSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { State } from '../../content-schemas/index.ts';
import { StateParser, STATE_SCHEMA_VERSION, issuesToProblems } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course.ts';
import { RefusalError, errorCode, writeErrorReason } from '../errors.ts';
import { safeUnlink, tempPathFor, writeFileAtomic } from './atomic-write.ts';

export function statePath(course: Course): string {
  return abs(course, ARTIFACTS.state);
}

export function eventsPath(course: Course): string {
  return abs(course, ARTIFACTS.events);
}

/** The sha256 of the state.json this codelabgen last wrote: only a speed-up, never the truth. */
export function stateSumPath(course: Course): string {
  return `${statePath(course)}.sha256`;
}

function sha256(bytes: string | Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** True when `bytes` are exactly what writeStateFile wrote last (a hand edit changes the hash). */
function writtenByCodelabgen(course: Course, bytes: Buffer): boolean {
  let sum: string;
  try {
    sum = readFileSync(stateSumPath(course), 'utf8');
  } catch {
    return false;
  }
  return sum === `${sha256(bytes)}\n`;
}

/**
 * The stored state, or null when the course has no state.json (and no events: see readState).
 * `fullCheck` validates even bytes that match state.json.sha256 (`check` trusts nothing).
 */
export function readStateFile(course: Course, fullCheck = false): State | null {
  const file = statePath(course);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw unreadableStoreFile(ARTIFACTS.state, error);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw corruptState(course, bytes, `not valid JSON (${(error as Error).message})`);
  }
  const version = refuseNewerVersion(raw);
  if (version !== STATE_SCHEMA_VERSION) {
    throw corruptState(course, bytes, `unknown schema_version ${JSON.stringify(version) ?? 'missing'}`);
  }
  // The writer produced this state from validated state by the tested, pure apply(); a file anyone
  // else wrote or edited fails the hash and gets the full check, with the same refusals.
  if (!fullCheck && writtenByCodelabgen(course, bytes)) return raw as State;
  const result = StateParser.safeParse(raw);
  if (!result.success) throw corruptState(course, bytes, issuesToProblems(result.error.issues).slice(0, 3).join('; '));
  return result.data;
}

/** Returns the state's schema_version; refuses a newer one (never coerced, never overwritten). */
function refuseNewerVersion(raw: unknown): unknown {
  const version = typeof raw === 'object' && raw !== null ? (raw as { schema_version?: unknown }).schema_version : undefined;
  if (typeof version === 'number' && version > STATE_SCHEMA_VERSION) {
    throw new RefusalError(`${ARTIFACTS.state} has schema_version ${version}, newer than the ${STATE_SCHEMA_VERSION} this codelabgen reads; nothing was changed`, ['upgrade codelabgen to a version that reads it']);
  }
  return version;
}

/** For `state rebuild`: refuses to overwrite a state.json written by a newer codelabgen. */
export function refuseNewerStateFile(course: Course): void {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(statePath(course), 'utf8'));
  } catch {
    return; // missing or unreadable: exactly what a rebuild replaces
  }
  refuseNewerVersion(raw);
}

function corruptState(course: Course, bytes: Buffer, reason: string): RefusalError {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const copy = path.join(course.dir, `state.corrupt-${hash}.json`);
  let kept = `a copy is kept as ${path.relative(course.root, copy)}`;
  try {
    if (!existsSync(copy)) copyFileSync(statePath(course), copy);
  } catch (error) {
    kept = `it could not be copied aside (${errorCode(error) ?? 'error'})`;
  }
  return new RefusalError(`${ARTIFACTS.state} is unreadable: ${reason}; ${kept}`, [`run "codelabgen state rebuild" to rebuild it from ${ARTIFACTS.events}`]);
}

/**
 * The log is appended to and truncated in place, and state.json replaced: each must be a regular
 * file inside the course (a symlink would let a write reach a file elsewhere). Every writer calls it.
 */
export function refuseOddStoreFiles(course: Course): void {
  for (const file of [ARTIFACTS.events, ARTIFACTS.state]) {
    let stats: Stats;
    try {
      stats = lstatSync(path.join(course.root, file));
    } catch {
      continue; // missing: handled by the callers
    }
    if (stats.isSymbolicLink()) throw new RefusalError(`${file} is a symbolic link; the store writes only regular files inside the course`, [`replace it with the file it points to, then retry`]);
    if (stats.isDirectory()) throw new RefusalError(`${file} is a folder, not a file; nothing was changed`, [`move the folder away, then run "codelabgen state rebuild" (or restore the file from a backup)`]);
    if (!stats.isFile()) throw new RefusalError(`${file} is not a regular file; nothing was changed`, [`move it away, then run "codelabgen state rebuild" (or restore the file from a backup)`]);
  }
}

/** A store file that exists but cannot be read (a folder, no permission): a refusal, not a crash. */
export function unreadableStoreFile(file: string, error: unknown): Error {
  const code = errorCode(error);
  if (code === 'EISDIR') return new RefusalError(`${file} is a folder, not a file; nothing was changed`, [`move the folder away, then run "codelabgen state rebuild" (or restore the file from a backup)`], { cause: error });
  if (code === undefined || !/^E[A-Z]+$/.test(code)) return error as Error;
  return new RefusalError(`cannot read ${file}: ${writeErrorReason(error)} (${code}); nothing was changed`, [`fix its permissions, then retry`], { cause: error });
}

export function writeStateFile(course: Course, state: State, faults = false): void {
  const text = `${JSON.stringify(state, null, 1)}\n`;
  writeFileAtomic(statePath(course), text, faults);
  // Written after state.json: a crash in between leaves the old hash, which the new bytes do not
  // match, so the next read checks them in full. A missing or torn hash means the same.
  // A new temp file renamed over the hash: a symlink or hard link planted there is replaced, never
  // written through. No fsync: a hash lost in a crash only costs one full check.
  const sum = stateSumPath(course);
  const temp = tempPathFor(sum);
  try {
    writeFileSync(temp, `${sha256(text)}\n`, { flag: 'wx', mode: 0o644 });
    renameSync(temp, sum);
  } catch {
    safeUnlink(temp); // only a speed-up: the next read checks state.json in full
  }
}
