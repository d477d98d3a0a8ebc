// Tasks (docs/protocol.md, Tasks): the orchestrator's record of worker runs. Decisions of
// `state task start|heartbeat|done|fail|reset`; one running task per lesson at a time; phase tasks
// (`--phase`) record the workers that are not about one lesson.
import type {
  Budgets,
  EventDraft,
  ListedTask,
  Phase,
  Stage,
  State,
  Task,
  WorkerStatus,
} from '../../content-schemas/index.ts';
import { RoleParser, TASK_ID_PATTERN, TASK_PHASES as TASK_PHASE_NAMES } from '../../content-schemas/fast.ts';
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { requireLesson } from './lessons.ts';
import { stageRow } from './stages.ts';
import { leaseHolds } from './leases.ts';
import { getOwn } from '../state/keyed.ts';
import { budgetUsedUp, raiseHint, spentSoFar, usedUpText } from './spend.ts';

export function runningTaskFor(state: State, lesson: string): Task | undefined {
  return Object.values(state.tasks).find((task) => task.lesson === lesson && task.status === 'running');
}

/** Phases whose workers are recorded as phase tasks (`state task start --phase P --role R`). */
export const TASK_PHASES: readonly Phase[] = TASK_PHASE_NAMES;

/** `state task start --phase P --role R`: a worker for the current phase; several may run at once. */
export function decidePhaseTaskStart(
  state: State,
  phase: string,
  role: string | undefined,
  leaseSeconds: number,
): EventDraft {
  if (!(TASK_PHASES as readonly string[]).includes(phase))
    refuse(`--phase "${printable(phase)}": phase tasks are for ${TASK_PHASES.join(', ')}`);
  if (phase !== state.phase)
    refuse(`--phase ${phase}: the course is at phase ${state.phase}; a phase task is for the current phase`);
  if (role === undefined)
    refuse(`state task start --phase ${phase}: --role R is required for a phase task (e.g. --role researcher)`);
  if (!RoleParser.safeParse(role).success)
    refuse(`--role "${printable(role)}": expected a worker role in kebab-case like "code-author"`);
  return {
    kind: 'task.start',
    task: `t${state.task_counter + 1}`,
    lesson: null,
    phase: phase as Phase,
    role,
    lease_seconds: leaseSeconds,
  };
}

/** `state task start <lesson> [--role R]`: refused while another task on the lesson is running. */
export function decideTaskStart(
  state: State,
  lesson: string,
  givenRole: string | undefined,
  leaseSeconds: number,
): EventDraft {
  const stage = requireLesson(state, lesson).stage;
  if (stage === 'done')
    refuse(
      `lesson ${lesson} is done; no worker runs on a done lesson`,
      `to rework it, move it back first: codelabgen state set ${lesson} <stage> --note "why"`,
    );
  const role = givenRole ?? defaultRole(lesson, stage);
  if (!RoleParser.safeParse(role).success)
    refuse(`--role "${printable(role)}": expected a worker role in kebab-case like "code-author"`);
  const running = runningTaskFor(state, lesson);
  if (running)
    refuse(
      `lesson ${lesson} already has a running task ${running.id} (${running.role}, started ${running.started_at})`,
      `finish it first: codelabgen state task done|fail|reset ${running.id}`,
    );
  return { kind: 'task.start', task: `t${state.task_counter + 1}`, lesson, role, lease_seconds: leaseSeconds };
}

/** What `state task start` is asked: a lesson, or a phase with a role. */
export interface TaskStartRequest {
  lesson: string | undefined;
  phase: string | undefined;
  role: string | undefined;
  leaseSeconds: number;
  /** config.yaml's budgets: a used-up spending budget refuses every new task. */
  budgets?: Budgets;
}

/** `state task start <lesson>` or `state task start --phase P --role R`. */
export function decideStart(state: State, request: TaskStartRequest): EventDraft {
  const { lesson, phase, role, leaseSeconds } = request;
  const usedUp = request.budgets ? budgetUsedUp(spentSoFar(state), request.budgets) : null;
  if (usedUp) refuse(`${usedUpText(usedUp)}: no new task starts`, raiseHint(usedUp));
  if ((lesson === undefined) === (phase === undefined))
    refuse(
      `state task start: give a lesson id or --phase P${lesson === undefined ? '' : ', not both'}`,
      'codelabgen state task start 1.2   or   codelabgen state task start --phase sources --role source-researcher',
    );
  return phase === undefined
    ? decideTaskStart(state, lesson as string, role, leaseSeconds)
    : decidePhaseTaskStart(state, phase, role, leaseSeconds);
}

/** The worker role of the lesson's current stage (`state stages`), as `--role` defaults to it. */
export function defaultRole(lesson: string, stage: Stage): string {
  const role = stageRow(stage).role;
  if (role === 'orchestrator')
    refuse(
      `lesson ${lesson} is at ${stage}: no worker role does the next step (${stageRow(stage).work}); give --role R if a worker runs anyway`,
    );
  return role;
}

export function requireRunningTask(state: State, id: string): Task {
  if (!new RegExp(TASK_ID_PATTERN).test(id))
    refuse(
      `"${printable(id)}" is not a task id (expected one like "t12")`,
      'list tasks with: codelabgen state task list',
    );
  const task = getOwn(state.tasks, id);
  if (!task) refuse(`unknown task "${id}"`, 'list tasks with: codelabgen state task list');
  if (task.status !== 'running')
    refuse(`task ${id} is not running (it is ${task.status}${task.finished_at ? ` since ${task.finished_at}` : ''})`);
  return task;
}

/** `state task done|fail <task> [--note] [--result]`; a result must be about the task's lesson. */
export function decideTaskFinish(
  state: State,
  id: string,
  status: 'done' | 'failed',
  note: string | null,
  result: WorkerStatus | null,
): EventDraft {
  const task = requireRunningTask(state, id);
  if (result && 'lesson' in result && task.lesson !== null && result.lesson !== task.lesson)
    refuse(`--result: lesson: is "${result.lesson}", but task ${id} is for lesson ${task.lesson}`);
  if (result && 'phase' in result && task.phase !== undefined && result.phase !== task.phase)
    refuse(`--result: phase: is "${result.phase}", but task ${id} is for phase ${task.phase}`);
  return { kind: 'task.finish', task: id, status, note, result };
}

/** `state task heartbeat <task> [--lease D]`: the worker is alive; its lease runs D from now. */
export function decideTaskHeartbeat(state: State, id: string, leaseSeconds: number): EventDraft {
  requireRunningTask(state, id);
  return { kind: 'task.heartbeat', task: id, lease_seconds: leaseSeconds };
}

/** A duration like "20m", "90s" or "2h" in seconds (`--lease`, config `task_lease`). */
export function parseLease(text: string, label: string): number {
  const match = /^([1-9][0-9]{0,5})([smh])$/.exec(text);
  if (!match) refuse(`${label} "${printable(text)}": expected a duration like "20m", "90s" or "2h"`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[match[2] as 's' | 'm' | 'h'];
}

/**
 * `state task reset <task>`: abandons a running task (the worker is gone) or closes an open failed
 * one; the lesson is untouched. With `ifExpiredAt`, a running task is reset only when its lease
 * has run out by then (interrupted), never one a worker still holds.
 */
export function decideTaskReset(
  state: State,
  id: string,
  note: string | null,
  ifExpiredAt: Date | null = null,
): EventDraft {
  const task = getOwn(state.tasks, id);
  if (task?.status === 'failed' && isOpen(state, task)) return { kind: 'task.reset', task: id, note };
  const running = requireRunningTask(state, id);
  if (ifExpiredAt !== null && leaseHolds(running, ifExpiredAt)) {
    refuse(
      `task ${id} is running and its lease holds until ${running.lease_expires_at}: --if-expired resets only an interrupted task`,
      `a worker is on it; wait, or reset it without --if-expired if it is really gone`,
    );
  }
  return { kind: 'task.reset', task: id, note };
}

export function listedTask(task: Task, now: Date): ListedTask {
  return task.status === 'running' && !leaseHolds(task, now) ? { ...task, status: 'interrupted' } : task;
}

function byNumber(a: Pick<Task, 'id'>, b: Pick<Task, 'id'>): number {
  return Number(a.id.slice(1)) - Number(b.id.slice(1));
}

type TaskIdentity = Pick<Task, 'id' | 'status' | 'lesson'> & { phase?: Task['phase'] | null };

/**
 * The one definition of an open task (`state task list --open`, `state show`, the report's "What
 * needs a human"): running, or failed and not yet followed by a finished task on the same lesson (or
 * phase) among `tasks`.
 */
export function isOpenAmong(tasks: Iterable<TaskIdentity>, task: TaskIdentity): boolean {
  if (task.status === 'running') return true;
  if (task.status !== 'failed') return false;
  for (const later of tasks)
    if (byNumber(later, task) > 0 && sameSubject(later, task) && (later.status === 'done' || later.status === 'failed'))
      return false;
  return true;
}

/** isOpenAmong the state's tasks. */
export function isOpen(state: State, task: Task): boolean {
  return isOpenAmong(Object.values(state.tasks), task);
}

function sameSubject(a: TaskIdentity, b: TaskIdentity): boolean {
  return a.lesson === b.lesson && (a.phase ?? null) === (b.phase ?? null);
}

/**
 * `state task list`, in task order, as of `now`: `--open` (running, interrupted and open failed
 * tasks) or `--running` (running with the lease holding: a worker is on them).
 */
export function listTasks(state: State, filter: 'all' | 'open' | 'running', now: Date): ListedTask[] {
  return Object.values(state.tasks)
    .filter(
      (task) =>
        filter === 'all' ||
        (filter === 'running' ? task.status === 'running' && leaseHolds(task, now) : isOpen(state, task)),
    )
    .sort(byNumber)
    .map((task) => listedTask(task, now));
}

export function taskDurationMs(task: Pick<Task, 'started_at' | 'finished_at'>): number | null {
  return task.finished_at ? Math.max(0, Date.parse(task.finished_at) - Date.parse(task.started_at)) : null;
}
