// The state commands' entry (state show|next|log|set|fail|block|unblock|stale): the store and the
// decisions, without verify, report or the site, whose chunks and Node modules (child_process,
// perf_hooks) those commands would otherwise load on every call. pipeline/index.ts exports the same.
export { printable, resolveCourse, type Course } from './course.ts';
export { refuse } from './errors.ts';
export { commit } from './store/commit.ts';
export { loadState } from './store/recover.ts';
export { getOwn } from './state/keyed.ts';
export { loadConfig } from './config.ts';
export { nextPhase, phaseActions, type PhaseAction } from './phases.ts';
export { decideBlock, decideFail, decideSet, decideStale, decideUnblock, driftedLessons } from './stages.ts';
export { planNext } from './planner.ts';
export { buildSummary } from './summary.ts';
export { leaseHolds } from './leases.ts';
export { lessonFilesChangedSince } from './task-files.ts';
export { readPrerequisites } from './prerequisites.ts';
