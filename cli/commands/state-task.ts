// codelabgen state task start|done|fail|reset|list: the orchestrator's record of worker runs.
import path from 'node:path';
import type { Task, WorkerStatus } from '../../content-schemas/index.ts';
import {
  ARTIFACTS,
  commit,
  decideStart,
  decideTaskFinish,
  decideTaskHeartbeat,
  decideTaskReset,
  escapeControl,
  lastHeardText,
  lessonFilesChangedSince,
  listTasks,
  loadConfig,
  loadState,
  MAX_DATA_FILE_BYTES,
  parseLease,
  parseWorkerStatus,
  printable,
  readRegularFile,
  refuse,
  requireRunningTask,
  taskDurationMs,
  type StatusExpectation,
  UnreadableFileError,
} from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

/** The text of FILE or stdin (-), with the label errors name it by. FILE: a regular file, non-blocking, size-capped. */
function readStatusText(ctx: Context, source: string): { text: string; label: string } {
  const label = source === '-' ? '(stdin)' : source;
  try {
    const text =
      source === '-'
        ? ctx.readStdin()
        : readRegularFile(path.resolve(ctx.cwd, source), MAX_DATA_FILE_BYTES).toString('utf8');
    return { text, label };
  } catch (error) {
    const reason = error instanceof UnreadableFileError ? error.reason : (error as Error).message.split('\n')[0];
    return refuse(`cannot read ${printable(label)}: ${reason}`);
  }
}

/** Reads FILE or stdin (-) and validates its last JSON block as a worker status (of either kind). */
export function readWorkerStatus(ctx: Context, source: string): WorkerStatus {
  const { text, label } = readStatusText(ctx, source);
  return parseWorkerStatus(text, label);
}

/** The status the task expects: its lesson's worker, or its phase's. */
function expectationOf(task: Task): StatusExpectation {
  return task.lesson === null
    ? { task: task.id, phase: task.phase ?? 'unknown' }
    : { task: task.id, lesson: task.lesson };
}

async function change(ctx: Context, decide: Parameters<typeof commit>[2]): Promise<ExitCode> {
  const { event, state, notices } = await commit(courseOf(ctx), { command: ctx.commandLine }, decide);
  reportNotices(ctx, notices);
  const id = 'task' in event ? event.task : '';
  const task = state.tasks[id] as Task;
  // A reset task's worker may have crashed mid-write: name its lesson's files changed since it started.
  const lesson = event.kind === 'task.reset' && task.lesson !== null ? state.lessons[task.lesson] : undefined;
  const changed = lesson ? lessonFilesChangedSince(courseOf(ctx), lesson, task.started_at) : [];
  if (ctx.flag('json'))
    ctx.out.json({ seq: event.seq, task, ...(event.kind === 'task.reset' ? { changed_files: changed } : {}) });
  else if (event.kind === 'task.start') ctx.out.print(id);
  else if (event.kind === 'task.heartbeat') ctx.out.print(`task ${id} running until ${task.lease_expires_at}`);
  else {
    ctx.out.print(
      `task ${id} ${task.status} (${task.lesson === null ? `phase ${task.phase}` : `lesson ${task.lesson}`}, ${task.role})`,
    );
    if (changed.length > 0)
      ctx.out.print(
        `changed since ${id} started, maybe half-written by its worker (check them before the next worker starts): ${changed.map(escapeControl).join(', ')}`,
      );
  }
  return EXIT.ok;
}

async function list(ctx: Context): Promise<ExitCode> {
  const { state, notices } = await loadState(courseOf(ctx), ctx.commandLine);
  reportNotices(ctx, notices);
  if (ctx.flag('open') && ctx.flag('running')) refuse('state task list: give --open or --running, not both');
  const filter = ctx.flag('running') ? 'running' : ctx.flag('open') ? 'open' : 'all';
  const now = new Date();
  const tasks = listTasks(state, filter, now);
  if (ctx.flag('json')) {
    ctx.out.json({ tasks });
    return EXIT.ok;
  }
  if (tasks.length === 0) ctx.out.print(filter === 'all' ? 'no tasks' : `no ${filter} tasks`);
  for (const task of tasks) {
    const took = taskDurationMs(task);
    const lease =
      task.status === 'interrupted'
        ? ` (${task.lease_expires_at ? `lease expired ${task.lease_expires_at}` : 'started without a lease'})`
        : task.status === 'running'
          ? ` (${lastHeardText(task, now)})`
          : '';
    ctx.out.print(
      `${task.id.padEnd(5)} ${(task.lesson ?? task.phase ?? '').padEnd(6)} ${task.role.padEnd(18)} ` +
        `${task.status.padEnd(11)} ${task.started_at}${lease}` +
        `${took === null ? '' : ` (${Math.round(took / 1000)}s)`}` +
        `${task.note ? `  ${escapeControl(task.note)}` : ''}`,
    );
  }
  return EXIT.ok;
}

/** --lease, else config.yaml `task_lease`. */
function leaseSeconds(ctx: Context, config = loadConfig(courseOf(ctx))): number {
  const given = ctx.string('lease');
  return given === undefined
    ? parseLease(config.task_lease, `${ARTIFACTS.config}: task_lease`)
    : parseLease(given, '--lease');
}

export async function run(ctx: Context): Promise<ExitCode> {
  const arg = ctx.positionals[0] ?? '';
  const note = ctx.string('note') ?? null;
  switch (ctx.command) {
    case 'state task start': {
      const config = loadConfig(courseOf(ctx));
      return change(ctx, (state) =>
        decideStart(state, {
          lesson: ctx.positionals[0],
          phase: ctx.string('phase'),
          role: ctx.string('role'),
          leaseSeconds: leaseSeconds(ctx, config),
          budgets: config.budgets,
        }),
      );
    }
    case 'state task heartbeat':
      return change(ctx, (state) => decideTaskHeartbeat(state, arg, leaseSeconds(ctx)));
    case 'state task done':
    case 'state task fail': {
      const source = ctx.string('result');
      const given = source === undefined ? null : readStatusText(ctx, source);
      return change(ctx, (state) => {
        const task = requireRunningTask(state, arg);
        const result = given === null ? null : parseWorkerStatus(given.text, given.label, expectationOf(task));
        return decideTaskFinish(state, arg, ctx.command === 'state task done' ? 'done' : 'failed', note, result);
      });
    }
    case 'state task reset':
      return change(ctx, (state) => decideTaskReset(state, arg, note, ctx.flag('if-expired') ? new Date() : null));
    default:
      return list(ctx);
  }
}
