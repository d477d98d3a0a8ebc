// Lesson histories for the report: foldLessons() walks the event log once and keeps, per lesson,
// its counts, failures, blocks, reviews, tasks and a timeline (story). Pure; event kinds it does
// not know are told generically, so a newer log still gives a report.
import type {
  Event,
  EventOf,
  Phase,
  RegisteredLesson,
  ReportFailure,
  ReportLesson,
  ReportReview,
  ReportStoryEntry,
  ReportTask,
  Stage,
  TestCounts,
} from '../../content-schemas/index.ts';
import { startTask, taskText, toReportTask, updateTask, type FoldedTask } from './tasks.ts';
import { testsText } from './text.ts';
import { stageIndex } from '../../content-schemas/fast.ts';

export interface LessonTrack {
  lesson: RegisteredLesson;
  registered_at: string;
  stage: Stage;
  blocked: boolean;
  stale: boolean;
  fix_budget_resets: number;
  fix_attempts: number;
  review_rounds: number;
  review_rounds_granted: number;
  /** Moves back that were reworks (not a re-verification of drifted code). */
  reworks: number;
  /** Reworks that used no review round (the others are counted in review_rounds). */
  other_reworks: number;
  /** When work began: the first task on the lesson, or its first event after registration. */
  started_at: string | null;
  /** A move back to verify drifted code again that no verification has followed yet. */
  drift_open: { at: string; from: Stage } | null;
  /** Highest run number a verdict carried, and how many verdicts carried one: the gap is read-only runs. */
  run_numbers: { max: number; verdicts: number };
  verdicts: {
    runs: number;
    passed: number;
    last_run: number | null;
    last_passed: boolean | null;
    last_tests: TestCounts | null;
    last_at: string | null;
  };
  tests: TestCounts | null;
  verified_hash: string | null;
  drifts: number;
  failures: ReportFailure[];
  blocks: ReportLesson['blocks'];
  stale_marks: ReportLesson['stale_marks'];
  reviews: ReportReview[];
  tasks: ReportTask[];
  /** Moves back that reopened the course (`--reopen`): the phase left and the note given. */
  reopens: { at: string; from_phase: Phase; from: Stage; to: Stage; note: string | null }[];
  done_at: string | null;
  story: ReportStoryEntry[];
  /** A decision logged for the lesson since its last block, given to the next unblock. */
  pending_decision: string | null;
}

/** What the fold keeps beside the lessons: tasks of no lesson and events no section shows. */
export interface Folded {
  lessons: Map<string, LessonTrack>;
  tasks: Map<string, FoldedTask>;
  course_story: ReportStoryEntry[];
}

const QUIET_KINDS = new Set(['course.init', 'phase.advance', 'lessons.register', 'site.build', 'log']);
const ENVELOPE = new Set(['seq', 'ts', 'pid', 'command', 'kind', 'lesson']);

export function newTrack(lesson: RegisteredLesson, at: string): LessonTrack {
  return {
    lesson,
    registered_at: at,
    stage: 'pending',
    blocked: false,
    stale: false,
    fix_budget_resets: 0,
    fix_attempts: 0,
    review_rounds: 0,
    review_rounds_granted: 0,
    reworks: 0,
    other_reworks: 0,
    started_at: null,
    drift_open: null,
    run_numbers: { max: 0, verdicts: 0 },
    verdicts: { runs: 0, passed: 0, last_run: null, last_passed: null, last_tests: null, last_at: null },
    tests: null,
    verified_hash: null,
    drifts: 0,
    failures: [],
    blocks: [],
    stale_marks: [],
    reviews: [],
    tasks: [],
    reopens: [],
    done_at: null,
    story: [],
    pending_decision: null,
  };
}

function entry(event: Event, label: ReportStoryEntry['label'], text: string, details: string[] = []): ReportStoryEntry {
  return { seq: event.seq, at: event.ts, kind: event.kind, label, text: text.replace(/[\r\n]+/g, ' '), details };
}

/** Fields of an event beyond its envelope as `key=value`, for kinds the report does not know. */
export function genericText(event: Event): string {
  const fields = Object.entries(event as unknown as Record<string, unknown>).filter(([key]) => !ENVELOPE.has(key));
  const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const text = fields.map(([key, v]) => `${key}=${value(v)}`).join(', ');
  return `${event.kind}${text ? `: ${text.length > 300 ? `${text.slice(0, 297)}...` : text}` : ''}`;
}

const shortHash = (hash: string) => hash.replace(/^sha256:/, '').slice(0, 12);

function reviewLines(review: NonNullable<EventOf<'lesson.stage'>['review']>): string[] {
  const head =
    `review: ${review.verdict}${review.round ? `, round ${review.round}` : ''}` +
    `${review.reviewer ? `, by ${review.reviewer}` : ''}${review.findings.length === 0 ? ', no findings' : ''}`;
  return [
    head,
    ...review.findings.map((f) => `[${f.severity}]${f.where ? ` ${f.where}:` : ''} ${f.text}`.replace(/[\r\n]+/g, ' ')),
  ];
}

function foldStage(track: LessonTrack, event: EventOf<'lesson.stage'>): void {
  const back = stageIndex(event.to) < stageIndex(event.from);
  if (event.to !== track.stage)
    for (const mark of track.stale_marks) if (mark.cleared_at === null) mark.cleared_at = event.ts;
  track.stale = event.to === track.stage ? track.stale : false;
  track.stage = event.to;
  track.done_at = event.to === 'done' ? event.ts : null;
  if (event.review_round_used) track.review_rounds += 1;
  const review = event.review;
  if (review)
    track.reviews.push({
      at: event.ts,
      verdict: review.verdict,
      reviewer: review.reviewer ?? null,
      round: review.round ?? null,
      findings: review.findings.map((f) => ({ severity: f.severity, where: f.where ?? null, text: f.text })),
    });
  const details = review ? reviewLines(review) : [];
  if (back) {
    // A move back to verify drifted code again is no rework: the code changed, the lesson's work did not.
    if (!event.drifted) track.reworks += 1;
    if (!event.drifted && !event.review_round_used) track.other_reworks += 1;
    track.drift_open = event.drifted ? { at: event.ts, from: event.from } : track.drift_open;
    const round = event.review_round_used ? ` (review round ${track.review_rounds})` : '';
    const note = event.note ?? '(no note)';
    if (event.drifted && !event.reopened) {
      track.story.push(
        entry(
          event,
          'drift',
          `moved back ${event.from} → ${event.to} to verify the changed code again${round}: ${note}`,
          details,
        ),
      );
    } else if (event.reopened) {
      track.reopens.push({
        at: event.ts,
        from_phase: event.reopened,
        from: event.from,
        to: event.to,
        note: event.note,
      });
      track.story.push(
        entry(
          event,
          'reopen',
          `reopened the course (${event.reopened} → lessons): moved back ${event.from} → ${event.to}${round}: ${note}`,
          details,
        ),
      );
    } else {
      track.story.push(entry(event, 'rework', `moved back ${event.from} → ${event.to}${round}: ${note}`, details));
    }
  } else if (event.to === 'reviewed' && review) {
    const after =
      track.review_rounds > 0
        ? ` after ${track.review_rounds} review round${track.review_rounds === 1 ? '' : 's'}`
        : '';
    track.story.push(
      entry(
        event,
        'review',
        `review passed${after}: ${event.from} → reviewed${event.note ? `: ${event.note}` : ''}`,
        details,
      ),
    );
  } else {
    track.story.push(
      entry(event, 'stage', `${event.from} → ${event.to}${event.note ? `: ${event.note}` : ''}`, details),
    );
  }
}

/** Run numbers are per lesson and go up by one per run, verdict or not: a verdict's number tells the read-only runs before it. */
function countRunNumber(track: LessonTrack, run: number | null): void {
  if (run === null) return;
  track.run_numbers.max = Math.max(track.run_numbers.max, run);
  track.run_numbers.verdicts += 1;
}

/**
 * Runs of `verify` without --update-state: the gap between the highest run number (the verdicts'
 * own, or `recorded`, the highest run file of the lesson on disk) and the verdicts. A read-only run
 * logs no event, so one after the last verdict shows only in the run files.
 */
export function readOnlyRuns(track: LessonTrack, recorded = 0): number {
  return Math.max(0, Math.max(track.run_numbers.max, recorded) - track.run_numbers.verdicts);
}

function foldVerified(track: LessonTrack, event: EventOf<'lesson.verified'>): void {
  if (track.verified_hash !== null && track.verified_hash !== event.code_hash) {
    track.drifts += 1;
    track.story.push(
      entry(
        event,
        'drift',
        `code changed after it was verified (${shortHash(track.verified_hash)} → ${shortHash(event.code_hash)}); verified again`,
      ),
    );
  }
  track.verified_hash = event.code_hash;
  track.drift_open = null;
  track.stage = 'verified';
  track.done_at = null;
  const tests = event.tests ?? null;
  if (tests !== null) track.tests = tests;
  Object.assign(track.verdicts, {
    runs: track.verdicts.runs + 1,
    passed: track.verdicts.passed + 1,
    last_run: event.run,
    last_passed: true,
    last_tests: tests,
    last_at: event.ts,
  });
  countRunNumber(track, event.run);
  track.story.push(
    entry(
      event,
      'verify',
      `verify passed${event.run ? ` (run ${event.run})` : ''}${tests ? `: ${testsText(tests)}` : ''}`,
    ),
  );
}

function foldFail(track: LessonTrack, event: EventOf<'lesson.fail'>): void {
  track.fix_attempts += 1;
  const tests = event.tests ?? null;
  const evidence = event.evidence ?? null;
  track.failures.push({
    at: event.ts,
    note: event.note,
    via: event.via,
    run: event.run,
    blocked: event.blocked,
    tests,
    evidence,
  });
  if (event.via === 'verify') {
    Object.assign(track.verdicts, {
      runs: track.verdicts.runs + 1,
      last_run: event.run,
      last_passed: false,
      last_tests: tests,
      last_at: event.ts,
    });
    countRunNumber(track, event.run);
  }
  const what =
    event.via === 'verify'
      ? `verify failed${event.run ? ` (run ${event.run})` : ''}${tests ? `, ${testsText(tests)}` : ''}`
      : 'failure recorded by state fail';
  track.story.push(
    entry(
      event,
      'failure',
      `${what}; fix attempt ${event.fix_attempts_used}: ${event.note}`,
      evidence ? evidence.split('\n') : [],
    ),
  );
  if (event.blocked) {
    track.blocked = true;
    track.pending_decision = null;
    track.blocks.push({
      at: event.ts,
      reason: `fix budget used up: ${event.note}`,
      by: 'fix-budget',
      unblocked_at: null,
      decision: null,
    });
    track.story.push(
      entry(event, 'block', `blocked: fix budget used up after ${event.fix_attempts_used} failed attempts`),
    );
  }
}

/** A `state fail` after verify counted the failure: the note joins that failure, no attempt is used. */
function foldFailNote(track: LessonTrack, event: EventOf<'lesson.fail_note'>): void {
  const failure = track.failures.findLast((f) => f.via === 'verify' && f.run === event.run) ?? track.failures.at(-1);
  if (failure) failure.orchestrator_notes = [...(failure.orchestrator_notes ?? []), event.note];
  track.story.push(
    entry(
      event,
      'failure',
      `note on the failure${event.run ? ` of verify run ${event.run}` : ''} (already counted): ${event.note}`,
    ),
  );
}

function foldUnblock(track: LessonTrack, event: EventOf<'lesson.unblock'>): void {
  const note = event.note?.trim() ? `${event.note} (by user)` : null;
  const decision = note ?? track.pending_decision;
  for (const block of track.blocks)
    if (block.unblocked_at === null) Object.assign(block, { unblocked_at: event.ts, decision });
  track.blocked = false;
  track.pending_decision = null;
  if (event.fix_budget_reset) track.fix_budget_resets += 1;
  if (event.review_round_granted) track.review_rounds_granted += 1;
  const grants = [
    event.fix_budget_reset ? 'a fresh fix budget' : '',
    event.review_round_granted ? 'one more review round' : '',
  ].filter(Boolean);
  track.story.push(
    entry(
      event,
      'unblock',
      `unblocked${grants.length > 0 ? ` with ${grants.join(' and ')}` : ''}${decision ? `; decision: ${decision}` : '; no decision recorded'}`,
    ),
  );
}

/** A `state log` fact that records a decision: kind `decision`, or `--data by=user`. */
export function decisionOf(event: EventOf<'log'>): string | null {
  if (event.fact !== 'decision' && event.data.by !== 'user') return null;
  const { by, decision, ...rest } = event.data;
  const text =
    decision ??
    Object.entries(rest)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
  return `${text}${by ? ` (by ${by})` : ''}`;
}

function foldLog(track: LessonTrack, event: EventOf<'log'>): void {
  const decision = decisionOf(event);
  if (decision !== null) {
    track.pending_decision = decision;
    track.story.push(entry(event, 'decision', `decision: ${decision}`));
  } else {
    track.story.push(
      entry(
        event,
        'fact',
        `fact ${event.fact}: ${Object.entries(event.data)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`,
      ),
    );
  }
}

function foldLessonEvent(track: LessonTrack, event: Event): void {
  switch (event.kind) {
    case 'lesson.stage':
      return foldStage(track, event);
    case 'lesson.verified':
      return foldVerified(track, event);
    case 'lesson.fail':
      return foldFail(track, event);
    case 'lesson.fail_note':
      return foldFailNote(track, event);
    case 'lesson.unblock':
      return foldUnblock(track, event);
    case 'log':
      return foldLog(track, event);
    case 'lesson.block':
      track.blocked = true;
      track.pending_decision = null;
      track.blocks.push({ at: event.ts, reason: event.reason, by: 'user', unblocked_at: null, decision: null });
      return void track.story.push(entry(event, 'block', `blocked for the user: ${event.reason}`));
    case 'lesson.stale':
      track.stale = true;
      track.stale_marks.push({ at: event.ts, reason: event.reason, cleared_at: null });
      return void track.story.push(entry(event, 'stale', `marked stale: ${event.reason}`));
    default:
      return void track.story.push(entry(event, 'event', genericText(event)));
  }
}

function foldTask(
  folded: Folded,
  event: EventOf<'task.start' | 'task.heartbeat' | 'task.finish' | 'task.reset'>,
): void {
  if (event.kind !== 'task.start') {
    const task = folded.tasks.get(event.task);
    return task ? updateTask(task, event) : undefined;
  }
  const task = startTask(event, entry(event, 'task', ''));
  folded.tasks.set(event.task, task);
  const track = task.lesson === null ? undefined : folded.lessons.get(task.lesson);
  if (track) track.started_at ??= event.ts;
  (track ? track.story : folded.course_story).push(task.entry);
}

/** Folds one event into `folded` (foldLessons does it for a whole log; the live board for a slice of it). */
export function foldEvent(folded: Folded, event: Event): void {
  const loose = event as unknown as Record<string, unknown>;
  if (event.kind === 'lessons.register') {
    for (const id of event.removed) folded.lessons.delete(id);
    for (const lesson of event.lessons) {
      const track = folded.lessons.get(lesson.id);
      if (track) track.lesson = lesson;
      else folded.lessons.set(lesson.id, newTrack(lesson, event.ts));
    }
  } else if (
    event.kind === 'task.start' ||
    event.kind === 'task.heartbeat' ||
    event.kind === 'task.finish' ||
    event.kind === 'task.reset'
  ) {
    foldTask(folded, event);
  } else if (typeof loose.lesson === 'string' && folded.lessons.has(loose.lesson)) {
    const track = folded.lessons.get(loose.lesson) as LessonTrack;
    track.started_at ??= event.ts;
    foldLessonEvent(track, event);
  } else if (!QUIET_KINDS.has(event.kind)) {
    folded.course_story.push(entry(event, 'event', genericText(event)));
  }
}

export function foldLessons(events: readonly Event[]): Folded {
  const folded: Folded = { lessons: new Map(), tasks: new Map(), course_story: [] };
  for (const event of events) foldEvent(folded, event);
  const lastAt = events.at(-1)?.ts ?? '';
  for (const task of folded.tasks.values()) {
    task.entry.text = taskText(task, lastAt);
    if (task.lesson !== null) folded.lessons.get(task.lesson)?.tasks.push(toReportTask(task));
  }
  return folded;
}
