// Test helper: small in-memory states for the table tests of the pure decisions. No disk.
import type { LessonState, Stage, State, Task } from '../../content-schemas/index.ts';

export const T0 = '2026-01-01T00:00:00.000Z';
export const BUDGETS = { fix_attempts: 3, review_rounds: 2, parallel: 3 };

export function lesson(id: string, stage: Stage, extra: Partial<LessonState> = {}): LessonState {
  const module = id.split('.')[0] as string;
  return {
    id,
    title: `Lesson ${id}`,
    slug: `l${id.replace('.', '-')}`,
    module_id: module,
    module_slug: `m${module}`,
    module_title: `Module ${module}`,
    dir: `${module}-m${module}/${id}-l`,
    stage,
    blocked: null,
    stale: null,
    fix_attempts_used: 0,
    fix_budget_resets: 0,
    review_rounds_used: 0,
    verified: null,
    last_failure: null,
    updated_at: T0,
    ...extra,
  };
}

export function task(
  id: string,
  lessonId: string | null,
  status: Task['status'] = 'running',
  extra: Partial<Task> = {},
): Task {
  return {
    id,
    lesson: lessonId,
    role: 'code-author',
    status,
    started_at: T0,
    finished_at: status === 'running' ? null : T0,
    note: null,
    result: null,
    ...extra,
  };
}

export function state(lessons: LessonState[], tasks: Task[] = [], phase: State['phase'] = 'lessons'): State {
  return {
    schema_version: 1,
    title: 'C',
    topic: null,
    created_at: T0,
    phase,
    phase_history: [{ phase: 'init', entered_at: T0, seq: 1 }],
    last_seq: 1,
    log_bytes: 0,
    lesson_order: lessons.map((item) => item.id),
    lessons: Object.fromEntries(lessons.map((item) => [item.id, item])),
    tasks: Object.fromEntries(tasks.map((item) => [item.id, item])),
    task_counter: tasks.length,
    last_site_build: null,
  };
}

/** The refusal's message, or "accepted" when the decision returned an event. */
export function outcome(decide: () => unknown): string {
  try {
    decide();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}
