// `verify --update-state`'s decision: a passing run verifies the lesson at the code's hash, a failing
// one uses a fix attempt (fix-budget.ts). Pure: the run result is the fact it decides on.
import type { Budgets, EventDraft, RunResult, State } from '../../content-schemas/index.ts';
import { stageIndex } from '../../content-schemas/fast.ts';
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { decideFailure } from './fix-budget.ts';
import { requireLesson } from './lessons.ts';

/** Refuses unless the lesson can take a verdict: at stage code and not blocked. */
export function requireAtCode(state: State, id: string): void {
  const lesson = requireLesson(state, id);
  if (lesson.blocked)
    refuse(
      `lesson ${id} is blocked (${printable(lesson.blocked.reason, 120)}); unblock it first`,
      `codelabgen state unblock ${id}`,
    );
  // The hint is a command that is taken: stages move forward one at a time (spec to code; pending not yet), and back
  // only with a note.
  if (lesson.stage !== 'code')
    refuse(
      `lesson ${id} is at ${lesson.stage}; verify --update-state needs it at code`,
      lesson.stage === 'spec'
        ? `when its code is written: codelabgen state set ${id} code`
        : stageIndex(lesson.stage) < stageIndex('code')
          ? `to run its tests without recording a verdict: codelabgen verify ${id}`
          : `to verify it again: codelabgen state set ${id} code --note "why"`,
    );
}

/**
 * The run's verdict as an event (`evidence`: the first failing test, from its output): pass → lesson.verified with
 * the code hash; failure → a fix attempt used.
 */
export function decideVerdict(state: State, result: RunResult, evidence: string | null, budgets: Budgets): EventDraft {
  if (!result.passed) {
    const failure = decideFailure(
      state,
      result.lesson,
      result.cause ?? 'tests failed',
      budgets,
      'verify',
      result.run,
      result.code_hash,
    );
    return { ...failure, tests: result.tests, evidence } as EventDraft;
  }
  requireAtCode(state, result.lesson);
  return {
    kind: 'lesson.verified',
    lesson: result.lesson,
    code_hash: result.code_hash,
    run: result.run,
    tests: result.tests,
  };
}
