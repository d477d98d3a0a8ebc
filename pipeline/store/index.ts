// pipeline/store: the crash-safe course store (lock, event log, atomic state, recovery, replay).
export {
  commit,
  commitChange,
  writeCourseFiles,
  type ChangeDraft,
  type Committed,
  type CommitOptions,
} from './commit.ts';
export { createCourseFile, makeCourseFolder, type CourseWrite } from './staged-change.ts';
export { createCourse, DEFAULT_CONFIG_YAML } from './create.ts';
export { loadState, recoverLocked, type Loaded } from './recover.ts';
export { checkReplay, rebuildState, replayLog, type ReplayCheck } from './rebuild.ts';
export { holdLock, releaseHeldLocks, withLock, readOwner, type LockOwner } from './lock.ts';
export { scanLog } from './log.ts';
export { eventsPath, statePath, readStateFile, storedTextOf } from './state-file.ts';
