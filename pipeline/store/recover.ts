// Recovery, run by every command: finish or remove changes a killed process left staged, sweep
// orphan temp files, move a torn last log line aside, replay events the state has not applied. Cheap when nothing is wrong (one stat of the log).
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { State } from '../../content-schemas/index.ts';
import { ARTIFACTS, type Course } from '../course/course.ts';
import { RefusalError, StoreWriteError, errorCode, writeErrorReason } from '../course/errors.ts';
import { apply } from '../state/apply.ts';
import { replayBatch } from '../state/keyed.ts';
import { copyRangeDurably, safeUnlink } from './atomic-write.ts';
import { faultPoint } from './fault.ts';
import { lastLineSeq, scanLog, syncLog, truncateLog, type LogScan } from './log.ts';
import { withLock } from './lock.ts';
import { pidAlive } from './process-identity.ts';
import { recoverStagedChanges } from './change-recovery.ts';
import { STAGING_FOLDER } from './staged-change.ts';
import { eventsPath, readStateFile, refuseOddStoreFiles, writeStateFile } from './state-file.ts';

export interface Loaded {
  state: State;
  /** What recovery did, for the CLI to report on stderr. */
  notices: string[];
}

function logSize(course: Course): number {
  try {
    return statSync(eventsPath(course)).size;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 0;
    throw error;
  }
}

/** The cheap consistency check: the log has the size and the last seq state.json recorded. */
function logMatchesState(course: Course, state: State): boolean {
  const size = logSize(course);
  return size === state.log_bytes && lastLineSeq(eventsPath(course), size) === state.last_seq;
}

function requireState(course: Course): State {
  const state = readStateFile(course);
  if (state !== null) return state;
  if (logSize(course) > 0) {
    throw new RefusalError(`${ARTIFACTS.state} is missing but ${ARTIFACTS.events} has events`, [
      'run "codelabgen state rebuild" to rebuild the state from the log',
    ]);
  }
  throw new RefusalError(`course at ${course.root} has no state yet`, ['run "codelabgen init" to create it']);
}

/** Reads state for a read-only command; takes the lock and recovers only when the log moved on. */
export async function loadState(course: Course, command: string): Promise<Loaded> {
  const state = requireState(course);
  if (logMatchesState(course, state)) return { state, notices: [] };
  return withLock(course, { command }, () => recoverLocked(course));
}

/** Recovery under the lock. Throws a RefusalError when the log is corrupt or behind the state. */
export function recoverLocked(course: Course): Loaded {
  refuseOddStoreFiles(course);
  const notices = [...recoverStagedChanges(course, eventsPath(course)), ...sweepTempFiles(course)];
  let state = requireState(course);
  if (logMatchesState(course, state)) return { state, notices };
  const scan = scanLog(eventsPath(course), state.last_seq);
  refuseNewerEvent(scan);
  if (scan.corrupt) {
    throw new RefusalError(
      `${ARTIFACTS.events} line ${scan.corrupt.line} is corrupt (${scan.corrupt.problem}); writes are refused until it is repaired`,
      ['run "codelabgen check" for the details; restore the log from a backup, then "codelabgen state rebuild"'],
    );
  }
  if (scan.lastSeq < state.last_seq) {
    throw new RefusalError(
      `${ARTIFACTS.state} is at seq ${state.last_seq} but ${ARTIFACTS.events} ends at seq ${scan.lastSeq}`,
      ['run "codelabgen state rebuild" to rebuild the state from the log'],
    );
  }
  if (scan.torn) {
    const aside = moveTornTail(course, scan.torn, scan.goodBytes);
    notices.push(
      `recovered: the last line of ${ARTIFACTS.events} was torn (${scan.torn.length} bytes, an interrupted write); moved to ${aside}`,
    );
  }
  replayBatch(() =>
    scan.events.forEach((event) => {
      state = apply(state, event);
    }),
  );
  if (scan.events.length > 0)
    notices.push(
      `recovered: replayed ${scan.events.length} event(s) missing from ${ARTIFACTS.state} (seq ${scan.events[0]?.seq}..${scan.lastSeq})`,
    );
  state = { ...state, log_bytes: scan.goodBytes };
  // A writer killed between its append and its fsync left the event in the page cache only: make
  // it durable before a state.json that applies it (written without a folder fsync) can be.
  if (scan.events.length > 0) syncLog(eventsPath(course));
  writeStateFile(course, state, false, true);
  return { state, notices };
}

/** A complete event this codelabgen does not know is never cut or skipped: every command refuses. */
export function refuseNewerEvent(scan: LogScan): void {
  if (scan.newer === null) return;
  throw new RefusalError(
    `${ARTIFACTS.events} line ${scan.newer.line} (seq ${scan.newer.seq}) was written by a newer codelabgen: ${scan.newer.problem}; nothing was changed`,
    ['upgrade codelabgen to a version that reads it'],
  );
}

/**
 * Copies a torn last line to events.jsonl.torn-<time> (complete and fsynced, or not at all; runs of
 * NUL bytes stay holes, so a log extended by gigabytes of them costs no disk), then cuts it off the
 * log. Returns the copy's course-relative name.
 */
export function moveTornTail(course: Course, torn: { offset: number; length: number }, goodBytes: number): string {
  const aside = `${ARTIFACTS.events}.torn-${Date.now()}`;
  const file = path.join(course.root, aside);
  try {
    copyRangeDurably(eventsPath(course), torn, file, () => faultPoint('torn-write'));
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') safeUnlink(file);
    throw new StoreWriteError(
      `cannot write ${aside} (the copy of a torn last line of ${ARTIFACTS.events}): ${writeErrorReason(error)}` +
        ` (${errorCode(error) ?? 'error'}); nothing was changed`,
      [`free space on ${os.hostname()}, then retry`],
      { cause: error },
    );
  }
  truncateLog(eventsPath(course), goodBytes);
  return aside;
}

/** Removes `*.tmp` files in .codelabgen/ whose writer process is gone. */
function sweepTempFiles(course: Course): string[] {
  const swept: string[] = [];
  for (const name of readdirSync(course.dir)) {
    if (!name.endsWith('.tmp')) continue; // the common case, without compiling the expressions below
    const match = /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
    if (!match || STAGING_FOLDER.test(name) || pidAlive(Number(match[1]))) continue;
    safeUnlink(path.join(course.dir, name));
    swept.push(name);
  }
  return swept.length > 0
    ? [`recovered: removed ${swept.length} orphan temp file(s) left by an interrupted write`]
    : [];
}
