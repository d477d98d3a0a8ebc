// `codelabgen register`'s decision: the lessons.register event from the curriculum's lessons
// (artifacts/curriculum.ts reads them); refuses dropping or moving a lesson that has progressed
// unless explicitly allowed. Pure.
import type { EventDraft, RegisteredLesson, State } from '../../content-schemas/index.ts';
import { refuse } from '../course/errors.ts';
import { getOwn } from '../state/keyed.ts';

export interface RegisterPlan {
  draft: EventDraft;
  added: string[];
  updated: string[];
  removed: string[];
  /** True when the event would change nothing in state. */
  unchanged: boolean;
}

/** The lessons.register event; refuses dropping or moving a progressed lesson unless allowDrop. */
export function decideRegister(state: State, lessons: RegisteredLesson[], allowDrop: boolean): RegisterPlan {
  const ids = new Set(lessons.map((lesson) => lesson.id));
  const removed = state.lesson_order.filter((id) => !ids.has(id));
  for (const id of removed) {
    const lesson = state.lessons[id];
    if (lesson && lesson.stage !== 'pending' && !allowDrop)
      refuse(
        `lesson ${id} (at ${lesson.stage}) is no longer in the curriculum; register refuses to drop a lesson that has progressed`,
        'put it back in curriculum.yaml, or drop it explicitly: codelabgen register --allow-drop',
      );
  }
  const added: string[] = [];
  const updated: string[] = [];
  for (const lesson of lessons) {
    const existing = getOwn(state.lessons, lesson.id);
    if (!existing) {
      added.push(lesson.id);
      continue;
    }
    if (existing.dir !== lesson.dir && existing.stage !== 'pending' && !allowDrop) {
      refuse(
        `lesson ${lesson.id} (at ${existing.stage}) would move from ${existing.dir} to ${lesson.dir}; ` +
          'register refuses to renumber or move a lesson that has progressed',
        'keep its module and slug in curriculum.yaml, or move it explicitly: codelabgen register --allow-drop (then move its folder yourself)',
      );
    }
    const changed = (['title', 'slug', 'module_id', 'module_slug', 'module_title', 'dir'] as const).some(
      (key) => existing[key] !== lesson[key],
    );
    if (changed) updated.push(lesson.id);
  }
  const sameOrder =
    lessons.length === state.lesson_order.length && lessons.every((lesson, i) => state.lesson_order[i] === lesson.id);
  const unchanged = added.length === 0 && updated.length === 0 && removed.length === 0 && sameOrder;
  return { draft: { kind: 'lessons.register', lessons, removed }, added, updated, removed, unchanged };
}
