// The lookups every lesson decision starts with: the lesson itself and a stage name. Pure.
import type { LessonState, Stage, State } from '../../content-schemas/index.ts';
import { STAGES } from '../../content-schemas/fast.ts';
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { getOwn } from '../state/keyed.ts';

export function requireLesson(state: State, id: string): LessonState {
  const lesson = getOwn(state.lessons, id);
  if (lesson === undefined)
    refuse(`unknown lesson "${printable(id)}"`, 'list lessons with: codelabgen state show --all');
  return lesson;
}

/** A stage name given as an argument (`state set`), or as the value of `option` (`--stage-at-least`). */
export function parseStage(text: string, option?: string): Stage {
  if ((STAGES as readonly string[]).includes(text)) return text as Stage;
  if (option === undefined) refuse(`unknown stage "${printable(text)}"; stages: ${STAGES.join(', ')}`);
  return refuse(`${option} "${printable(text)}": expected one of ${STAGES.join(', ')}`);
}
