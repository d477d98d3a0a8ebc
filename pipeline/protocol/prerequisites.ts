// Prerequisites: a done lesson whose prerequisite (curriculum `prerequisites`) drifted, was moved
// back or was marked stale after it was done may be broken. `check` and `state next` flag it while
// the prerequisite is unsettled; a lesson's tests run in its own folder only, so re-running them
// settles nothing. Pure: the prerequisites come from artifacts/prerequisites.ts.
import type { LessonState, State } from '../../content-schemas/index.ts';

export interface ChangedPrerequisite {
  /** The done lesson that may be broken. */
  lesson: string;
  /** Its prerequisite that changed. */
  depends_on: string;
  change: 'drifted' | 'moved back' | 'stale';
  message: string;
  /** Commands that settle it. */
  fix: string;
}

function after(time: string | undefined, doneAt: string | undefined): boolean {
  return time !== undefined && (doneAt === undefined || Date.parse(time) > Date.parse(doneAt));
}

/** What settles each change on the prerequisite's side. */
const SETTLED: Record<ChangedPrerequisite['change'], string> = {
  drifted: 'is verified again',
  stale: 'is redone',
  'moved back': 'is done again',
};

/** How `prerequisite` changed after `lesson` was done, or null. */
function changeOf(
  lesson: LessonState,
  prerequisite: LessonState,
  drifted: ReadonlySet<string>,
): ChangedPrerequisite['change'] | null {
  if (drifted.has(prerequisite.id)) return 'drifted';
  if (prerequisite.stale && after(prerequisite.stale.at, lesson.done_at)) return 'stale';
  if (prerequisite.stage !== 'done' && prerequisite.rework && after(prerequisite.rework.at, lesson.done_at))
    return 'moved back';
  return null;
}

/** Done, not stale lessons with a prerequisite that changed after they were done, in curriculum order. */
export function changedPrerequisites(
  state: State,
  prerequisites: ReadonlyMap<string, readonly string[]>,
  drifted: ReadonlySet<string>,
): ChangedPrerequisite[] {
  const flags: ChangedPrerequisite[] = [];
  for (const id of state.lesson_order) {
    const lesson = state.lessons[id];
    if (!lesson || lesson.stage !== 'done' || lesson.stale) continue;
    for (const before of prerequisites.get(id) ?? []) {
      const prerequisite = state.lessons[before];
      const change = prerequisite ? changeOf(lesson, prerequisite, drifted) : null;
      if (change === null) continue;
      flags.push({
        lesson: id,
        depends_on: before,
        change,
        message:
          `${id} depends on ${before}, which changed after ${id} was done (${before} ` +
          `${change === 'drifted' ? 'drifted' : change === 'stale' ? 'is stale' : `was moved back to ${prerequisite?.stage}`}` +
          ')',
        fix:
          `read ${id} against the change; if it relies on what changed, redo it: codelabgen state stale ${id} ` +
          `--reason "${before} changed". This clears when ${before} ${SETTLED[change]} or ${id} is marked stale ` +
          `(verify ${id} re-runs only its own tests and clears nothing)`,
      });
    }
  }
  return flags;
}
