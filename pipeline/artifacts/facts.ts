// The facts the protocol's decisions take, read from the course: run inside the commit's lock, on
// the state the decision sees, so protocol/ stays pure (docs/architecture.md).
import type { State } from '../../content-schemas/index.ts';
import { STAGES, stageIndex } from '../../content-schemas/fast.ts';
import type { Course } from '../course/course.ts';
import { codeDrift, currentCodeHash } from './drift.ts';
import { GATES, nextPhase, type PhaseFacts } from '../protocol/phases.ts';
import { stageRow, type FailFacts, type SetRequest, type StageMoveFacts } from '../protocol/stages.ts';
import { reviewEvidence } from '../report/review.ts';
import { getOwn } from '../state/keyed.ts';
import { forwardProblems } from './lesson-artifacts.ts';
import { phaseActions } from './phase-actions.ts';

/** `state set`: the artifact check of a forward move (only when it is one the decision may allow), and review.md. */
export function stageMoveFacts(course: Course, state: State, request: SetRequest): StageMoveFacts {
  const lesson = getOwn(state.lessons, request.id);
  if (lesson === undefined) return { forwardProblems: [], review: {} };
  const target = request.stage;
  const forward =
    (STAGES as readonly string[]).includes(target) &&
    !lesson.blocked &&
    !request.reopen &&
    target !== 'verified' &&
    target === stageRow(lesson.stage).next_stage;
  const back =
    (STAGES as readonly string[]).includes(target) &&
    stageIndex(target as (typeof STAGES)[number]) < stageIndex(lesson.stage);
  return {
    forwardProblems: forward ? forwardProblems(course, state, lesson, target as (typeof STAGES)[number]) : [],
    review: reviewEvidence(course, request.id),
    ...(back && lesson.verified ? { drifted: codeDrift(course, lesson).drifted } : {}),
  };
}

/** `state fail`: the hash of the lesson's code now, when the lesson is at code after a failing verify (which may have blocked it). */
export function failFacts(course: Course, state: State, id: string): FailFacts {
  const lesson = getOwn(state.lessons, id);
  return {
    codeHash: lesson && lesson.stage === 'code' && lesson.last_verify_failure ? currentCodeHash(course, lesson) : null,
  };
}

/**
 * `state phase <target>`: the problems of the current phase's required actions, checked only for a move
 * the decision may allow (the next phase, approved at a gate), so a refusal before them reads nothing.
 */
export function phaseFacts(course: Course, state: State, target: string, approved: boolean): PhaseFacts {
  const next = nextPhase(state.phase);
  if (next === null || target !== next || (GATES.includes(state.phase) && !approved)) return { problems: [] };
  return { problems: phaseActions(course, state).flatMap((action) => action.problems) };
}
