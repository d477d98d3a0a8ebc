// The pure transition function: apply(state, event) → state. Commit and replay both use it, so a
// state rebuilt from events.jsonl equals the stored one. It trusts the event: commands validate
// before they propose one; replay of an event that does not fit throws ReplayError.
import type { Event, EventOf, LessonState, Phase, State, Task } from '../../content-schemas/index.ts';
import { STATE_SCHEMA_VERSION, stageIndex } from '../../content-schemas/fast.ts';
import { getOwn, withOwn, withoutOwn } from './keyed.ts';

export class ReplayError extends Error {
  constructor(seq: number, message: string) {
    super(`event seq ${seq}: ${message}`);
    this.name = 'ReplayError';
  }
}

export function initialState(event: EventOf<'course.init'>): State {
  return {
    schema_version: STATE_SCHEMA_VERSION,
    title: event.title,
    topic: event.topic,
    created_at: event.ts,
    phase: 'init',
    phase_history: [{ phase: 'init', entered_at: event.ts, seq: event.seq }],
    last_seq: event.seq,
    log_bytes: 0,
    lesson_order: [],
    lessons: {},
    tasks: {},
    task_counter: 0,
    last_site_build: null,
  };
}

/** Applies one event; `state` is null only before the first (course.init) event. */
export function apply(state: State | null, event: Event): State {
  if (state === null) {
    if (event.kind !== 'course.init')
      throw new ReplayError(event.seq, `the first event must be course.init, got ${event.kind}`);
    return initialState(event);
  }
  if (event.seq !== state.last_seq + 1) throw new ReplayError(event.seq, `expected seq ${state.last_seq + 1}`);
  const next = applyKind(state, event);
  return { ...next, last_seq: event.seq };
}

function applyKind(state: State, event: Event): State {
  switch (event.kind) {
    case 'course.init':
      throw new ReplayError(event.seq, 'course.init after the course was created');
    case 'phase.advance':
      return enterPhase(state, event.to, event);
    case 'lessons.register':
      return applyRegister(state, event);
    case 'lesson.stage':
      return updateLesson(event.reopened ? enterPhase(state, 'lessons', event) : state, event, (lesson) => ({
        ...lesson,
        stage: event.to,
        stale: event.to === lesson.stage ? lesson.stale : null,
        review_rounds_used: lesson.review_rounds_used + (event.review_round_used ? 1 : 0),
        ...(event.to === 'done' ? { done_at: event.ts } : {}),
        ...(stageIndex(event.to) < stageIndex(lesson.stage)
          ? { rework: { from: lesson.stage, to: event.to, note: event.note ?? '', at: event.ts } }
          : {}),
        verified: stageIndex(event.to) >= stageIndex('verified') ? lesson.verified : null,
      }));
    case 'lesson.verified':
      return updateLesson(state, event, (lesson) => ({
        ...lesson,
        stage: 'verified',
        verified: { code_hash: event.code_hash, at: event.ts, run: event.run },
        last_failure: null,
        last_verify_failure: null,
      }));
    case 'lesson.fail':
      return updateLesson(state, event, (lesson) => ({
        ...lesson,
        fix_attempts_used: event.fix_attempts_used,
        last_failure: event.note,
        last_verify_failure:
          event.via === 'verify' && event.code_hash ? { run: event.run, code_hash: event.code_hash } : null,
        blocked: event.blocked
          ? {
              reason: `fix budget used up (${event.fix_attempts_used} failed attempts); last: ${event.note}`,
              by: 'fix-budget',
              at: event.ts,
            }
          : lesson.blocked,
      }));
    case 'lesson.fail_note':
      return updateLesson(state, event, (lesson) => ({
        ...lesson,
        ...(lesson.last_verify_failure
          ? { last_verify_failure: { ...lesson.last_verify_failure, note: event.note.slice(0, 2000) } }
          : {}),
      }));
    case 'lesson.block':
      return updateLesson(state, event, (lesson) => ({
        ...lesson,
        blocked: { reason: event.reason, by: 'user', at: event.ts },
      }));
    case 'lesson.unblock':
      return updateLesson(state, event, (lesson) => ({
        ...lesson,
        blocked: null,
        fix_attempts_used: event.fix_budget_reset ? 0 : lesson.fix_attempts_used,
        fix_budget_resets: lesson.fix_budget_resets + (event.fix_budget_reset ? 1 : 0),
        ...(event.review_round_granted ? { review_rounds_granted: (lesson.review_rounds_granted ?? 0) + 1 } : {}),
      }));
    case 'lesson.stale':
      return updateLesson(state, event, (lesson) => ({ ...lesson, stale: { reason: event.reason, at: event.ts } }));
    case 'task.start':
      return applyTaskStart(state, event);
    case 'task.finish':
      return updateTask(state, event, (task) => ({
        ...task,
        status: event.status,
        finished_at: event.ts,
        note: event.note,
        result: event.result,
      }));
    case 'task.heartbeat':
      return updateTask(state, event, (task) => ({
        ...task,
        heartbeat_at: event.ts,
        lease_expires_at: leaseEnd(event.ts, event.lease_seconds),
      }));
    case 'task.reset':
      return updateTask(state, event, (task) => ({
        ...task,
        status: 'reset',
        finished_at: event.ts,
        note: event.note,
      }));
    case 'log':
      return state;
    case 'site.build':
      return {
        ...state,
        last_site_build: { at: event.ts, seq: event.seq, out: event.out, pages: event.pages, lessons: event.lessons },
      };
  }
}

function enterPhase(state: State, phase: Phase, event: Event): State {
  return { ...state, phase, phase_history: [...state.phase_history, { phase, entered_at: event.ts, seq: event.seq }] };
}

function updateLesson(
  state: State,
  event: Event & { lesson: string },
  change: (lesson: LessonState) => LessonState,
): State {
  const lesson = getOwn(state.lessons, event.lesson);
  if (lesson === undefined) throw new ReplayError(event.seq, `unknown lesson "${event.lesson}"`);
  return {
    ...state,
    lessons: withOwn(state.lessons, event.lesson, inSchemaOrder({ ...change(lesson), updated_at: event.ts })),
  };
}

/** LessonStateSchema's key order: state.json read without the schema check prints as zod would. */
const LESSON_KEYS = [
  'id',
  'title',
  'slug',
  'module_id',
  'module_slug',
  'module_title',
  'dir',
  'stage',
  'blocked',
  'stale',
  'fix_attempts_used',
  'fix_budget_resets',
  'review_rounds_used',
  'review_rounds_granted',
  'rework',
  'verified',
  'last_failure',
  'last_verify_failure',
  'done_at',
  'updated_at',
] as const;

function inSchemaOrder(lesson: LessonState): LessonState {
  const ordered: Record<string, unknown> = {};
  for (const key of LESSON_KEYS) if (key in lesson) ordered[key] = lesson[key];
  for (const [key, value] of Object.entries(lesson)) if (!(key in ordered)) ordered[key] = value;
  return ordered as LessonState;
}

function leaseEnd(from: string, seconds: number): string {
  return new Date(Date.parse(from) + seconds * 1000).toISOString();
}

function updateTask(
  state: State,
  event: EventOf<'task.finish' | 'task.reset' | 'task.heartbeat'>,
  change: (task: Task) => Task,
): State {
  const task = getOwn(state.tasks, event.task);
  if (task === undefined) throw new ReplayError(event.seq, `unknown task "${event.task}"`);
  return { ...state, tasks: withOwn(state.tasks, event.task, change(task)) };
}

function applyTaskStart(state: State, event: EventOf<'task.start'>): State {
  if (event.lesson !== null && getOwn(state.lessons, event.lesson) === undefined)
    throw new ReplayError(event.seq, `unknown lesson "${event.lesson}"`);
  const task: Task = {
    id: event.task,
    lesson: event.lesson,
    ...(event.phase === undefined ? {} : { phase: event.phase }),
    role: event.role,
    status: 'running',
    started_at: event.ts,
    finished_at: null,
    note: null,
    result: null,
    ...(event.lease_seconds === undefined ? {} : { lease_expires_at: leaseEnd(event.ts, event.lease_seconds) }),
  };
  return { ...state, tasks: withOwn(state.tasks, event.task, task), task_counter: Number(event.task.slice(1)) };
}

function applyRegister(state: State, event: EventOf<'lessons.register'>): State {
  let lessons = withoutOwn(state.lessons, event.removed);
  for (const registered of event.lessons) {
    const existing = getOwn(lessons, registered.id);
    const lesson: LessonState = existing
      ? { ...existing, ...registered, updated_at: event.ts }
      : {
          ...registered,
          stage: 'pending',
          blocked: null,
          stale: null,
          fix_attempts_used: 0,
          fix_budget_resets: 0,
          review_rounds_used: 0,
          verified: null,
          last_failure: null,
          updated_at: event.ts,
        };
    lessons = withOwn(lessons, registered.id, lesson);
  }
  return { ...state, lessons, lesson_order: event.lessons.map((lesson) => lesson.id) };
}
