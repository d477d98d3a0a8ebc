// pipeline: the course engine. No printing, no process.exit, no argv. cli/ imports only this file.
export * from './course/errors.ts';
export * from './course/course.ts';
export { isInside, realPathOf } from './course/inside.ts';
export { OutsideError, readFileInside } from './course/confined.ts';
export * from './store/index.ts';
export { apply, initialState, ReplayError } from './state/apply.ts';
export { getOwn } from './state/keyed.ts';
export { checkCourse, CHECKS, type CheckReport, type CheckSection, type CourseCheck } from './check/check.ts';
export { loadConfig } from './course/config.ts';
export {
  dependenciesOutsideRepository,
  outsideDependencyFix,
  outsideDependencyProblem,
  type OutsideDependency,
} from './course/outside-dependencies.ts';
export { hashLessonCode, listLessonCodeFiles } from './artifacts/code-hash.ts';
export { lastRun, readRuns, readRunsIn, runNumbers, writeRunResult } from './verify/runs.ts';
export { codeDrift, currentCodeHash, type CodeDrift } from './artifacts/drift.ts';
export {
  lessonFolder,
  recordVerdict,
  runLesson,
  type UnrecordedRun,
  type VerifyOptions,
} from './verify/verify-lesson.ts';
export {
  defaultJobs,
  parseShard,
  selectLessons,
  shardOf,
  verifyAll,
  type Progress,
  type Shard,
} from './verify/verify-all.ts';
export { mergeRunFolders } from './verify/merge.ts';
export { failureLocation, type FailureLocation } from './verify/failure-location.ts';
export { stopRunningTests } from './verify/run-tests.ts';
export { summarize, summaryEntry, type SummaryEntry, type VerifySummary } from './verify/summary.ts';
// The protocol's decisions (pure) and the facts they take (read from the course).
export { DECISIONS, type DecidedCommand } from './protocol/commands.ts';
export { decideFailure } from './protocol/fix-budget.ts';
export { leaseHolds } from './protocol/leases.ts';
export { parseStage, requireLesson } from './protocol/lessons.ts';
export { decideLog, parseLogRequest } from './protocol/log.ts';
export { GATES, decidePhase, nextPhase, type PhaseAction } from './protocol/phases.ts';
export { planNext, type NextPlan, type WorkItem } from './protocol/planner.ts';
export { changedPrerequisites, type ChangedPrerequisite } from './protocol/prerequisites.ts';
export { decideRegister } from './protocol/register.ts';
export { decideSiteBuild } from './protocol/site-build.ts';
export {
  STAGE_TABLE,
  decideBlock,
  decideFail,
  decideRework,
  decideSet,
  decideStale,
  decideUnblock,
  stageRow,
  type StageRow,
} from './protocol/stages.ts';
export {
  decideStart,
  decideTaskFinish,
  decideTaskHeartbeat,
  decideTaskReset,
  isOpen,
  listTasks,
  parseLease,
  taskDurationMs,
} from './protocol/tasks.ts';
export { requireAtCode } from './protocol/verdict.ts';
export { curriculumLessons, missingLessonFolders, readCurriculum } from './artifacts/curriculum.ts';
export { failFacts, phaseFacts, stageMoveFacts } from './artifacts/facts.ts';
export { driftedLessons } from './artifacts/lesson-artifacts.ts';
export { phaseActions } from './artifacts/phase-actions.ts';
export { readPrerequisites } from './artifacts/prerequisites.ts';
export { lessonFilesChangedSince } from './artifacts/task-files.ts';
export {
  addCurriculumEntry,
  planCurriculumEntry,
  requireTemplate,
  slugify,
  templateFile,
  type AddedLesson,
  type NewEntry,
} from './authoring/authoring.ts';
export {
  CONVENTION_TOPICS,
  renderConventions,
  renderConventionsDoc,
  type ConventionTopic,
} from './authoring/conventions.ts';
export { lastJsonBlock, parseWorkerStatus, type StatusExpectation } from './protocol/worker-status.ts';
export { buildSummary } from './report/summary.ts';
export { buildBoard, followLog, emptyLog, type Board } from './progress/board.ts';
export { followProgress, readProgressBoard } from './progress/source.ts';
export { boardLine, boardScreen } from './progress/text.ts';
export { allowReceivers, commandRisk, type Receiver } from './progress/notify-consent.ts';
export { openEventTail, watchEventTail, type EventTail, type TailBatch } from './store/event-tail.ts';
export { buildReport, renderReport } from './report/report.ts';
export { writeReportFiles } from './report/files.ts';
export {
  BRIEFED_PHASES,
  buildBrief,
  courseSentence,
  LESSON_ROLES,
  PHASE_ROLES,
  ROLE_NAMES,
  readBriefFacts,
  type Brief,
  type BriefRequest,
} from './brief/brief.ts';
