// The live board of a course: follows events.jsonl with the offset-based tail
// (pipeline/store/event-tail.ts) and state.json, and gives a new board (pipeline/progress/board.ts)
// after each change. site dev's /progress/ page and `state watch` use it. Read-only.
import { statSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Budgets, State } from '../../content-schemas/index.ts';
import { driftedLessons } from '../artifacts/lesson-artifacts.ts';
import { loadConfig } from '../course/config.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { buildBoard, emptyLog, followLog, type Board, type FollowedLog } from './board.ts';
import { notifyHumans } from './notify.ts';
import { openEventTail } from '../store/event-tail.ts';
import { lockPath, readOwner } from '../store/lock.ts';
import { processGone } from '../store/process-identity.ts';
import { readStateFile } from '../store/state-file.ts';

/** ms between checks of the files' sizes, for shared folders that send no change events. */
const POLL_MS = 400;
/** ms to wait for state.json to catch up with the log before showing the change anyway (a writer that crashed in between). */
const STATE_LAG_MS = 1_000;
/**
 * The same while a live process holds the course lock: its commit is under way (a writer starved of
 * CPU on a loaded machine took over STATE_LAG_MS between its event and its state.json, and the change
 * was shown twice, first with the state before it).
 */
const STATE_LAG_LOCKED_MS = 30_000;
/** ms a drift result is reused: drift hashes every verified lesson's code. */
const DRIFT_MS = 5_000;

export interface ProgressSource {
  /** The board now, after reading whatever changed since the last one. */
  board(): Board;
  close(): void;
}

export interface ProgressOptions {
  /** Called with the board at once, then after each change of the log, state.json or config.yaml, and when a lease runs out. */
  onBoard?: (board: Board) => void;
  now?: () => Date;
}

/** One reading of the course's files: state, budgets and the followed log. */
interface Snapshot {
  state: State | null;
  stateStamp: string;
  budgets: Budgets;
  configStamp: string;
  log: FollowedLog;
  drifted: { at: number; lessons: Set<string> };
}

const stampOf = (file: string) => {
  try {
    const stats = statSync(file);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  } catch {
    return 'none';
  }
};

/** The board once, with no watch (a drafts build's page). */
export function readProgressBoard(course: Course, now = new Date()): Board | null {
  const state = readStateFile(course);
  if (state === null) return null;
  const log = followLog(emptyLog(), openEventTail(abs(course, ARTIFACTS.events)).read());
  return buildBoard({ state, budgets: loadConfig(course).budgets, log, drifted: driftedLessons(course, state), now });
}

export function followProgress(course: Course, options: ProgressOptions = {}): ProgressSource {
  const now = options.now ?? (() => new Date());
  const files = {
    events: abs(course, ARTIFACTS.events),
    state: abs(course, ARTIFACTS.state),
    config: abs(course, ARTIFACTS.config),
  };
  const tail = openEventTail(files.events);
  const snap: Snapshot = {
    state: null,
    stateStamp: '',
    budgets: loadConfig(course).budgets,
    configStamp: stampOf(files.config),
    log: followLog(emptyLog(), tail.read()),
    drifted: { at: 0, lessons: new Set() },
  };
  snap.stateStamp = stampOf(files.state);
  snap.state = readStateFile(course);
  if (snap.state === null)
    refuse(
      `${course.root} has no .codelabgen/state.json: nothing to follow`,
      'rebuild it from the event log: codelabgen state rebuild',
    );

  const board = (): Board => {
    const state = snap.state as State; // never null again: a state.json that goes away keeps the last one read
    const at = now();
    if (at.getTime() - snap.drifted.at > DRIFT_MS)
      snap.drifted = { at: at.getTime(), lessons: driftedLessons(course, state) };
    return buildBoard({ state, budgets: snap.budgets, log: snap.log, drifted: snap.drifted.lessons, now: at });
  };

  /** Reads what changed; true when anything did. */
  const refresh = (): boolean => {
    const batch = tail.read();
    let changed = batch.events.length > 0 || batch.reset;
    if (changed) snap.log = followLog(snap.log, batch);
    const stateStamp = stampOf(files.state);
    if (stateStamp !== snap.stateStamp) {
      snap.stateStamp = stateStamp;
      snap.state = readStateFile(course) ?? snap.state;
      changed = true;
    }
    const configStamp = stampOf(files.config);
    if (configStamp !== snap.configStamp) {
      snap.configStamp = configStamp;
      try {
        snap.budgets = loadConfig(course).budgets;
      } catch {
        // a config being edited may not parse yet: keep the last good budgets
      }
      changed = true;
    }
    return changed;
  };

  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  /** A change read while state.json was behind the log: shown once it caught up, or after STATE_LAG_MS. */
  let pendingSince: number | null = null;
  // Read at once on a change event: in site dev the same change also starts Astro's content refresh
  // (over 100 ms of CPU for 200 lessons) on this thread, and the board should not wait behind it.
  const update = () => {
    clearTimeout(timer);
    timer = undefined;
    if (closed) return;
    try {
      if (refresh()) pendingSince ??= Date.now();
      if (pendingSince === null || snap.state === null) return;
      // A commit appends its event, then replaces state.json, under the lock: wait for the state of the same event.
      if (
        snap.state.last_seq < tail.lastSeq &&
        Date.now() - pendingSince < (writing(course) ? STATE_LAG_LOCKED_MS : STATE_LAG_MS)
      )
        return void (timer = setTimeout(update, STATE_LAG_MS / 10));
      pendingSince = null;
      emit();
    } catch {
      // a file replaced mid-read: the next change or poll reads it again
    }
  };
  // A lease that runs out changes no file, but moves its task from running to interrupted: the
  // board is drawn again then.
  let leaseTimer: NodeJS.Timeout | undefined;
  const emit = () => {
    clearTimeout(leaseTimer);
    const next = board();
    options.onBoard?.(next);
    // A lease that ran out changes no file, so no command notifies it: the board that shows it does.
    if (next.interrupted.length > 0) void notifyHumans(course, { now: new Date(next.now) });
    const at = Date.parse(next.now);
    const ends = next.running.flatMap((task) => (task.lease_seconds === null ? [] : [task.lease_seconds * 1000]));
    if (ends.length > 0)
      leaseTimer = setTimeout(
        () => !closed && emit(),
        Math.min(2 ** 31 - 1, Math.min(...ends) + 500 - (Date.now() - at)),
      );
  };
  const onPoll = () => update();
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(path.dirname(files.events), (_type, name) => {
      if (name === null || name === 'events.jsonl' || name === 'state.json' || name === 'config.yaml') update();
    });
    watcher.on('error', () => {}); // the folder was removed: the polls below keep trying
  } catch {
    watcher = undefined; // no change events here: the polls cover it
  }
  for (const file of [files.events, files.state]) watchFile(file, { interval: POLL_MS }, onPoll);
  if (options.onBoard) emit(); // the first board, now
  return {
    board: () => {
      refresh();
      return board();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(leaseTimer);
      watcher?.close();
      for (const file of [files.events, files.state]) unwatchFile(file, onPoll);
    },
  };
}

/** Whether a live process holds the course lock (a lock file that does not read counts as none). */
function writing(course: Course): boolean {
  try {
    const owner = readOwner(lockPath(course));
    return typeof owner === 'object' && !processGone(owner);
  } catch {
    return false;
  }
}
