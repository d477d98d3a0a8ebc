// Worker tasks for the report, lesson and phase tasks alike: started by task.start, renewed by
// task.heartbeat (a lease, no story line), ended by task.finish or task.reset. Pure.
import type { EventOf, ReportStoryEntry, ReportTask } from '../../content-schemas/index.ts';
import { clockText, formatDuration } from './text.ts';

export type FoldedTask = ReportTask & { lesson: string | null; entry: ReportStoryEntry };

const leaseEnd = (at: string, seconds: number | undefined) =>
  seconds === undefined ? null : new Date(Date.parse(at) + seconds * 1000).toISOString();

export function startTask(event: EventOf<'task.start'>, entry: ReportStoryEntry): FoldedTask {
  return {
    id: event.task,
    role: event.role,
    phase: event.phase ?? null,
    status: 'running',
    worker_status: null,
    started_at: event.ts,
    duration_ms: null,
    heartbeats: 0,
    lease_until: leaseEnd(event.ts, event.lease_seconds),
    note: null,
    lesson: event.lesson ?? null,
    entry,
  };
}

export function updateTask(task: FoldedTask, event: EventOf<'task.heartbeat' | 'task.finish' | 'task.reset'>): void {
  // A heartbeat renews the lease only: the duration stays start to end.
  if (event.kind === 'task.heartbeat')
    return void Object.assign(task, {
      heartbeats: task.heartbeats + 1,
      lease_until: leaseEnd(event.ts, event.lease_seconds),
    });
  if (event.kind === 'task.finish')
    Object.assign(task, {
      status: event.status,
      worker_status: event.result?.status ?? null,
      note: event.note ?? event.result?.notes ?? null,
    });
  if (event.kind === 'task.reset') Object.assign(task, { status: 'reset', note: event.note });
  task.duration_ms = Math.max(0, Date.parse(event.ts) - Date.parse(task.started_at));
}

/** A task in one line; `lastAt`, the log's last event, tells a lease that ran out before it. */
export function taskText(task: ReportTask, lastAt: string): string {
  const expired = task.lease_until !== null && task.lease_until < lastAt;
  const lease =
    task.lease_until === null
      ? ''
      : ` (${expired ? 'its lease ran out at' : 'lease until'} ${clockText(task.lease_until)}${expired ? ': interrupted?' : ''})`;
  const ended =
    task.status === 'running'
      ? `still running${lease}`
      : `${task.status}${task.duration_ms === null ? '' : ` after ${formatDuration(task.duration_ms)}`}`;
  const beats = task.heartbeats > 0 ? `, ${task.heartbeats} heartbeat${task.heartbeats === 1 ? '' : 's'}` : '';
  const worker = task.worker_status && task.worker_status !== 'ok' ? `, worker says ${task.worker_status}` : '';
  return `task ${task.id} (${task.role}${task.phase ? `, phase ${task.phase}` : ''}) ${ended}${beats}${worker}${task.note ? `: ${task.note}` : ''}`;
}

export function toReportTask(task: FoldedTask): ReportTask {
  const { id, role, phase, status, worker_status, started_at, duration_ms, heartbeats, lease_until, note } = task;
  return { id, role, phase, status, worker_status, started_at, duration_ms, heartbeats, lease_until, note };
}
