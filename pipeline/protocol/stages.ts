// Lesson stages (docs/protocol.md, "Lesson stages"): the stage table, and the decisions of `state set`,
// `state fail`, `state block`, `state unblock` and `state stale` as event drafts or refusals. Pure:
// what the disk says comes in as facts (artifacts/facts.ts).
import type { Budgets, EventDraft, EventOf, LessonState, Phase, Stage, State } from '../../content-schemas/index.ts';
import { PHASES, STAGES, stageIndex, WORKER_ROLES } from '../../content-schemas/fast.ts';
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { countedByVerify, decideFailure } from './fix-budget.ts';
import { parseStage, requireLesson } from './lessons.ts';

/** `{ review }` of a lesson.stage event: review.md's verdict and findings, or `{}` when there is none. */
export type ReviewEvidence = Pick<EventOf<'lesson.stage'>, 'review'>;

export interface StageRow {
  /** The stage the lesson is at (its last completed stage). */
  stage: Stage;
  /** The stage the work moves it to, or null at done. */
  next_stage: Stage | null;
  /** Worker role that does the work, or "orchestrator" when no worker is needed. */
  role: string;
  work: string;
  /** What the orchestrator runs afterwards. */
  then: string;
}

const ROWS: readonly Omit<StageRow, 'role'>[] = [
  {
    stage: 'pending',
    next_stage: 'spec',
    work: 'writes .codelabgen/lessons/<id>/spec.yaml',
    then: 'codelabgen state set <id> spec',
  },
  {
    stage: 'spec',
    next_stage: 'code',
    work: 'writes the lesson code and tests',
    then: 'codelabgen state set <id> code',
  },
  {
    stage: 'code',
    next_stage: 'verified',
    work: 'codelabgen verify <id> --update-state passes (a code-fixer repairs failures)',
    then: 'nothing: verify sets verified or counts a failure',
  },
  {
    stage: 'verified',
    next_stage: 'readalong',
    work: 'writes docs/readalong.md',
    then: 'codelabgen state set <id> readalong',
  },
  {
    stage: 'readalong',
    next_stage: 'notes',
    work: 'writes docs/notes.md',
    then: 'codelabgen state set <id> notes',
  },
  {
    stage: 'notes',
    next_stage: 'reviewed',
    work: 'writes .codelabgen/lessons/<id>/review.md with verdict pass',
    then: 'codelabgen state set <id> reviewed',
  },
  {
    stage: 'reviewed',
    next_stage: 'done',
    work: 'final checks',
    then: 'codelabgen state set <id> done',
  },
  { stage: 'done', next_stage: null, work: 'nothing', then: 'nothing' },
];

/** The worker role of each stage, from the roles' registry; the orchestrator's own where none works. */
function roleAt(stage: Stage): string {
  return WORKER_ROLES.find((entry) => 'stage' in entry && entry.stage === stage)?.role ?? 'orchestrator';
}

// The keys in the order `state stages` prints them.
export const STAGE_TABLE: readonly StageRow[] = ROWS.map(({ stage, next_stage, work, then }) => ({
  stage,
  next_stage,
  role: roleAt(stage),
  work,
  then,
}));

export { stageIndex };

export function stageRow(stage: Stage): StageRow {
  return STAGE_TABLE[stageIndex(stage)] as StageRow;
}

/** Why a review does not belong to the current round (after a move back), or null when it does. */
export function staleReview(lesson: LessonState, round: number | undefined, mtimeMs: number): string | null {
  if (!lesson.rework) return null;
  const current = lesson.review_rounds_used + 1;
  if (round === current || mtimeMs >= Date.parse(lesson.rework.at)) return null;
  return (
    `written before the move back from ${lesson.rework.from} (${lesson.rework.at})` +
    `${round === undefined ? '' : ` for round ${round}`}; the current review round is ${current}: review again ` +
    `(round: ${current})`
  );
}

function unblocked(lesson: LessonState, verb: string): void {
  if (lesson.blocked)
    refuse(
      `lesson ${lesson.id} is blocked (${printable(lesson.blocked.reason, 120)}); it cannot ${verb} until unblocked`,
      `codelabgen state unblock ${lesson.id}`,
    );
}

/** Phases in which every lesson is done: a move back there must reopen the course (`--reopen`). */
export const FINISHED_PHASES: readonly Phase[] = PHASES.slice(PHASES.indexOf('assembly'));

/** What `state set` is asked: `state set <id> <stage> [--note] [--reopen]`. */
export interface SetRequest {
  id: string;
  stage: string;
  note: string | null;
  reopen?: boolean;
}

/** What the disk says for a stage move (artifacts/facts.ts gathers it under the lock). */
export interface StageMoveFacts {
  /** Problems of the artifact the forward move needs; empty when it may move (or not a forward move). */
  forwardProblems: string[];
  /** The review.md verdict and findings, recorded on a move to or back from review. */
  review: ReviewEvidence;
  /** True when the lesson's code changed since its verification (drift); read for moves back only. */
  drifted?: boolean;
}

/** `state set`: one step forward when the artifact checks passed, or back with a note. */
export function decideSet(state: State, request: SetRequest, facts: StageMoveFacts, budgets: Budgets): EventDraft {
  const { id, note, reopen = false } = request;
  const stageName = request.stage;
  const lesson = requireLesson(state, id);
  const target = parseStage(stageName);
  unblocked(lesson, 'move');
  const from = lesson.stage;
  if (target === from)
    refuse(
      `lesson ${id} is already at ${from}`,
      ...(from === 'pending'
        ? []
        : [
            `to redo ${from}: codelabgen state rework ${id} ${from} --note "why" (moves it back to ${reworkTarget(from)})`,
          ]),
    );
  const finished = FINISHED_PHASES.includes(state.phase);
  if (reopen && (!finished || stageIndex(target) > stageIndex(from)))
    refuse(
      `state set ${id}: --reopen is only for moving a lesson back while the course is at ${FINISHED_PHASES.join(' or ')} (it is at ${state.phase})`,
    );
  if (stageIndex(target) < stageIndex(from)) {
    if (finished && !reopen) {
      refuse(
        `lesson ${id}: the course is at phase ${state.phase}, which needs every lesson done; to rework it, ` +
          `reopen the course: codelabgen state set ${id} ${target} --note "..." --reopen (moves the phase back ` +
          'to lessons)',
      );
    }
    const reverify = facts.drifted === true && stageIndex(target) <= stageIndex('code');
    return {
      ...decideBack(lesson, target, note, budgets, facts.review),
      ...(reopen ? { reopened: state.phase } : {}),
      ...(reverify ? { drifted: true as const } : {}),
    };
  }
  if (target === 'verified') refuse(`lesson ${id}: verified is set only by "codelabgen verify ${id} --update-state"`);
  const next = stageRow(from).next_stage;
  if (target !== next)
    refuse(
      `lesson ${id} is at ${from}: stages move forward one at a time; the next stage is ${next}` +
        `${next === 'verified' ? ` (set by codelabgen verify ${id} --update-state)` : ''}`,
    );
  const problems = facts.forwardProblems;
  if (problems.length > 0) {
    // A message of several lines (mermaid's parse error, with its caret) keeps them: the rest follow as hints.
    const [first, ...continued] = (problems[0] ?? '').split('\n');
    refuse(
      `lesson ${id}: cannot move to ${target}: ${first}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
      ...continued,
      ...problems.slice(1, 20),
    );
  }
  return {
    kind: 'lesson.stage',
    lesson: id,
    from,
    to: target,
    note,
    review_round_used: false,
    ...(target === 'reviewed' ? facts.review : {}),
  };
}

/**
 * `state rework <id> <stage-to-redo> --note`: moves the lesson back to the stage before the one to
 * redo (`stage` is the last completed stage, so redoing readalong means going back to verified),
 * under the rules of a backward `state set` (note, review rounds, --reopen).
 */
export function decideRework(state: State, request: SetRequest, facts: StageMoveFacts, budgets: Budgets): EventDraft {
  const lesson = requireLesson(state, request.id);
  const redo = parseStage(request.stage);
  if (redo === 'pending')
    refuse(
      `state rework ${lesson.id}: pending is no work to redo; to write the spec again: codelabgen state rework ${lesson.id} spec --note "why"`,
    );
  if (stageIndex(redo) > stageIndex(lesson.stage)) {
    refuse(
      `lesson ${lesson.id} is at ${lesson.stage}: ${redo} is not done yet, so there is nothing to redo; the ` +
        `work now is ${stageRow(lesson.stage).next_stage ?? 'none'}`,
    );
  }
  return decideSet(state, { ...request, stage: reworkTarget(redo) }, facts, budgets);
}

/** The stage `state rework` lands on for the text given (the text itself when it names no stage to redo: the decision refuses it). */
export function reworkLanding(redo: string): string {
  return (STAGES as readonly string[]).includes(redo) && redo !== 'pending' ? reworkTarget(redo as Stage) : redo;
}

/** The stage a lesson moves back to so that `redo` is the work done next. */
export function reworkTarget(redo: Stage): Stage {
  return STAGES[stageIndex(redo) - 1] as Stage;
}

/** The hint a backward move's refusal carries: name the stage to redo instead of the one to land on. */
function reworkHint(id: string, target: Stage): string {
  const redo = STAGES[stageIndex(target) + 1];
  return `moving back to ${target} redoes ${redo}; to name the stage to redo instead: codelabgen state rework ${id} ${redo} --note "why"`;
}

function decideBack(
  lesson: LessonState,
  target: Stage,
  note: string | null,
  budgets: Budgets,
  review: ReviewEvidence,
): Extract<EventDraft, { kind: 'lesson.stage' }> {
  const id = lesson.id;
  if (note === null || note.trim() === '')
    refuse(`lesson ${id}: moving back from ${lesson.stage} to ${target} needs --note "why"`, reworkHint(id, target));
  const usesRound = lesson.stage === 'notes' || lesson.stage === 'reviewed';
  const rounds = reviewRounds(lesson, budgets);
  if (usesRound && lesson.review_rounds_used >= rounds) {
    refuse(
      `lesson ${id}: review rounds used up (${lesson.review_rounds_used} of ${rounds}); it cannot move back from ${lesson.stage}`,
      `block it for the user: codelabgen state block ${id} --reason "..."; the user may grant one more round: ` +
        `codelabgen state unblock ${id} --review-round --note "<their decision>"`,
    );
  }
  return {
    kind: 'lesson.stage',
    lesson: id,
    from: lesson.stage,
    to: target,
    note,
    review_round_used: usesRound,
    ...(usesRound ? review : {}),
  };
}

/** What the disk says for `state fail`: the hash of the lesson's code now (null when missing). */
export interface FailFacts {
  codeHash: string | null;
}

/**
 * `state fail <id> --note`: the shared fix-attempt rule (fix-budget.ts). A failure that a failing
 * `verify --update-state` already counted (same code since) is refused: one failure, one attempt.
 */
export function decideFail(
  state: State,
  id: string,
  note: string | undefined,
  facts: FailFacts,
  budgets: Budgets,
): EventDraft {
  if (note === undefined || note.trim() === '') refuse(`state fail ${id}: --note "<one-line cause>" is required`);
  const lesson = requireLesson(state, id);
  // One failure, one count: a failure verify already counted (same code) takes the note, not an attempt.
  // A fix-budget block from that very verify keeps its note too; a user's block refuses as before.
  const counted =
    lesson.stage === 'code' && (!lesson.blocked || lesson.blocked.by === 'fix-budget')
      ? countedByVerify(lesson, facts.codeHash)
      : null;
  if (counted !== null) return { kind: 'lesson.fail_note', lesson: id, note, run: counted === 0 ? null : counted };
  return decideFailure(state, id, note, budgets, 'state fail', null);
}

export function decideBlock(state: State, id: string, reason: string | undefined): EventDraft {
  const lesson = requireLesson(state, id);
  if (reason === undefined || reason.trim() === '') refuse(`state block ${id}: --reason "..." is required`);
  if (lesson.blocked) refuse(`lesson ${id} is already blocked (${printable(lesson.blocked.reason, 120)})`);
  return { kind: 'lesson.block', lesson: id, reason };
}

/** Review rounds a lesson may use: the budget plus the rounds the user granted. */
export function reviewRounds(lesson: LessonState, budgets: Budgets): number {
  return budgets.review_rounds + (lesson.review_rounds_granted ?? 0);
}

/** `state unblock <id> [--note "decision"] [--review-round]`: --review-round grants one more review round. */
export function decideUnblock(state: State, id: string, note: string | null = null, reviewRound = false): EventDraft {
  const lesson = requireLesson(state, id);
  if (!lesson.blocked) refuse(`lesson ${id} is not blocked`);
  if (reviewRound && (note === null || note.trim() === ''))
    refuse(`state unblock ${id}: --review-round records the user's decision; add --note "<what the user decided>"`);
  return {
    kind: 'lesson.unblock',
    lesson: id,
    fix_budget_reset: lesson.blocked.by === 'fix-budget',
    note,
    review_round_granted: reviewRound,
  };
}

export function decideStale(state: State, id: string, reason: string | undefined): EventDraft {
  const lesson = requireLesson(state, id);
  if (reason === undefined || reason.trim() === '') refuse(`state stale ${id}: --reason "..." is required`);
  if (lesson.stage !== 'done') refuse(`lesson ${id} is at ${lesson.stage}: only a done lesson can be marked stale`);
  if (lesson.stale) refuse(`lesson ${id} is already stale (${printable(lesson.stale.reason, 120)})`);
  return { kind: 'lesson.stale', lesson: id, reason };
}
