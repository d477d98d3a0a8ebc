// Lesson stages (PROTOCOL.md section 3): the stage table, and the decisions of `state set`,
// `state fail`, `state block`, `state unblock` and `state stale` as event drafts or refusals.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Budgets, EventDraft, LessonState, Stage, State } from '../content-schemas/index.ts';
import { LessonSpecParser, ReviewParser, STAGES, parseData, parseDataFile, parseFrontMatter, stageIndex } from '../content-schemas/fast.ts';
import { listLessonCodeFiles } from './code-hash.ts';
import { ARTIFACTS, abs, insideCourse, printable, type Course } from './course.ts';
import { codeDrift } from './drift.ts';
import { refuse } from './errors.ts';
import { decideFailure, requireLesson } from './fix-budget.ts';
import { nonEmptyFileProblems, problemsOf } from './phases.ts';

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

export const STAGE_TABLE: readonly StageRow[] = [
  { stage: 'pending', next_stage: 'spec', role: 'example-designer', work: 'writes .codelabgen/lessons/<id>/spec.yaml', then: 'codelabgen state set <id> spec' },
  { stage: 'spec', next_stage: 'code', role: 'code-author', work: 'writes the lesson code and tests', then: 'codelabgen state set <id> code' },
  { stage: 'code', next_stage: 'verified', role: 'code-fixer', work: 'codelabgen verify <id> --update-state passes (a code-fixer repairs failures)', then: 'nothing: verify sets verified or counts a failure' },
  { stage: 'verified', next_stage: 'readalong', role: 'readalong-writer', work: 'writes docs/readalong.md', then: 'codelabgen state set <id> readalong' },
  { stage: 'readalong', next_stage: 'notes', role: 'notes-writer', work: 'writes docs/notes.md', then: 'codelabgen state set <id> notes' },
  { stage: 'notes', next_stage: 'reviewed', role: 'lesson-reviewer', work: 'writes .codelabgen/lessons/<id>/review.md with verdict pass', then: 'codelabgen state set <id> reviewed' },
  { stage: 'reviewed', next_stage: 'done', role: 'orchestrator', work: 'final checks', then: 'codelabgen state set <id> done' },
  { stage: 'done', next_stage: null, role: 'orchestrator', work: 'nothing', then: 'nothing' },
];

export { stageIndex };

export function stageRow(stage: Stage): StageRow {
  return STAGE_TABLE[stageIndex(stage)] as StageRow;
}

function lessonDirProblems(course: Course, lesson: LessonState): string[] {
  return problemsOf(() => {
    const dir = insideCourse(course, lesson.dir, `lesson ${lesson.id} dir`);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) refuse(`${lesson.dir}: lesson folder missing`);
    if (listLessonCodeFiles(dir).length === 0) refuse(`${lesson.dir}: no code files (everything but docs/ is code)`);
  });
}

function specProblems(course: Course, id: string): string[] {
  const rel = ARTIFACTS.lessonSpec(id);
  if (!existsSync(abs(course, rel))) return [`${rel}: missing`];
  return problemsOf(() => {
    const spec = parseDataFile(LessonSpecParser, abs(course, rel), rel);
    if (spec.lesson !== id) refuse(`${rel}: lesson: is "${printable(spec.lesson)}", expected "${id}"`);
  });
}

function reviewProblems(course: Course, id: string): string[] {
  const rel = ARTIFACTS.lessonReview(id);
  if (!existsSync(abs(course, rel))) return [`${rel}: missing`];
  return problemsOf(() => {
    const review = parseData(ReviewParser, parseFrontMatter(readFileSync(abs(course, rel), 'utf8'), rel).data, rel);
    if (review.lesson !== id) refuse(`${rel}: lesson: is "${printable(review.lesson)}", expected "${id}"`);
    if (review.verdict !== 'pass') refuse(`${rel}: verdict: is "${review.verdict}"; moving to reviewed needs verdict pass (rework the lesson instead)`);
  });
}

function doneProblems(course: Course, lesson: LessonState): string[] {
  if (lesson.verified === null) return [`lesson ${lesson.id}: no verification recorded; move it back to code and verify again`];
  const drift = codeDrift(course, lesson);
  return drift.drifted ? [`lesson ${lesson.id}: code changed since it was verified (${drift.current_hash ?? 'code missing'}); move it back to code and verify again`] : [];
}

/** Problems of the artifact that a forward move to `target` needs; empty when it may move. */
export function forwardProblems(course: Course, lesson: LessonState, target: Stage): string[] {
  const docs = (name: string) => nonEmptyFileProblems(course, path.posix.join(lesson.dir, 'docs', name));
  switch (target) {
    case 'spec':
      return specProblems(course, lesson.id);
    case 'code':
      return lessonDirProblems(course, lesson);
    case 'readalong':
      return docs('readalong.md');
    case 'notes':
      return docs('notes.md');
    case 'reviewed':
      return reviewProblems(course, lesson.id);
    case 'done':
      return doneProblems(course, lesson);
    default:
      return [];
  }
}

function unblocked(lesson: LessonState, verb: string): void {
  if (lesson.blocked) refuse(`lesson ${lesson.id} is blocked (${printable(lesson.blocked.reason, 120)}); it cannot ${verb} until unblocked`, `codelabgen state unblock ${lesson.id}`);
}

function parseStage(target: string): Stage {
  if (!(STAGES as readonly string[]).includes(target)) refuse(`unknown stage "${printable(target)}"; stages: ${STAGES.join(', ')}`);
  return target as Stage;
}

/** `state set <id> <stage> [--note]`: one step forward with its artifact check, or back with a note. */
export function decideSet(course: Course, state: State, id: string, stageName: string, note: string | null, budgets: Budgets): EventDraft {
  const lesson = requireLesson(state, id);
  const target = parseStage(stageName);
  unblocked(lesson, 'move');
  const from = lesson.stage;
  if (target === from) refuse(`lesson ${id} is already at ${from}`);
  if (stageIndex(target) < stageIndex(from)) return decideBack(lesson, target, note, budgets);
  if (target === 'verified') refuse(`lesson ${id}: verified is set only by "codelabgen verify ${id} --update-state"`);
  const next = stageRow(from).next_stage;
  if (target !== next) refuse(`lesson ${id} is at ${from}: stages move forward one at a time; the next stage is ${next}${next === 'verified' ? ` (set by codelabgen verify ${id} --update-state)` : ''}`);
  const problems = forwardProblems(course, lesson, target);
  if (problems.length > 0) refuse(`lesson ${id}: cannot move to ${target}: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`, ...problems.slice(1, 20));
  return { kind: 'lesson.stage', lesson: id, from, to: target, note, review_round_used: false };
}

function decideBack(lesson: LessonState, target: Stage, note: string | null, budgets: Budgets): EventDraft {
  const id = lesson.id;
  if (note === null || note.trim() === '') refuse(`lesson ${id}: moving back from ${lesson.stage} to ${target} needs --note "why"`);
  const usesRound = lesson.stage === 'notes' || lesson.stage === 'reviewed';
  if (usesRound && lesson.review_rounds_used >= budgets.review_rounds) {
    refuse(`lesson ${id}: review rounds used up (${lesson.review_rounds_used} of ${budgets.review_rounds}); it cannot move back from ${lesson.stage}`, `block it for the user: codelabgen state block ${id} --reason "..."`);
  }
  return { kind: 'lesson.stage', lesson: id, from: lesson.stage, to: target, note, review_round_used: usesRound };
}

/** `state fail <id> --note`: the shared fix-attempt rule (fix-budget.ts). */
export function decideFail(state: State, id: string, note: string | undefined, budgets: Budgets): EventDraft {
  if (note === undefined || note.trim() === '') refuse(`state fail ${id}: --note "<one-line cause>" is required`);
  return decideFailure(state, id, note, budgets, 'state fail', null);
}

export function decideBlock(state: State, id: string, reason: string | undefined): EventDraft {
  const lesson = requireLesson(state, id);
  if (reason === undefined || reason.trim() === '') refuse(`state block ${id}: --reason "..." is required`);
  if (lesson.blocked) refuse(`lesson ${id} is already blocked (${printable(lesson.blocked.reason, 120)})`);
  return { kind: 'lesson.block', lesson: id, reason };
}

export function decideUnblock(state: State, id: string): EventDraft {
  const lesson = requireLesson(state, id);
  if (!lesson.blocked) refuse(`lesson ${id} is not blocked`);
  return { kind: 'lesson.unblock', lesson: id, fix_budget_reset: lesson.blocked.by === 'fix-budget' };
}

export function decideStale(state: State, id: string, reason: string | undefined): EventDraft {
  const lesson = requireLesson(state, id);
  if (reason === undefined || reason.trim() === '') refuse(`state stale ${id}: --reason "..." is required`);
  if (lesson.stage !== 'done') refuse(`lesson ${id} is at ${lesson.stage}: only a done lesson can be marked stale`);
  if (lesson.stale) refuse(`lesson ${id} is already stale (${printable(lesson.stale.reason, 120)})`);
  return { kind: 'lesson.stale', lesson: id, reason };
}

/** Lessons verified (at verified or later) whose code changed since: PROTOCOL.md section 6 drift. */
export function driftedLessons(course: Course, state: State): Set<string> {
  const drifted = new Set<string>();
  for (const id of state.lesson_order) {
    const lesson = state.lessons[id];
    if (lesson && lesson.verified && stageIndex(lesson.stage) >= stageIndex('verified') && codeDrift(course, lesson).drifted) drifted.add(id);
  }
  return drifted;
}
