// State from the log: `state rebuild` (rewrites state.json) and the replay check behind `check`.
import { isDeepStrictEqual } from 'node:util';
import type { State } from '../../content-schemas/index.ts';
import { ARTIFACTS, type Course } from '../course/course.ts';
import { RefusalError } from '../course/errors.ts';
import { apply, ReplayError } from '../state/apply.ts';
import { replayBatch } from '../state/keyed.ts';
import { scanLog, type LogScan } from './log.ts';
import { withLock } from './lock.ts';
import { moveTornTail, refuseNewerEvent } from './recover.ts';
import { recoverStagedChanges } from './change-recovery.ts';
import { eventsPath, readStateFile, refuseNewerStateFile, refuseOddStoreFiles, writeStateFile } from './state-file.ts';

/** Replays every complete event of the log from an empty state. */
export function replayLog(scan: LogScan): State {
  let state: State | null = null;
  replayBatch(() =>
    scan.events.forEach((event, index) => {
      state = { ...apply(state, event), log_bytes: scan.offsets[index] ?? 0 };
    }),
  );
  if (state === null)
    throw new RefusalError(`${ARTIFACTS.events} has no events to rebuild from`, [
      'run "codelabgen init" to create a course',
    ]);
  return state;
}

function scanForRebuild(course: Course): LogScan {
  const scan = scanLog(eventsPath(course));
  refuseNewerEvent(scan);
  if (scan.corrupt)
    throw new RefusalError(
      `${ARTIFACTS.events} line ${scan.corrupt.line} is corrupt (${scan.corrupt.problem}); cannot rebuild past it`,
      ['restore the log from a backup'],
    );
  return scan;
}

export interface Rebuilt {
  state: State;
  events: number;
  tornBytes: number;
  /** Where a torn last line was copied before it was cut off (course-relative), or null. */
  tornCopy: string | null;
}

/** `state rebuild`: rewrites state.json from the log (a torn last line is moved aside first, as recovery does). */
export async function rebuildState(course: Course, command: string): Promise<Rebuilt> {
  return withLock(course, { command }, () => {
    refuseOddStoreFiles(course);
    refuseNewerStateFile(course);
    recoverStagedChanges(course, eventsPath(course)); // a change whose event is in the log gets its files
    const scan = scanForRebuild(course);
    let state: State;
    try {
      state = replayLog(scan);
    } catch (error) {
      if (error instanceof ReplayError)
        throw new RefusalError(`${ARTIFACTS.events}: ${error.message}; cannot rebuild`, [], { cause: error });
      throw error;
    }
    const tornCopy = scan.torn ? moveTornTail(course, scan.torn, scan.goodBytes) : null;
    writeStateFile(course, state);
    return { state, events: scan.events.length, tornBytes: scan.torn?.length ?? 0, tornCopy };
  });
}

export interface ReplayCheck {
  ok: boolean;
  problems: string[];
  events: number;
}

/** The replay check used by `check`: the whole log is well-formed and replays to the stored state. */
export function checkReplay(course: Course): ReplayCheck {
  let scan: LogScan;
  try {
    refuseOddStoreFiles(course);
    scan = scanLog(eventsPath(course));
    refuseNewerEvent(scan);
  } catch (error) {
    if (!(error instanceof RefusalError)) throw error;
    return { ok: false, problems: [error.message], events: 0 };
  }
  const problems: string[] = [];
  if (scan.corrupt) problems.push(`${ARTIFACTS.events} line ${scan.corrupt.line}: ${scan.corrupt.problem}`);
  if (scan.torn)
    problems.push(`${ARTIFACTS.events}: torn last line (${scan.torn.length} bytes); any write command moves it aside`);
  if (problems.length > 0) return { ok: false, problems, events: scan.events.length };
  let stored: State | null;
  try {
    stored = readStateFile(course, true);
  } catch (error) {
    if (!(error instanceof RefusalError)) throw error;
    return { ok: false, problems: [error.message], events: scan.events.length }; // corrupt or newer state.json
  }
  try {
    const replayed = replayLog(scan);
    if (stored === null) problems.push(`${ARTIFACTS.state} is missing; run "codelabgen state rebuild"`);
    else if (!isDeepStrictEqual(JSON.parse(JSON.stringify(replayed)), stored)) {
      problems.push(
        `${ARTIFACTS.state} differs from the replay of ${ARTIFACTS.events}${describeDifference(stored, replayed)}; run "codelabgen state rebuild"`,
      );
    }
  } catch (error) {
    if (!(error instanceof ReplayError) && !(error instanceof RefusalError)) throw error;
    problems.push(`${ARTIFACTS.events}: ${error.message}`);
  }
  return { ok: problems.length === 0, problems, events: scan.events.length };
}

function describeDifference(stored: State, replayed: State): string {
  const keys = Object.keys(replayed) as (keyof State)[];
  const differing = keys.filter((key) => !isDeepStrictEqual(JSON.parse(JSON.stringify(replayed[key])), stored[key]));
  return differing.length > 0 ? ` (in ${differing.join(', ')})` : '';
}
