// What state next and state show both need: state (recovered), budgets, the phase's actions, drift.
import type { Budgets, State } from '../../content-schemas/index.ts';
import { driftedLessons, loadConfig, loadState, phaseActions, type Course, type PhaseAction } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';

export interface Snapshot {
  course: Course;
  state: State;
  budgets: Budgets;
  actions: PhaseAction[];
  drifted: Set<string>;
}

export async function readSnapshot(ctx: Context): Promise<Snapshot> {
  const course = courseOf(ctx);
  const { state, notices } = await loadState(course, ctx.commandLine);
  reportNotices(ctx, notices);
  const budgets = loadConfig(course).budgets;
  return { course, state, budgets, actions: phaseActions(course, state), drifted: driftedLessons(course, state) };
}

