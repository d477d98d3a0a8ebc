// The report's cost section: what the workers' tasks used (the `usage` of the status recorded with
// `state task done|fail --result`), in total, per phase, role and lesson, the cache-hit rate, the
// cost per done lesson and the share spent on rework and on fixing failed verifications. Pure: one
// walk of the event log.
import type { Event, Phase, ReportCost, ReportUsage, WorkerUsage } from '../../content-schemas/index.ts';
import { PHASES, stageIndex } from '../../content-schemas/fast.ts';

type Kind = 'first' | 'rework' | 'failed-verify';

interface TaskCost {
  phase: Phase;
  role: string;
  lesson: string | null;
  kind: Kind;
  usage: WorkerUsage | null;
}

/** Where each lesson is: its stage, the furthest it got, and whether its last verification at this stage failed. */
interface LessonPlace {
  stage: number;
  furthest: number;
  failedHere: boolean;
}

const emptyUsage = (): ReportUsage => ({
  tasks: 0,
  tasks_with_usage: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  tokens: 0,
  cost_usd: 0,
  seconds: 0,
});

function add(total: ReportUsage, task: TaskCost): void {
  total.tasks += 1;
  const usage = task.usage;
  if (!usage) return;
  total.tasks_with_usage += 1;
  total.input_tokens += usage.input_tokens ?? 0;
  total.output_tokens += usage.output_tokens ?? 0;
  total.cache_read_tokens += usage.cache_read_tokens ?? 0;
  total.cache_write_tokens += usage.cache_write_tokens ?? 0;
  total.tokens +=
    (usage.input_tokens ?? 0) +
    (usage.output_tokens ?? 0) +
    (usage.cache_read_tokens ?? 0) +
    (usage.cache_write_tokens ?? 0);
  total.cost_usd = Math.round((total.cost_usd + (usage.cost_usd ?? 0)) * 1e6) / 1e6;
  total.seconds = Math.round((total.seconds + (usage.seconds ?? 0)) * 1000) / 1000;
}

function sumOf(tasks: readonly TaskCost[]): ReportUsage {
  const total = emptyUsage();
  for (const task of tasks) add(total, task);
  return total;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

/** Each task with what it worked for, folded from the log. */
function tasksOf(events: readonly Event[]): TaskCost[] {
  const tasks = new Map<string, TaskCost>();
  const places = new Map<string, LessonPlace>();
  let phase: Phase = 'init';
  const place = (lesson: string) => {
    const found = places.get(lesson) ?? { stage: 0, furthest: 0, failedHere: false };
    places.set(lesson, found);
    return found;
  };
  for (const event of events) {
    if (event.kind === 'phase.advance') phase = event.to;
    else if (event.kind === 'lesson.stage') {
      const at = place(event.lesson);
      at.stage = stageIndex(event.to);
      // A move back to verify drifted code again is no rework (the report counts it apart too).
      at.furthest = event.drifted ? at.stage : Math.max(at.furthest, at.stage);
      at.failedHere = false;
      if (event.reopened) phase = 'lessons';
    } else if (event.kind === 'lesson.verified') {
      const at = place(event.lesson);
      at.stage = stageIndex('verified');
      at.furthest = Math.max(at.furthest, at.stage);
      at.failedHere = false;
    } else if (event.kind === 'lesson.fail') place(event.lesson).failedHere = true;
    else if (event.kind === 'task.start') {
      const at = event.lesson === null ? null : place(event.lesson);
      const kind: Kind =
        at === null ? 'first' : at.failedHere ? 'failed-verify' : at.stage < at.furthest ? 'rework' : 'first';
      tasks.set(event.task, { phase: event.phase ?? phase, role: event.role, lesson: event.lesson, kind, usage: null });
    } else if (event.kind === 'task.finish') {
      const task = tasks.get(event.task);
      if (task) task.usage = event.result?.usage ?? null;
    }
  }
  return [...tasks.values()];
}

function share(part: ReportUsage, total: ReportUsage): ReportUsage & { share: number | null } {
  return {
    ...part,
    share: total.cost_usd > 0 ? ratio(part.cost_usd, total.cost_usd) : ratio(part.tokens, total.tokens),
  };
}

/** The cost section of the report; `lessonOrder` is the curriculum order, `done` the lessons done. */
export function costOf(events: readonly Event[], lessonOrder: readonly string[], done: number): ReportCost {
  const tasks = tasksOf(events);
  const total = sumOf(tasks);
  const input = total.input_tokens + total.cache_read_tokens + total.cache_write_tokens;
  const roles = [...new Set(tasks.map((task) => task.role))].sort();
  return {
    ...total,
    cache_hit_rate: ratio(total.cache_read_tokens, input),
    cost_per_done_lesson_usd: done === 0 ? null : Math.round((total.cost_usd / done) * 10_000) / 10_000,
    rework: share(sumOf(tasks.filter((task) => task.kind === 'rework')), total),
    failed_verify: share(sumOf(tasks.filter((task) => task.kind === 'failed-verify')), total),
    by_phase: PHASES.flatMap((phase) => {
      const mine = tasks.filter((task) => task.phase === phase);
      return mine.length === 0 ? [] : [{ phase, ...sumOf(mine) }];
    }),
    by_role: roles.map((role) => ({
      role: role as ReportCost['by_role'][number]['role'],
      ...sumOf(tasks.filter((task) => task.role === role)),
    })),
    by_lesson: lessonOrder.flatMap((lesson) => {
      const mine = tasks.filter((task) => task.lesson === lesson);
      return mine.length === 0 ? [] : [{ lesson, ...sumOf(mine) }];
    }),
  };
}
