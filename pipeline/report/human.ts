// "What needs a human" and the one-line lesson summaries of the report: drawn from the folded
// lesson histories (report-story.ts) and the course-wide decisions. Pure.
import type { Event, ReportDecision, ReportNeedsHuman, ReportTask } from '../../content-schemas/index.ts';
import { isOpenAmong } from '../protocol/tasks.ts';
import type { FoldedTask } from './tasks.ts';
import { NEEDS_HUMAN_KINDS } from '../../content-schemas/index.ts';
import { decisionOf, type LessonTrack } from './story.ts';
import { clockText, formatDuration, plural, testsText } from './text.ts';

const flat = (text: string) => text.replace(/[\r\n]+/g, ' ');

/** A task still running whose lease ran out before the log's last event: never resumed or reset. */
export function wasInterrupted(task: ReportTask, lastAt: string): boolean {
  return task.status === 'running' && task.lease_until !== null && task.lease_until < lastAt;
}

const interruptedText = (task: ReportTask) =>
  `task ${task.id} (${task.role}) interrupted: its lease ran out at ${clockText(task.lease_until ?? '')} and it was never resumed or reset`;

function lessonItems(track: LessonTrack, lastAt: string, allTasks: readonly FoldedTask[]): ReportNeedsHuman[] {
  const id = track.lesson.id;
  const item = (kind: ReportNeedsHuman['kind'], at: string, text: string): ReportNeedsHuman => ({
    kind,
    lesson: id,
    at,
    text: flat(text),
  });
  const items: ReportNeedsHuman[] = [];
  // Only what is open now: a block lifted, a drift verified again, a stale mark cleared or a failed
  // task followed by a finished one needs no one (what was decided is under decisions).
  for (const block of track.blocks.filter((b) => b.unblocked_at === null)) {
    const why = block.by === 'fix-budget' ? 'its fix budget was used up' : `blocked for the user: ${block.reason}`;
    items.push(item('blocked', block.at, `${id} is blocked at ${track.stage}: ${why}`));
  }
  const lastFailure = track.failures.filter((f) => f.blocked).at(-1);
  if (lastFailure && track.blocks.some((b) => b.unblocked_at === null && b.by === 'fix-budget'))
    items.push(
      item('budget-used-up', lastFailure.at, `${id} used its whole fix budget; last failure: ${lastFailure.note}`),
    );
  if (track.drift_open)
    items.push(
      item(
        'drift',
        track.drift_open.at,
        `${id}: code changed after it was verified; moved back from ${track.drift_open.from} to verify it again, not verified yet`,
      ),
    );
  for (const mark of track.stale_marks.filter((m) => m.cleared_at === null))
    items.push(item('stale', mark.at, `${id} is marked stale (${mark.reason})`));
  for (const task of track.tasks) {
    if (task.status === 'failed' && isOpenAmong(allTasks, { ...task, lesson: id }))
      items.push(
        item(
          'task-failed',
          task.started_at,
          `${id}: task ${task.id} (${task.role}) failed${task.note ? `: ${task.note}` : ''}`,
        ),
      );
    if (wasInterrupted(task, lastAt))
      items.push(item('task-interrupted', task.lease_until ?? task.started_at, `${id}: ${interruptedText(task)}`));
    if (task.worker_status === 'needs-user' && isOpenAmong(allTasks, { ...task, lesson: id, status: 'failed' }))
      items.push(
        item(
          'task-needs-user',
          task.started_at,
          `${id}: task ${task.id} (${task.role}) ended needs-user${task.note ? `: ${task.note}` : ''}`,
        ),
      );
  }
  return items;
}

function phaseTaskItems(task: FoldedTask, lastAt: string, allTasks: readonly FoldedTask[]): ReportNeedsHuman[] {
  if (wasInterrupted(task, lastAt))
    return [
      {
        kind: 'task-interrupted',
        lesson: null,
        at: task.lease_until ?? task.started_at,
        text: flat(`phase ${task.phase}: ${interruptedText(task)}`),
      },
    ];
  if (task.status !== 'failed' || !isOpenAmong(allTasks, task)) return [];
  return [
    {
      kind: 'task-failed',
      lesson: null,
      at: task.started_at,
      text: flat(`phase ${task.phase}: task ${task.id} (${task.role}) failed${task.note ? `: ${task.note}` : ''}`),
    },
  ];
}

/** Everything a person should look at now: most pressing kinds first, then by time and lesson. */
export function needsHuman(
  tracks: readonly LessonTrack[],
  events: readonly Event[],
  tasks: readonly FoldedTask[],
): ReportNeedsHuman[] {
  const lastAt = events.at(-1)?.ts ?? '';
  const items = [
    ...tracks.flatMap((track) => lessonItems(track, lastAt, tasks)),
    ...tasks.filter((task) => task.phase !== null).flatMap((task) => phaseTaskItems(task, lastAt, tasks)),
  ];
  const rank = (item: ReportNeedsHuman) => NEEDS_HUMAN_KINDS.indexOf(item.kind);
  return items.sort(
    (a, b) => rank(a) - rank(b) || a.at.localeCompare(b.at) || (a.lesson ?? '').localeCompare(b.lesson ?? ''),
  );
}

/** What people resolved, oldest first: unblocks with their notes, decisions logged as the user's, reopens. */
export function decisions(tracks: readonly LessonTrack[], events: readonly Event[]): ReportDecision[] {
  const items: ReportDecision[] = [];
  // `by` has its own field: the "(by user)" decisionOf() adds for the story is left out here.
  const decision = (kind: ReportDecision['kind'], lesson: string | null, at: string, by: string, text: string) =>
    items.push({ kind, lesson, at, by, text: flat(text).replace(/ \(by [^()]*\)$/, '') });
  for (const track of tracks) {
    const id = track.lesson.id;
    for (const reopen of track.reopens)
      decision(
        'reopened',
        id,
        reopen.at,
        'user',
        `${id} reopened the course at ${reopen.from_phase} (moved back ${reopen.from} → ${reopen.to}): ${reopen.note ?? '(no note)'}`,
      );
    for (const block of track.blocks) {
      if (block.unblocked_at === null) continue;
      const why = block.by === 'fix-budget' ? 'its fix budget was used up' : `blocked for the user: ${block.reason}`;
      decision(
        'unblocked',
        id,
        block.unblocked_at,
        'user',
        `${id} unblocked (${why}): ${block.decision ?? 'no decision recorded'}`,
      );
    }
  }
  for (const event of events) {
    if (event.kind !== 'log') continue;
    const text = decisionOf(event);
    if (text === null) continue;
    const by = typeof event.data.by === 'string' ? event.data.by : 'user';
    decision('decision', event.lesson, event.ts, by, `${event.lesson ?? 'course'}: ${text}`);
  }
  return items.sort((a, b) => a.at.localeCompare(b.at) || (a.lesson ?? '').localeCompare(b.lesson ?? ''));
}

export function isSmooth(track: LessonTrack): boolean {
  const troubledTask = track.tasks.some(
    (task) => task.status === 'failed' || task.status === 'reset' || task.worker_status === 'needs-user',
  );
  // Only a finished lesson went smoothly: one still under way has its story told.
  const finished = track.stage === 'done' && !track.stale;
  return (
    finished &&
    track.failures.length === 0 &&
    track.blocks.length === 0 &&
    track.reworks === 0 &&
    track.stale_marks.length === 0 &&
    track.drifts === 0 &&
    !troubledTask
  );
}

/** The lesson in one line: where it is, how verification went, what it took. */
export function lessonSummary(track: LessonTrack, wallMs: number): string {
  const v = track.verdicts;
  const where =
    track.stage === 'done'
      ? `done in ${formatDuration(wallMs)}`
      : track.started_at === null
        ? 'not started'
        : `at ${track.stage} after ${formatDuration(wallMs)}`;
  const verified =
    v.passed === 0
      ? 'not verified yet'
      : v.runs === v.passed
        ? `verified first time${track.tests ? ` (${testsText(track.tests)})` : ''}`
        : `verified after ${plural(v.runs - v.passed, 'failed run')}${track.tests ? ` (${testsText(track.tests)})` : ''}`;
  const trouble = [
    track.fix_attempts > 0 ? plural(track.fix_attempts, 'fix attempt') : '',
    track.review_rounds > 0 ? plural(track.review_rounds, 'review round') : '',
    track.other_reworks > 0 ? plural(track.other_reworks, 'other rework') : '',
    track.blocks.length > 0 ? `blocked ${track.blocks.length === 1 ? 'once' : `${track.blocks.length} times`}` : '',
    track.stale_marks.length > 0 ? 'marked stale' : '',
    track.drifts > 0 ? 'code drifted' : '',
    track.reopens.length > 0 ? 'reopened the course' : '',
  ].filter(Boolean);
  return flat(
    `${track.lesson.id} ${track.lesson.title}: ` +
      `${[where, verified, ...trouble, plural(track.tasks.length, 'task')].join(', ')}` +
      `${track.blocked ? ' (blocked now)' : ''}${track.stale ? ' (stale now)' : ''}`,
  );
}
