// Task leases: a running task counts as running while its lease holds (`state task start --lease`,
// renewed by `state task heartbeat`), and as interrupted after, with a hint to resume it. Pure.
import type { Phase, Stage, State, Task } from '../../content-schemas/index.ts';

/** What `state next` shows of every task it lists. */
interface ListedTask {
  task: string;
  /** Null for a phase task. */
  lesson: string | null;
  /** The phase of a phase task, else null. */
  phase: Phase | null;
  role: string;
  started_at: string;
  age_seconds: number;
}

export interface RunningTask extends ListedTask {
  /** Until when it counts as running; `state task heartbeat` renews it. */
  lease_expires_at: string;
}

export interface InterruptedTask extends ListedTask {
  /** When its lease ran out, or null for a task started without one. */
  lease_expired_at: string | null;
  /** The lesson's stage now: the work the task was doing moves it from here (null for a phase task). */
  stage: Stage | null;
  /** Lesson files changed since the task started (by mtime): maybe half-written by the crashed worker. Empty for a phase task. */
  changed_files: string[];
  /** What to do, in one line. */
  hint: string;
}

export function ageSeconds(from: string, now: Date): number {
  return Math.max(0, Math.round((now.getTime() - Date.parse(from)) / 1000));
}

function taskAge(task: Task, now: Date) {
  return {
    task: task.id,
    lesson: task.lesson,
    phase: task.phase ?? null,
    role: task.role,
    started_at: task.started_at,
    age_seconds: ageSeconds(task.started_at, now),
  };
}

/** Running tasks whose lease holds at `now`, and those whose lease expired (or that never had one). */
export function splitByLease(tasks: readonly Task[], now: Date): [Task[], Task[]] {
  return [tasks.filter((task) => leaseHolds(task, now)), tasks.filter((task) => !leaseHolds(task, now))];
}

/** True when the task has a lease that has not run out at `now` (a task without one never holds). */
export function leaseHolds(task: Task, now: Date): boolean {
  return task.lease_expires_at !== undefined && Date.parse(task.lease_expires_at) > now.getTime();
}

function interruptedTask(
  state: State,
  task: Task,
  now: Date,
  changedFiles: ReadonlyMap<string, string[]>,
): InterruptedTask {
  const stage = task.lesson === null ? null : (state.lessons[task.lesson]?.stage ?? null);
  const subject =
    task.lesson === null ? `phase ${task.phase ?? '?'}` : `lesson ${task.lesson} (at ${stage ?? 'unknown stage'})`;
  const changed = changedFiles.get(task.id) ?? [];
  const files =
    changed.length === 0
      ? 'no lesson file changed since it started'
      : `check the ${changed.length} file${changed.length === 1 ? '' : 's'} it changed (changed_files)`;
  return {
    ...taskAge(task, now),
    lease_expired_at: task.lease_expires_at ?? null,
    stage,
    changed_files: changed,
    hint:
      `${task.role} on ${subject} stopped renewing its lease; ${files}, then record its answer (codelabgen ` +
      `state task done|fail ${task.id}) or reset it (codelabgen state task reset ${task.id}) and start the work ` +
      'again',
  };
}

/** Running tasks split for `state next`: `running` while the lease holds, `interrupted` after. */
export function tasksByLease(
  state: State,
  tasks: readonly Task[],
  now: Date,
  changedFiles: ReadonlyMap<string, string[]>,
): { running: RunningTask[]; interrupted: InterruptedTask[] } {
  const [holding, expired] = splitByLease(tasks, now);
  return {
    running: holding.map((task) => ({ ...taskAge(task, now), lease_expires_at: task.lease_expires_at as string })),
    interrupted: expired.map((task) => interruptedTask(state, task, now, changedFiles)),
  };
}

/** A running task whose worker has been silent this long (ms) is worth a look, even while its lease holds. */
export const QUIET_MS = 10 * 60_000;

function agoText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.round(ms / 1000))}s`;
  return minutes < 120 ? `${minutes}m` : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * When a running task's worker was last heard from (its last heartbeat, else its start), and a
 * warning when that is over QUIET_MS ago: a worker that crashed leaves its lease holding until it
 * runs out, and nothing else tells (`state show`, `state task list`).
 */
export function lastHeardText(task: Pick<Task, 'started_at' | 'heartbeat_at'>, now: Date): string {
  const heard = task.heartbeat_at ?? task.started_at;
  const quietMs = now.getTime() - Date.parse(heard);
  const what = task.heartbeat_at ? 'last heartbeat' : 'started, no heartbeat since';
  const text = `${what} ${agoText(quietMs)} ago`;
  return quietMs > QUIET_MS
    ? `${text}: quiet for over ${QUIET_MS / 60_000}m, its worker may have crashed (ask it, or reset the task once its lease runs out)`
    : text;
}
