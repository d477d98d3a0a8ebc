// The human summary of `state show`: phase, counts, missing phase actions, then per module a
// count line and only the lessons that need attention (every lesson with `all`), and open tasks.
import type { Budgets, LessonState, State } from '../../content-schemas/index.ts';
import { STAGES } from '../../content-schemas/fast.ts';
import type { PhaseAction } from '../protocol/phases.ts';
import { nextPhase } from '../protocol/phases.ts';
import { lastHeardText } from '../protocol/leases.ts';
import { listTasks } from '../protocol/tasks.ts';

export interface SummaryInput {
  state: State;
  budgets: Budgets;
  actions: PhaseAction[];
  drifted: ReadonlySet<string>;
  /** Every lesson line, not only those needing attention. */
  all: boolean;
  /** The clock a task's lease is read against (a running task past it is interrupted). */
  now: Date;
}

/** Flags of a lesson in a line: blocked, stale, drifted, running task. */
export function lessonFlags(lesson: LessonState, input: SummaryInput, task: string | undefined): string[] {
  const flags: string[] = [];
  if (lesson.blocked) flags.push(`BLOCKED (${lesson.blocked.by}): ${lesson.blocked.reason}`);
  if (lesson.stale) flags.push(`STALE: ${lesson.stale.reason}`);
  if (input.drifted.has(lesson.id)) flags.push('DRIFTED: code changed since verified');
  if (task) flags.push(`task ${task}`);
  return flags;
}

/** Listed by default: flagged, or under way. Every done lesson is folded alike (its fix attempts are history). */
function needsAttention(lesson: LessonState, flags: string[]): boolean {
  return flags.length > 0 || (lesson.stage !== 'pending' && lesson.stage !== 'done');
}

function lessonLine(lesson: LessonState, input: SummaryInput, flags: string[]): string {
  const { budgets } = input;
  const budget = `fix ${lesson.fix_attempts_used}/${budgets.fix_attempts}  review ${lesson.review_rounds_used}/${budgets.review_rounds}`;
  const title = lesson.title.length > 40 ? `${lesson.title.slice(0, 37)}...` : lesson.title;
  return `  ${lesson.id.padEnd(6)} ${lesson.stage.padEnd(9)} ${budget}  ${title}${flags.length > 0 ? `  [${flags.join('; ')}]` : ''}`;
}

function countLine(lessons: LessonState[], drifted: ReadonlySet<string>): string {
  const parts = STAGES.map((stage) => [stage, lessons.filter((lesson) => lesson.stage === stage).length] as const)
    .filter(([, count]) => count > 0)
    .map(([stage, count]) => `${stage} ${count}`);
  const blocked = lessons.filter((lesson) => lesson.blocked).length;
  const stale = lessons.filter((lesson) => lesson.stale).length;
  const drift = lessons.filter((lesson) => drifted.has(lesson.id)).length;
  const flags = [
    blocked ? `blocked ${blocked}` : '',
    stale ? `stale ${stale}` : '',
    drift ? `drifted ${drift}` : '',
  ].filter(Boolean);
  return `${parts.join(', ')}${flags.length > 0 ? `; ${flags.join(', ')}` : ''}`;
}

function moduleLines(input: SummaryInput, runningByLesson: Map<string, string>): string[] {
  const { state } = input;
  const modules = new Map<string, LessonState[]>();
  for (const id of state.lesson_order) {
    const lesson = state.lessons[id];
    if (lesson) modules.set(lesson.module_id, [...(modules.get(lesson.module_id) ?? []), lesson]);
  }
  const lines: string[] = [];
  for (const [moduleId, lessons] of modules) {
    const done = lessons.filter((lesson) => lesson.stage === 'done').length;
    lines.push(
      `module ${moduleId} ${lessons[0]?.module_title ?? ''}: ${done}/${lessons.length} done (${countLine(lessons, input.drifted)})`,
    );
    let hidden = 0;
    for (const lesson of lessons) {
      const flags = lessonFlags(lesson, input, runningByLesson.get(lesson.id));
      if (input.all || needsAttention(lesson, flags)) lines.push(lessonLine(lesson, input, flags));
      else hidden += 1;
    }
    if (hidden > 0)
      lines.push(
        `  (${hidden === lessons.length ? `all ${hidden}` : `${hidden} more`} pending or done, not listed; --all lists them)`,
      );
  }
  return lines;
}

/** The summary as lines of text (no colour). */
export function buildSummary(input: SummaryInput): string[] {
  const { state, budgets } = input;
  const next = nextPhase(state.phase);
  const lessons = state.lesson_order.flatMap((id) => (state.lessons[id] ? [state.lessons[id]] : []));
  const running = Object.values(state.tasks).filter((task) => task.status === 'running');
  const runningByLesson = new Map(
    running.flatMap((task) => (task.lesson === null ? [] : [[task.lesson, `${task.id} ${task.role}`] as const])),
  );
  const lines = [
    `${state.title}`,
    `phase: ${state.phase}${next ? ` (next: ${next})` : ''}   seq ${state.last_seq}`,
    `budgets: fix_attempts ${budgets.fix_attempts}, review_rounds ${budgets.review_rounds}, parallel ${budgets.parallel}`,
    `lessons: ${lessons.length}${lessons.length > 0 ? ` (${countLine(lessons, input.drifted)})` : ''}`,
  ];
  const missing = input.actions.filter((item) => !item.done);
  if (missing.length > 0) {
    lines.push(`to leave ${state.phase}:`);
    for (const item of missing)
      lines.push(
        `  - ${item.id}: ${item.problems.slice(0, 3).join('; ')}${item.problems.length > 3 ? ` (and ${item.problems.length - 3} more)` : ''}`,
      );
  }
  if (lessons.length > 0) lines.push('', ...moduleLines(input, runningByLesson));
  // One definition of an open task (protocol/tasks.ts isOpen), the one `state task list --open` uses.
  const open = listTasks(state, 'open', input.now);
  const interrupted = open.filter((task) => task.status === 'interrupted');
  const failed = open.filter((task) => task.status === 'failed');
  const counts = [
    interrupted.length > 0 ? `${interrupted.length} interrupted` : '',
    failed.length > 0 ? `${failed.length} failed` : '',
  ].filter(Boolean);
  lines.push(
    '',
    open.length > 0
      ? `open tasks: ${open.length}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`
      : 'open tasks: none',
  );
  for (const task of open) {
    const status =
      task.status === 'interrupted'
        ? `interrupted (${task.lease_expires_at ? `lease expired ${task.lease_expires_at}` : 'started without a lease'})`
        : task.status === 'failed'
          ? `failed${task.note ? `: ${task.note}` : ''} (open until a later task on it finishes, or state task reset)`
          : `running until ${task.lease_expires_at}; ${lastHeardText(task, input.now)}`;
    lines.push(`  ${task.id} ${task.lesson ?? `phase ${task.phase}`} ${task.role} since ${task.started_at}, ${status}`);
  }
  return lines;
}
