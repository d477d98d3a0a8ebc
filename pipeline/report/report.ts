// The course report (`codelabgen report`): buildReport() folds the event log, and nothing else,
// into report.json's shape; renderReport() turns it into report.md. Both are pure, and the log is
// their only clock, so the same log always gives byte-identical files.
import type { Event, EventOf, Report, ReportLesson, ReportTask, Stage } from '../../content-schemas/index.ts';
import { PHASES, STAGES } from '../../content-schemas/index.ts';
import { decisions, isSmooth, lessonSummary, needsHuman } from './human.ts';
import { foldLessons, readOnlyRuns, type LessonTrack } from './story.ts';
import { toReportTask } from './tasks.ts';
import { costOf } from './cost.ts';

function ms(from: string, to: string | null): number | null {
  return to === null ? null : Math.max(0, Date.parse(to) - Date.parse(from));
}

/** Phases in the order entered: forward by phase.advance, back to lessons by a `--reopen` move. */
function phasesOf(events: readonly Event[]): Report['phases'] {
  const init = events.find((event) => event.kind === 'course.init');
  type Entered = { phase: Report['phase']; at: string; approved: boolean; reopened_from: Report['phase'] | null };
  const entered: Entered[] = [
    { phase: 'init', at: init?.ts ?? events[0]?.ts ?? '', approved: false, reopened_from: null },
  ];
  for (const event of events) {
    if (event.kind === 'phase.advance')
      entered.push({ phase: event.to, at: event.ts, approved: event.approved, reopened_from: null });
    if (event.kind === 'lesson.stage' && event.reopened)
      entered.push({ phase: 'lessons', at: event.ts, approved: false, reopened_from: event.reopened });
  }
  return entered.map((entry, i) => {
    const next = entered[i + 1];
    return {
      phase: entry.phase,
      started_at: entry.at,
      ended_at: next?.at ?? null,
      duration_ms: ms(entry.at, next?.at ?? null),
      approved: next?.approved ?? false,
      reopened_from: entry.reopened_from,
    };
  });
}

function lessonOf(track: LessonTrack, generatedAt: string, recordedRuns: ReadonlyMap<string, number>): ReportLesson {
  const { lesson, verdicts } = track;
  const readOnly = readOnlyRuns(track, recordedRuns.get(lesson.id));
  const wallMs = track.started_at === null ? 0 : (ms(track.started_at, track.done_at ?? generatedAt) ?? 0);
  const smooth = isSmooth(track);
  return {
    id: lesson.id,
    title: lesson.title,
    module_id: lesson.module_id,
    module_title: lesson.module_title,
    dir: lesson.dir,
    stage: track.stage,
    blocked: track.blocked,
    stale: track.stale,
    fix_attempts: track.fix_attempts,
    fix_budget_resets: track.fix_budget_resets,
    review_rounds: track.review_rounds,
    review_rounds_granted: track.review_rounds_granted,
    reworks: track.reworks,
    verify: {
      runs: verdicts.runs + readOnly,
      passed: verdicts.passed,
      failed: verdicts.runs - verdicts.passed,
      read_only: readOnly,
      last_run: verdicts.last_run,
      last_passed: verdicts.last_passed,
      last_tests: verdicts.last_tests,
      last_at: verdicts.last_at,
    },
    failures: track.failures,
    blocks: track.blocks,
    stale_marks: track.stale_marks,
    registered_at: track.registered_at,
    started_at: track.started_at,
    done_at: track.done_at,
    pending_to_done_ms: ms(track.registered_at, track.done_at),
    wall_ms: wallMs,
    tests: track.tests,
    reviews: track.reviews,
    tasks: track.tasks,
    smooth,
    summary: lessonSummary(track, wallMs),
    story: smooth ? [] : track.story,
  };
}

/** Counts and finished durations (ms) of a group of tasks. */
function taskCounts(tasks: readonly ReportTask[]) {
  const durations = tasks.filter((task) => task.status !== 'running').map((task) => task.duration_ms ?? 0);
  const count = (status: ReportTask['status']) => tasks.filter((task) => task.status === status).length;
  const counts = {
    count: tasks.length,
    done: count('done'),
    failed: count('failed'),
    reset: count('reset'),
    running: count('running'),
    total_ms: durations.reduce((sum, value) => sum + value, 0),
  };
  return { counts, durations };
}

function tasksByRole(tasks: readonly ReportTask[]): Report['tasks'] {
  const roles = [...new Set(tasks.map((task) => task.role))].sort();
  return roles.map((role) => {
    const { counts, durations } = taskCounts(tasks.filter((task) => task.role === role));
    const mean = durations.length > 0 ? Math.round(counts.total_ms / durations.length) : null;
    return {
      role: role as Report['tasks'][number]['role'],
      ...counts,
      mean_ms: mean,
      max_ms: durations.length > 0 ? Math.max(...durations) : null,
    };
  });
}

function tasksByPhase(phaseTasks: readonly ReportTask[]): Report['tasks_by_phase'] {
  return PHASES.flatMap((phase) => {
    const mine = phaseTasks.filter((task) => task.phase === phase);
    if (mine.length === 0) return [];
    const roles = [...new Set(mine.map((task) => task.role))].sort() as Report['tasks_by_phase'][number]['roles'];
    return [{ phase, roles, ...taskCounts(mine).counts }];
  });
}

function factsOf(events: readonly Event[]): Report['facts'] {
  const logs = events.filter((event): event is EventOf<'log'> => event.kind === 'log');
  const kinds = [...new Set(logs.map((event) => event.fact))].sort();
  return kinds.map((kind) => {
    const entries = logs
      .filter((event) => event.fact === kind)
      .map((event) => ({ at: event.ts, lesson: event.lesson, data: event.data }));
    return { kind, count: entries.length, entries };
  });
}

const sum = (lessons: readonly ReportLesson[], pick: (lesson: ReportLesson) => number) =>
  lessons.reduce((total, lesson) => total + pick(lesson), 0);
const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

function totalsOf(
  lessons: readonly ReportLesson[],
  tasks: readonly ReportTask[],
  phases: Report['phases'],
  wallMs: number,
): Report['totals'] {
  const byStage = Object.fromEntries(
    STAGES.map((stage) => [stage, lessons.filter((lesson) => lesson.stage === stage).length]),
  ) as Record<Stage, number>;
  const runs = sum(lessons, (l) => l.verify.runs);
  const passed = sum(lessons, (l) => l.verify.passed);
  const withVerdict = sum(lessons, (l) => l.verify.passed + l.verify.failed);
  const reworked = lessons.filter((l) => l.reworks > 0).length;
  return {
    lessons: lessons.length,
    by_stage: byStage,
    done: byStage.done,
    blocked: lessons.filter((l) => l.blocked).length,
    stale: lessons.filter((l) => l.stale).length,
    fix_attempts: sum(lessons, (l) => l.fix_attempts),
    review_rounds: sum(lessons, (l) => l.review_rounds),
    verify_runs: runs,
    tasks: tasks.length,
    phase_tasks: tasks.filter((task) => task.phase !== null).length,
    reopens: phases.filter((p) => p.reopened_from !== null).length,
    tests: sum(lessons, (l) => l.tests?.total ?? 0),
    verify_passed: passed,
    verify_pass_rate: ratio(passed, withVerdict),
    lessons_reworked: reworked,
    rework_rate: ratio(reworked, lessons.length),
    wall_ms: wallMs,
  };
}

/** The report of a course from its event log (every event, in order, from course.init on). */
/**
 * The report of a course from its event log. `recordedRuns`: each lesson's highest run number on disk
 * (`.codelabgen/runs/<id>/`), which also counts read-only runs after the lesson's last verdict.
 */
export function buildReport(events: readonly Event[], recordedRuns: ReadonlyMap<string, number> = new Map()): Report {
  const init = events.find((event): event is EventOf<'course.init'> => event.kind === 'course.init');
  if (!init) throw new Error('the event log has no course.init event: there is no course to report on');
  const last = events.at(-1) as Event;
  const generatedAt = last.ts;
  const folded = foldLessons(events);
  const order =
    [...events]
      .reverse()
      .find((event): event is EventOf<'lessons.register'> => event.kind === 'lessons.register')
      ?.lessons.map((lesson) => lesson.id) ?? [];
  const tracks = order.flatMap((id) => folded.lessons.get(id) ?? []);
  const lessons = tracks.map((track) => lessonOf(track, generatedAt, recordedRuns));
  const tasks = [...folded.tasks.values()].map(toReportTask);
  const phaseTasks = tasks.filter((task) => task.phase !== null);
  const phases = phasesOf(events);
  const build = [...events].reverse().find((event): event is EventOf<'site.build'> => event.kind === 'site.build');
  const totals = totalsOf(lessons, tasks, phases, ms(init.ts, generatedAt) ?? 0);
  return {
    schema_version: 3,
    generated_at: generatedAt,
    course: { title: init.title, topic: init.topic },
    phase: phases.at(-1)?.phase ?? 'init',
    last_seq: last.seq,
    phases,
    totals,
    needs_human: needsHuman(tracks, events, [...folded.tasks.values()]),
    decisions: decisions(tracks, events),
    lessons,
    course_story: folded.course_story,
    tasks: tasksByRole(tasks),
    phase_tasks: phaseTasks,
    tasks_by_phase: tasksByPhase(phaseTasks),
    cost: costOf(events, order, totals.done),
    facts: factsOf(events),
    site_build: build ? { at: build.ts, pages: build.pages, lessons: build.lessons.length } : null,
  };
}

export { renderReport } from './markdown.ts';
