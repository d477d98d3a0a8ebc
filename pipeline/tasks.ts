// Tasks (PROTOCOL.md section 4): the orchestrator's record of worker runs. Decisions of
// `state task start|done|fail|reset`; one running task per lesson at a time.
import type { EventDraft, State, Task, WorkerStatus } from '../content-schemas/index.ts';
import { RoleParser, TASK_ID_PATTERN } from '../content-schemas/fast.ts';
import { printable } from './course.ts';
import { refuse } from './errors.ts';
import { requireLesson } from './fix-budget.ts';
import { getOwn } from './state/keyed.ts';

export function runningTaskFor(state: State, lesson: string): Task | undefined {
  return Object.values(state.tasks).find((task) => task.lesson === lesson && task.status === 'running');
}

/** `state task start <lesson> --role R`: refused while another task on the lesson is running. */
export function decideTaskStart(state: State, lesson: string, role: string | undefined): EventDraft {
  requireLesson(state, lesson);
  if (role === undefined || role === '') refuse('state task start: --role R is required (e.g. --role code-author)');
  if (!RoleParser.safeParse(role).success) refuse(`--role "${printable(role)}": expected a worker role in kebab-case like "code-author"`);
  const running = runningTaskFor(state, lesson);
  if (running) refuse(`lesson ${lesson} already has a running task ${running.id} (${running.role}, started ${running.started_at})`, `finish it first: codelabgen state task done|fail|reset ${running.id}`);
  return { kind: 'task.start', task: `t${state.task_counter + 1}`, lesson, role };
}

export function requireRunningTask(state: State, id: string): Task {
  if (!new RegExp(TASK_ID_PATTERN).test(id)) refuse(`"${printable(id)}" is not a task id (expected one like "t12")`, 'list tasks with: codelabgen state task list');
  const task = getOwn(state.tasks, id);
  if (!task) refuse(`unknown task "${id}"`, 'list tasks with: codelabgen state task list');
  if (task.status !== 'running') refuse(`task ${id} is not running (it is ${task.status}${task.finished_at ? ` since ${task.finished_at}` : ''})`);
  return task;
}

/** `state task done|fail <task> [--note] [--result]`; a result must be about the task's lesson. */
export function decideTaskFinish(state: State, id: string, status: 'done' | 'failed', note: string | null, result: WorkerStatus | null): EventDraft {
  const task = requireRunningTask(state, id);
  if (result && result.lesson !== task.lesson) refuse(`--result: lesson: is "${result.lesson}", but task ${id} is for lesson ${task.lesson}`);
  return { kind: 'task.finish', task: id, status, note, result };
}

/** `state task reset <task>`: abandons a running task (the worker is gone); the lesson is untouched. */
export function decideTaskReset(state: State, id: string, note: string | null): EventDraft {
  requireRunningTask(state, id);
  return { kind: 'task.reset', task: id, note };
}

export function taskDurationMs(task: Task): number | null {
  return task.finished_at ? Math.max(0, Date.parse(task.finished_at) - Date.parse(task.started_at)) : null;
}
