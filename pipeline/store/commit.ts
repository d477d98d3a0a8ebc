// One state change: lock, recover, decide (may refuse), stage the change's files, append the event
// (fsync), move the files into place, write state atomically, unlock. A failure before the state is
// renamed puts the files back and undoes the event, so nothing changes (staged-change.ts).
import path from 'node:path';
import type { Event, EventDraft, State } from '../../content-schemas/index.ts';
import { EventParser, issuesToProblems } from '../../content-schemas/fast.ts';
import { ARTIFACTS, type Course } from '../course/course.ts';
import { RefusalError } from '../course/errors.ts';
import { apply } from '../state/apply.ts';
import { isoTime } from './iso-time.ts';
import { appendEvent, truncateLog } from './log.ts';
import { withLock } from './lock.ts';
import { recoverLocked } from './recover.ts';
import { type CourseWrite, MoveError, StagedChange } from './staged-change.ts';
import { eventsPath, writeStateFile } from './state-file.ts';
import { writeFailure } from './write-error.ts';

export interface CommitOptions {
  command: string;
  now?: () => Date;
  onWait?: () => void;
}

export interface Committed {
  event: Event;
  state: State;
  notices: string[];
}

/** `decide` sees the recovered state and returns the event to commit, or throws a RefusalError. */
export async function commit(
  course: Course,
  options: CommitOptions,
  decide: (state: State) => EventDraft,
): Promise<Committed> {
  return withLock(course, { command: options.command, onWait: options.onWait }, () => {
    const { state, notices } = recoverLocked(course);
    const draft = decide(state);
    const event = toEvent(draft, state.last_seq + 1, options);
    const next = writeEventAndState(course, [event], apply(state, event), state.log_bytes);
    return { event, state: next, notices };
  });
}

export function toEvent(draft: EventDraft, seq: number, options: CommitOptions): Event {
  const candidate = {
    seq,
    ts: isoTime(options.now?.() ?? new Date()),
    pid: process.pid,
    command: options.command.slice(0, 500),
    ...draft,
  };
  const result = EventParser.safeParse(candidate);
  if (!result.success) throw new RefusalError(`invalid change: ${issuesToProblems(result.error.issues).join('; ')}`);
  return result.data;
}

export interface ChangeDraft {
  draft: EventDraft;
  /** The course files the change writes (moved into place once the event is durable; all or nothing). */
  writes: CourseWrite[];
}

/**
 * Like commit(), for a change that also writes course files: `decide` returns the event and the
 * files, which are staged before the event is appended and moved into place after it is durable.
 */
export async function commitChange(
  course: Course,
  options: CommitOptions & { what: string },
  decide: (state: State) => ChangeDraft,
): Promise<Committed> {
  return withLock(course, { command: options.command, onWait: options.onWait }, () => {
    const { state, notices } = recoverLocked(course);
    const { draft, writes } = decide(state);
    const event = toEvent(draft, state.last_seq + 1, options);
    const change = writes.length > 0 ? StagedChange.stage(course, writes, options.what) : null;
    const next = writeEventAndState(course, [event], apply(state, event), state.log_bytes, change);
    return { event, state: next, notices };
  });
}

/**
 * Writes course files that no event records (`report`, `register`'s folders when the state is
 * unchanged), all or nothing, under the lock: staged, sealed, moved into place.
 */
export async function writeCourseFiles(
  course: Course,
  writes: CourseWrite[],
  options: { command: string; what: string },
): Promise<void> {
  if (writes.length === 0) return;
  await withLock(course, { command: options.command }, () => {
    const change = StagedChange.stage(course, writes, options.what);
    change.seal();
    try {
      change.apply();
    } catch (error) {
      if (!(error instanceof MoveError)) throw error;
      if (error.undone) change.discard();
      throw writeFailure(
        error.cause,
        error.target,
        error.undone
          ? 'nothing was changed'
          : `the next command finishes the change (${path.relative(course.root, change.dir)})`,
      );
    }
    change.discard();
  });
}

/**
 * Appends `events` (one write) at `logBytes`, moves the change's files into place, then writes
 * `state` with log_bytes advanced past the events, and returns that state. A failure after the
 * append puts the files back and cuts the events off the log, so nothing changed.
 */
export function writeEventAndState(
  course: Course,
  events: Event[],
  state: State,
  logBytes: number,
  change: StagedChange | null = null,
): State {
  const lines = events.map((event) => `${JSON.stringify(event)}\n`);
  const text = lines.join('');
  const seq = events[0]?.seq;
  change?.seal({ offset: logBytes, line: lines[0] ?? '' });
  try {
    appendEvent(eventsPath(course), text, logBytes);
  } catch (error) {
    change?.discard();
    throw writeFailure(error, ARTIFACTS.events, 'nothing was changed');
  }
  const stays = `the event (seq ${seq}) stays in ${ARTIFACTS.events} and the next command replays it`;
  try {
    change?.apply();
  } catch (error) {
    if (!(error instanceof MoveError)) throw error;
    throw undoCommit(
      course,
      change!,
      logBytes,
      error.undone,
      writeFailure(error.cause, error.target, 'nothing was changed'),
      writeFailure(error.cause, error.target, `${stays}, with its files`),
    );
  }
  const written = { ...state, log_bytes: logBytes + Buffer.byteLength(text) };
  try {
    // logBytes > 0: state.json exists and every event before this one is durable (fsynced above).
    writeStateFile(course, written, true, logBytes > 0);
  } catch (error) {
    const undone = change === null || change.tryUndo();
    throw undoCommit(
      course,
      change,
      logBytes,
      undone,
      writeFailure(error, ARTIFACTS.state, 'nothing was changed'),
      writeFailure(error, ARTIFACTS.state, stays),
    );
  }
  change?.discard();
  return written;
}

/** Cuts the events back off the log once the files are put back; `stayed` when either cannot be done. */
function undoCommit(
  course: Course,
  change: StagedChange | null,
  logBytes: number,
  undone: boolean,
  nothing: Error,
  stayed: Error,
): Error {
  if (!undone) return stayed; // the staging folder keeps its manifest: the next command finishes the change
  try {
    truncateLog(eventsPath(course), logBytes);
  } catch {
    return stayed;
  }
  change?.discard();
  return nothing;
}
