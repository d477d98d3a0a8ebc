// The fix-attempt rule shared by `state fail` and `verify --update-state`: each failure uses one
// attempt; the one that uses up `budgets.fix_attempts` blocks the lesson. The outcome is put in
// the event, so replay never recomputes it from config.
import type { Budgets, EventDraft, LessonState, State } from '../../content-schemas/index.ts';
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { requireLesson } from './lessons.ts';

export function decideFailure(
  state: State,
  id: string,
  note: string,
  budgets: Budgets,
  via: 'state fail' | 'verify',
  run: number | null,
  codeHash: string | null = null,
): EventDraft {
  const lesson = requireLesson(state, id);
  if (lesson.blocked)
    refuse(
      `lesson ${id} is blocked (${printable(lesson.blocked.reason, 120)}); unblock it first`,
      `codelabgen state unblock ${id}`,
    );
  if (lesson.stage !== 'code') refuse(`lesson ${id} is at ${lesson.stage}; a failure is recorded only at stage code`);
  const used = lesson.fix_attempts_used + 1;
  return {
    kind: 'lesson.fail',
    lesson: id,
    note,
    fix_attempts_used: used,
    blocked: used >= budgets.fix_attempts,
    via,
    run,
    ...(via === 'verify' && codeHash ? { code_hash: codeHash } : {}),
  };
}

/** The verify run that already counted this failure: the last one failed on the code as it is now. */
export function countedByVerify(lesson: LessonState, currentHash: string | null): number | null {
  const last = lesson.last_verify_failure;
  if (!last || currentHash === null || last.code_hash !== currentHash) return null;
  return last.run ?? 0;
}
