// state.json: read with schema_version checks (newer refused, never coerced); an unreadable file is
// copied aside as state.corrupt-<hash>.json and the refusal names the recovery command. A file that
// is still the one writeStateFile wrote (its identity is recorded in state.json.written) skips the
// schema check.
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  type BigIntStats,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import type { State } from '../../content-schemas/index.ts';
import { readRegularFile, StateParser, STATE_SCHEMA_VERSION, issuesToProblems } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { RefusalError, errorCode, writeErrorReason } from '../course/errors.ts';
import { safeUnlink, tempPathFor, writeFileAtomic } from './atomic-write.ts';

export function statePath(course: Course): string {
  return abs(course, ARTIFACTS.state);
}

export function eventsPath(course: Course): string {
  return abs(course, ARTIFACTS.events);
}

/** The identity of the state.json this codelabgen last wrote: only a speed-up, never the truth. */
export function stateStampPath(course: Course): string {
  return `${statePath(course)}.written`;
}

/**
 * A file's identity: device, inode, size, and modification and change times in ns. Any write to the
 * file sets its change time to the current time, which no program can set back (unlike the
 * modification time), and a copy or a replacement is another inode. Hashing the bytes instead would
 * load node:crypto, and cost about 1 ms per 450 KB (1,000 lessons), on every command.
 */
function stampOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}\n`;
}

/** True when the file read (`stats` taken after reading it) is still the one writeStateFile wrote last. */
function writtenByCodelabgen(course: Course, stats: BigIntStats): boolean {
  let stamp: string;
  try {
    stamp = readRegularFile(stateStampPath(course), 4096).toString('utf8');
  } catch {
    return false; // missing or not a small regular file: not a stamp the store wrote
  }
  return stamp === stampOf(stats);
}

/** The bytes of `file` and its identity once read: a write during the read changes the identity. */
function readWithStats(file: string): { bytes: Buffer; stats: BigIntStats } {
  // Never blocks: a FIFO or device in its place is refused once open (docs/security.md).
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile() && !opened.isDirectory())
      throw new RefusalError(
        `${ARTIFACTS.state} is not a regular file (a pipe, device or socket); nothing was changed`,
        ['move it away, then run "codelabgen state rebuild" (or restore the file from a backup)'],
      );
    const bytes = readFileSync(fd);
    return { bytes, stats: fstatSync(fd, { bigint: true }) };
  } finally {
    closeSync(fd);
  }
}

/** Only for refusals: node:crypto loads here, not on every read. */
function sha256(bytes: Buffer): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
}

/** The text of each state object read from a state.json the store wrote, as it was read. */
const storedTexts = new WeakMap<State, string>();

/**
 * The state.json text `state` was read from, when it was read unchanged from a file the store wrote
 * (the stamp matched): `state show --json` prints it as it is instead of serializing it again.
 * Undefined for a state that was validated, recovered or changed since (a new object).
 */
export function storedTextOf(state: State): string | undefined {
  return storedTexts.get(state);
}

/**
 * The stored state, or null when the course has no state.json (and no events: see readState).
 * `fullCheck` validates even a file that matches state.json.written (`check` trusts nothing).
 */
export function readStateFile(course: Course, fullCheck = false): State | null {
  const file = statePath(course);
  let bytes: Buffer;
  let stats: BigIntStats;
  try {
    ({ bytes, stats } = readWithStats(file));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw unreadableStoreFile(ARTIFACTS.state, error);
  }
  const text = bytes.toString('utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw corruptState(course, bytes, `not valid JSON (${(error as Error).message})`);
  }
  const version = refuseNewerVersion(raw);
  if (version !== STATE_SCHEMA_VERSION) {
    throw corruptState(course, bytes, `unknown schema_version ${JSON.stringify(version) ?? 'missing'}`);
  }
  // The writer produced this state from validated state by the tested, pure apply(); a file anyone
  // else wrote or edited has another identity and gets the full check, with the same refusals.
  if (!fullCheck && writtenByCodelabgen(course, stats)) {
    storedTexts.set(raw as State, text);
    return raw as State;
  }
  const result = StateParser.safeParse(raw);
  if (!result.success) throw corruptState(course, bytes, issuesToProblems(result.error.issues).slice(0, 3).join('; '));
  return result.data;
}

/** Returns the state's schema_version; refuses a newer one (never coerced, never overwritten). */
function refuseNewerVersion(raw: unknown): unknown {
  const version =
    typeof raw === 'object' && raw !== null ? (raw as { schema_version?: unknown }).schema_version : undefined;
  if (typeof version === 'number' && version > STATE_SCHEMA_VERSION) {
    throw new RefusalError(
      `${ARTIFACTS.state} has schema_version ${version}, newer than the ${STATE_SCHEMA_VERSION} this codelabgen reads; nothing was changed`,
      ['upgrade codelabgen to a version that reads it'],
    );
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
  const hash = sha256(bytes).slice(0, 12);
  const copy = path.join(course.dir, `state.corrupt-${hash}.json`);
  let kept = `a copy is kept as ${path.relative(course.root, copy)}`;
  try {
    if (!existsSync(copy)) copyFileSync(statePath(course), copy);
  } catch (error) {
    kept = `it could not be copied aside (${errorCode(error) ?? 'error'})`;
  }
  return new RefusalError(`${ARTIFACTS.state} is unreadable: ${reason}; ${kept}`, [
    `run "codelabgen state rebuild" to rebuild it from ${ARTIFACTS.events}`,
  ]);
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
    if (stats.isSymbolicLink())
      throw new RefusalError(`${file} is a symbolic link; the store writes only regular files inside the course`, [
        `replace it with the file it points to, then retry`,
      ]);
    if (stats.isDirectory())
      throw new RefusalError(`${file} is a folder, not a file; nothing was changed`, [
        `move the folder away, then run "codelabgen state rebuild" (or restore the file from a backup)`,
      ]);
    if (!stats.isFile())
      throw new RefusalError(`${file} is not a regular file; nothing was changed`, [
        `move it away, then run "codelabgen state rebuild" (or restore the file from a backup)`,
      ]);
  }
}

/** A store file that exists but cannot be read (a folder, no permission): a refusal, not a crash. */
export function unreadableStoreFile(file: string, error: unknown): Error {
  const code = errorCode(error);
  if (code === 'EISDIR')
    return new RefusalError(
      `${file} is a folder, not a file; nothing was changed`,
      [`move the folder away, then run "codelabgen state rebuild" (or restore the file from a backup)`],
      { cause: error },
    );
  if (code === undefined || !/^E[A-Z]+$/.test(code)) return error as Error;
  return new RefusalError(
    `cannot read ${file}: ${writeErrorReason(error)} (${code}); nothing was changed`,
    [`fix its permissions, then retry`],
    { cause: error },
  );
}

/**
 * Replaces state.json atomically. `replacing`: an existing state.json is replaced by one whose
 * events are all durable in the log, so the folder is not fsynced: if a power loss undoes the
 * rename, the old (complete) state.json is behind the log and the next command replays the rest
 * (docs/reliability.md, "fsyncs"). A new state.json (init) or a rebuilt one syncs its folder.
 * Compact JSON: at 1,000 lessons indenting made the file 26% larger and every change about 1 ms
 * slower to write and read again (docs/performance.md); `state show --json | jq .` reads it.
 */
export function writeStateFile(course: Course, state: State, faults = false, replacing = false): void {
  const file = statePath(course);
  writeFileAtomic(file, `${JSON.stringify(state)}\n`, faults, !replacing);
  // Recorded after state.json is in place: a crash in between leaves the old identity, which the new
  // file does not match, so the next read checks it in full. A missing or torn record means the same.
  // A new temp file renamed over the record: a symlink or hard link planted there is replaced, never
  // written through. No fsync: a record lost in a crash only costs one full check.
  const stamp = stateStampPath(course);
  const temp = tempPathFor(stamp);
  try {
    writeFileSync(temp, stampOf(statSync(file, { bigint: true })), { flag: 'wx', mode: 0o644 });
    renameSync(temp, stamp);
  } catch {
    safeUnlink(temp); // only a speed-up: the next read checks state.json in full
  }
  safeUnlink(`${file}.sha256`); // the hash an older codelabgen kept instead
}
