// The state commands' entry (state show|next|log|set|fail|block|unblock|stale): the store and the
// decisions, without verify, report or the site, whose chunks and Node modules (child_process,
// perf_hooks) those commands would otherwise load on every call. pipeline/index.ts exports the same.
export { printable, resolveCourse, type Course } from './course.ts';
export { refuse } from './errors.ts';
export { commit } from './store/commit.ts';
export { releaseHeldLocks } from './store/lock.ts';
export { loadState } from './store/recover.ts';
export { getOwn } from './state/keyed.ts';
export { loadConfig } from './config.ts';
export { nextPhase, type PhaseAction } from './protocol/phases.ts';
export { decideBlock, decideFail, decideSet, decideStale, decideUnblock } from './protocol/stages.ts';
export { decideLog, parseLogRequest } from './protocol/log.ts';
export { planNext } from './protocol/planner.ts';
export { leaseHolds } from './protocol/leases.ts';
export { failFacts, stageMoveFacts } from './artifacts/facts.ts';
export { driftedLessons } from './artifacts/lesson-artifacts.ts';
export { phaseActions } from './artifacts/phase-actions.ts';
export { readPrerequisites } from './artifacts/prerequisites.ts';
export { buildSummary } from './summary.ts';
export { lessonFilesChangedSince } from './artifacts/task-files.ts';
