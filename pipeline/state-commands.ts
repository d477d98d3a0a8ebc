// The state commands' entry (those dist/state.cjs runs: the entries with a `load` in their registry,
// cli/commands-state.ts): the store and the decisions, without verify, report or the site, whose code and Node
// modules (child_process, perf_hooks) those commands would otherwise load on every call.
// pipeline/index.ts exports the same.
import { loadLazily } from '../content-schemas/fast.ts';
export { MAX_DATA_FILE_BYTES, readRegularFile, UnreadableFileError } from '../content-schemas/fast.ts';
import type * as ReportFiles from './report/files.ts';

export { ARTIFACTS, escapeControl, printable, resolveCourse, type Course } from './course/course.ts';
export { refuse } from './course/errors.ts';
export { commit } from './store/commit.ts';
export { releaseHeldLocks } from './store/lock.ts';
export { loadState } from './store/recover.ts';
export { storedTextOf } from './store/state-file.ts';
export { getOwn } from './state/keyed.ts';
export { loadConfig } from './course/config.ts';
export { decidePhase, nextPhase, type PhaseAction } from './protocol/phases.ts';
export {
  TASK_PHASES,
  decideStart,
  decideTaskFinish,
  decideTaskHeartbeat,
  decideTaskReset,
  listTasks,
  requireRunningTask,
  parseLease,
  taskDurationMs,
} from './protocol/tasks.ts';
export { parseWorkerStatus, type StatusExpectation } from './protocol/worker-status.ts';
export {
  decideBlock,
  decideFail,
  decideRework,
  decideSet,
  decideStale,
  decideUnblock,
  reworkLanding,
} from './protocol/stages.ts';
export { DATA_KEY, decideLog, parseLogRequest } from './protocol/log.ts';
export { planNext } from './protocol/planner.ts';
export { lastHeardText, leaseHolds } from './protocol/leases.ts';
export { failFacts, phaseFacts, stageMoveFacts } from './artifacts/facts.ts';
export { driftedLessons } from './artifacts/lesson-artifacts.ts';
export { phaseActions } from './artifacts/phase-actions.ts';
export { readPrerequisites } from './artifacts/prerequisites.ts';
export { buildSummary } from './report/summary.ts';
export { buildBoard, followLog, emptyLog, type Board } from './progress/board.ts';
export { followProgress, readProgressBoard } from './progress/source.ts';
export { boardLine, boardScreen } from './progress/text.ts';
export { notifyHumans } from './progress/notify-lazily.ts';
export { openEventTail, watchEventTail, type EventTail, type TailBatch } from './store/event-tail.ts';
export { lessonFilesChangedSince } from './artifacts/task-files.ts';

/** `state phase done` writes the report again; the report's code (and zod) loads only then (dist/report-files.mjs). */
export const writeReportFiles: typeof ReportFiles.writeReportFiles = (course, lastSeq, command) =>
  loadLazily<typeof ReportFiles>('report-files', '../pipeline/report/files.ts').writeReportFiles(
    course,
    lastSeq,
    command,
  );
