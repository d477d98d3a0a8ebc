// One state change: lock, recover, decide (may refuse), append the event (fsync), write state
// atomically, unlock. A failure before the state is renamed undoes the event, so nothing changes.
import os from 'node:os';
import type { Event, EventDraft, State } from '../../content-schemas/index.ts';
import { EventParser, issuesToProblems } from '../../content-schemas/fast.ts';
import { ARTIFACTS, type Course } from '../course/course.ts';
import { RefusalError, StoreWriteError, errorCode, writeErrorReason } from '../course/errors.ts';
import { apply } from '../state/apply.ts';
import { appendEvent, truncateLog } from './log.ts';
import { withLock } from './lock.ts';
import { recoverLocked } from './recover.ts';
import { eventsPath, writeStateFile } from './state-file.ts';

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
    const next = writeEventAndState(course, event, apply(state, event), state.log_bytes);
    return { event, state: next, notices };
  });
}

export function toEvent(draft: EventDraft, seq: number, options: CommitOptions): Event {
  const candidate = {
    seq,
    ts: (options.now?.() ?? new Date()).toISOString(),
    pid: process.pid,
    command: options.command.slice(0, 500),
    ...draft,
  };
  const result = EventParser.safeParse(candidate);
  if (!result.success) throw new RefusalError(`invalid change: ${issuesToProblems(result.error.issues).join('; ')}`);
  return result.data;
}

/**
 * Appends `event` at `logBytes`, then writes `state` with log_bytes advanced past it, and returns
 * that state. A failed state write cuts the event back off the log.
 */
export function writeEventAndState(course: Course, event: Event, state: State, logBytes: number): State {
  const line = `${JSON.stringify(event)}\n`;
  try {
    appendEvent(eventsPath(course), line, logBytes);
  } catch (error) {
    throw writeFailure(error, ARTIFACTS.events, 'nothing was changed');
  }
  const written = { ...state, log_bytes: logBytes + Buffer.byteLength(line) };
  try {
    // logBytes > 0: state.json exists and every event before this one is durable (fsynced above).
    writeStateFile(course, written, true, logBytes > 0);
  } catch (error) {
    try {
      truncateLog(eventsPath(course), logBytes);
    } catch {
      throw writeFailure(
        error,
        ARTIFACTS.state,
        `the event (seq ${event.seq}) stays in ${ARTIFACTS.events} and the next command replays it`,
      );
    }
    throw writeFailure(error, ARTIFACTS.state, 'nothing was changed');
  }
  return written;
}

function writeFailure(error: unknown, file: string, outcome: string): Error {
  const code = errorCode(error);
  if (code === undefined || !/^E[A-Z]+$/.test(code)) return error as Error;
  const reason = writeErrorReason(error);
  return new StoreWriteError(
    `cannot write ${file}: ${reason} (${code}); ${outcome}`,
    [`free space or fix permissions on ${os.hostname()}, then retry`],
    { cause: error },
  );
}
