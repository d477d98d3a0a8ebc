// The course report (`codelabgen report`): buildReport() folds the event log and the run-results
// into report.json's shape; renderReport() turns it into report.md. Both are pure.
import type { Event, EventOf, Report, ReportLesson, RunResult, Stage, State, Task } from '../content-schemas/index.ts';
import { STAGES } from '../content-schemas/fast.ts';
import { stageIndex } from './stages.ts';
import { taskDurationMs } from './tasks.ts';

export interface ReportInput {
  state: State;
  /** Every event of the log up to state.last_seq, in order. */
  events: readonly Event[];
  /** Run-results by lesson id, oldest first. */
  runs: ReadonlyMap<string, readonly RunResult[]>;
  now: Date;
}

function ms(from: string, to: string | null): number | null {
  return to === null ? null : Math.max(0, Date.parse(to) - Date.parse(from));
}

function phasesOf(state: State, events: readonly Event[]): Report['phases'] {
  const advances = events.filter((event): event is EventOf<'phase.advance'> => event.kind === 'phase.advance');
  return state.phase_history.map((entry, i) => {
    const ended = state.phase_history[i + 1]?.entered_at ?? null;
    const leaving = advances.find((event) => event.seq === state.phase_history[i + 1]?.seq);
    return { phase: entry.phase, started_at: entry.entered_at, ended_at: ended, duration_ms: ms(entry.entered_at, ended), approved: leaving?.approved ?? false };
  });
}

type Draft = Omit<ReportLesson, 'verify' | 'pending_to_done_ms' | 'id' | 'title' | 'module_id' | 'module_title' | 'dir' | 'stage' | 'blocked' | 'stale' | 'fix_budget_resets'>;

function emptyDraft(at: string): Draft {
  return { fix_attempts: 0, review_rounds: 0, reworks: 0, failures: [], blocks: [], stale_marks: [], registered_at: at, done_at: null };
}

function foldLessonEvent(draft: Draft, event: Event): void {
  switch (event.kind) {
    case 'lesson.stage':
      if (event.review_round_used) draft.review_rounds += 1;
      if (stageIndex(event.to) < stageIndex(event.from)) draft.reworks += 1;
      draft.done_at = event.to === 'done' ? event.ts : null;
      for (const mark of draft.stale_marks) if (mark.cleared_at === null) mark.cleared_at = event.ts;
      break;
    case 'lesson.fail':
      draft.fix_attempts += 1;
      draft.failures.push({ at: event.ts, note: event.note, via: event.via, run: event.run, blocked: event.blocked });
      if (event.blocked) draft.blocks.push({ at: event.ts, reason: `fix budget used up: ${event.note}`, by: 'fix-budget', unblocked_at: null });
      break;
    case 'lesson.block':
      draft.blocks.push({ at: event.ts, reason: event.reason, by: 'user', unblocked_at: null });
      break;
    case 'lesson.unblock':
      for (const block of draft.blocks) if (block.unblocked_at === null) block.unblocked_at = event.ts;
      break;
    case 'lesson.stale':
      draft.stale_marks.push({ at: event.ts, reason: event.reason, cleared_at: null });
      break;
    case 'lesson.verified':
      draft.done_at = null;
      break;
    default:
      break;
  }
}

/** Lesson histories from the log: registration restarts a lesson that was dropped and re-added. */
function lessonDrafts(events: readonly Event[]): Map<string, Draft> {
  const drafts = new Map<string, Draft>();
  for (const event of events) {
    if (event.kind === 'lessons.register') {
      for (const id of event.removed) drafts.delete(id);
      for (const lesson of event.lessons) if (!drafts.has(lesson.id)) drafts.set(lesson.id, emptyDraft(event.ts));
    } else if ('lesson' in event && typeof event.lesson === 'string' && event.kind.startsWith('lesson.')) {
      const draft = drafts.get(event.lesson);
      if (draft) foldLessonEvent(draft, event);
    }
  }
  return drafts;
}

function verifyOf(runs: readonly RunResult[]): ReportLesson['verify'] {
  const last = runs.at(-1);
  return {
    runs: runs.length,
    passed: runs.filter((run) => run.passed).length,
    failed: runs.filter((run) => !run.passed).length,
    last_run: last?.run ?? null,
    last_passed: last ? last.passed : null,
    last_tests: last?.tests ?? null,
    last_at: last?.started_at ?? null,
  };
}

function lessonsOf(input: ReportInput): ReportLesson[] {
  const drafts = lessonDrafts(input.events);
  return input.state.lesson_order.flatMap((id) => {
    const lesson = input.state.lessons[id];
    if (!lesson) return [];
    const draft = drafts.get(id) ?? emptyDraft(input.state.created_at);
    const doneAt = lesson.stage === 'done' ? draft.done_at : null;
    return [{
      id, title: lesson.title, module_id: lesson.module_id, module_title: lesson.module_title, dir: lesson.dir, stage: lesson.stage,
      blocked: lesson.blocked !== null, stale: lesson.stale !== null, fix_budget_resets: lesson.fix_budget_resets,
      ...draft, done_at: doneAt, verify: verifyOf(input.runs.get(id) ?? []), pending_to_done_ms: ms(draft.registered_at, doneAt),
    }];
  });
}

function tasksOf(tasks: readonly Task[]): Report['tasks'] {
  const roles = [...new Set(tasks.map((task) => task.role))].sort();
  return roles.map((role) => {
    const mine = tasks.filter((task) => task.role === role);
    const durations = mine.map(taskDurationMs).filter((value): value is number => value !== null);
    const total = durations.reduce((sum, value) => sum + value, 0);
    const count = (status: Task['status']) => mine.filter((task) => task.status === status).length;
    return {
      role, count: mine.length, done: count('done'), failed: count('failed'), reset: count('reset'), running: count('running'),
      total_ms: total, mean_ms: durations.length > 0 ? Math.round(total / durations.length) : null, max_ms: durations.length > 0 ? Math.max(...durations) : null,
    };
  });
}

function factsOf(events: readonly Event[]): Report['facts'] {
  const logs = events.filter((event): event is EventOf<'log'> => event.kind === 'log');
  const kinds = [...new Set(logs.map((event) => event.fact))].sort();
  return kinds.map((kind) => {
    const entries = logs.filter((event) => event.fact === kind).map((event) => ({ at: event.ts, lesson: event.lesson, data: event.data }));
    return { kind, count: entries.length, entries };
  });
}

export function buildReport(input: ReportInput): Report {
  const { state } = input;
  const lessons = lessonsOf(input);
  const byStage = Object.fromEntries(STAGES.map((stage) => [stage, lessons.filter((lesson) => lesson.stage === stage).length])) as Record<Stage, number>;
  const tasks = Object.values(state.tasks);
  const build = state.last_site_build;
  return {
    schema_version: 1,
    generated_at: input.now.toISOString(),
    course: { title: state.title, topic: state.topic },
    phase: state.phase,
    last_seq: state.last_seq,
    phases: phasesOf(state, input.events),
    totals: {
      lessons: lessons.length, by_stage: byStage, done: byStage.done,
      blocked: lessons.filter((lesson) => lesson.blocked).length, stale: lessons.filter((lesson) => lesson.stale).length,
      fix_attempts: lessons.reduce((sum, lesson) => sum + lesson.fix_attempts, 0), review_rounds: lessons.reduce((sum, lesson) => sum + lesson.review_rounds, 0),
      verify_runs: lessons.reduce((sum, lesson) => sum + lesson.verify.runs, 0), tasks: tasks.length,
    },
    lessons,
    tasks: tasksOf(tasks),
    facts: factsOf(input.events),
    site_build: build ? { at: build.at, pages: build.pages, lessons: build.lessons.length } : null,
  };
}

export { renderReport } from './report-markdown.ts';
