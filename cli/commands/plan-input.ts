// What state next and state show both need: state (recovered), budgets, the phase's actions, drift.
import type { Budgets, State } from '../../content-schemas/index.ts';
import {
  driftedLessons,
  getOwn,
  leaseHolds,
  lessonFilesChangedSince,
  loadConfig,
  readPrerequisites,
  loadState,
  phaseActions,
  type Course,
  type PhaseAction,
} from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';

export interface Snapshot {
  course: Course;
  state: State;
  budgets: Budgets;
  actions: PhaseAction[];
  drifted: Set<string>;
  /** Lesson id → prerequisites from curriculum.yaml. */
  prerequisites: Map<string, string[]>;
  /** Files changed since each interrupted task started, by task id (for their hints). */
  changedFiles: Map<string, string[]>;
}

/** The course and its state, recovered (notices reported): all `state show --json` needs. */
export async function readRecoveredState(ctx: Context): Promise<{ course: Course; state: State }> {
  const course = courseOf(ctx);
  const { state, notices } = await loadState(course, ctx.commandLine);
  reportNotices(ctx, notices);
  return { course, state };
}

export async function readSnapshot(ctx: Context): Promise<Snapshot> {
  const { course, state } = await readRecoveredState(ctx);
  const budgets = loadConfig(course).budgets;
  const now = new Date();
  const changedFiles = new Map<string, string[]>();
  for (const task of Object.values(state.tasks)) {
    // Only interrupted tasks (lease run out) get the changed-files hint.
    const lesson =
      task.status === 'running' && !leaseHolds(task, now) && task.lesson !== null
        ? getOwn(state.lessons, task.lesson)
        : undefined;
    if (lesson) changedFiles.set(task.id, lessonFilesChangedSince(course, lesson, task.started_at));
  }
  return {
    course,
    state,
    budgets,
    actions: phaseActions(course, state),
    drifted: driftedLessons(course, state),
    changedFiles,
    prerequisites: readPrerequisites(course),
  };
}
