// pipeline: the course engine. No printing, no process.exit, no argv. cli/ imports only this file.
export * from './errors.ts';
export * from './course.ts';
export * from './store/index.ts';
export { apply, initialState, ReplayError } from './state/apply.ts';
export { getOwn } from './state/keyed.ts';
export { checkCourse, CHECKS, type CheckReport, type CheckSection, type CourseCheck } from './check.ts';
export { loadConfig } from './config.ts';
export { decideFailure, requireLesson } from './fix-budget.ts';
export { hashLessonCode, listLessonCodeFiles } from './code-hash.ts';
export { lastRun, readRuns, readRunsIn, runNumbers, writeRunResult } from './runs.ts';
export { codeDrift, currentCodeHash, type CodeDrift } from './drift.ts';
