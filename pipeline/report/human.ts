// "What needs a human" and the one-line lesson summaries of the report: drawn from the folded
// lesson histories (report-story.ts) and the course-wide decisions. Pure.
import type { Event, ReportNeedsHuman, ReportTask } from '../../content-schemas/index.ts';
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

/** Findings in one line: `a; b; c`, without the `.;` of sentences joined as they are. */
function joinFindings(texts: readonly string[]): string {
  return texts.map((text) => text.trim().replace(/[.;]+$/, '')).join('; ');
}

function lessonItems(track: LessonTrack, lastAt: string): ReportNeedsHuman[] {
  const id = track.lesson.id;
  const item = (kind: ReportNeedsHuman['kind'], at: string, text: string): ReportNeedsHuman => ({
    kind,
    lesson: id,
    at,
    text: flat(text),
  });
  const items: ReportNeedsHuman[] = [];
  for (const reopen of track.reopens) {
    items.push(
      item(
        'reopened',
        reopen.at,
        `${id} reopened the course at ${reopen.from_phase} (moved back ${reopen.from} → ${reopen.to}, the course back to lessons): ${reopen.note ?? '(no note)'}`,
      ),
    );
  }
  for (const block of track.blocks) {
    const why = block.by === 'fix-budget' ? 'its fix budget was used up' : `blocked for the user: ${block.reason}`;
    if (block.unblocked_at === null)
      items.push(item('blocked', block.at, `${id} is blocked at ${track.stage}: ${why}`));
    else
      items.push(
        item(
          'was-blocked',
          block.unblocked_at,
          `${id} was blocked (${why}); unblocked ${block.decision ? `with the decision: ${block.decision}` : 'with no decision recorded'}`,
        ),
      );
  }
  for (const failure of track.failures.filter((f) => f.blocked))
    items.push(item('budget-used-up', failure.at, `${id} used its whole fix budget; last failure: ${failure.note}`));
  for (const entry of track.story.filter((e) => e.label === 'decision'))
    items.push(item('user-decision', entry.at, `${id}: ${entry.text}`));
  const passed = track.story.filter((e) => e.label === 'review' && track.review_rounds > 0).at(-1);
  if (passed)
    items.push(
      item(
        'passed-after-rework',
        passed.at,
        `${id} passed review only after ${plural(track.review_rounds, 'review round')}: ${
          joinFindings(
            track.reviews
              .filter((r) => r.verdict === 'revise')
              .flatMap((r) => r.findings.map((f) => f.text))
              .slice(0, 3),
          ) || 'see its story'
        }`,
      ),
    );
  // Only what is still open: a drift verified again, or a stale mark a move back cleared, needs no one.
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
    if (task.status === 'failed')
      items.push(
        item(
          'task-failed',
          task.started_at,
          `${id}: task ${task.id} (${task.role}) failed${task.note ? `: ${task.note}` : ''}`,
        ),
      );
    if (wasInterrupted(task, lastAt))
      items.push(item('task-interrupted', task.lease_until ?? task.started_at, `${id}: ${interruptedText(task)}`));
    if (task.worker_status === 'needs-user')
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

function phaseTaskItems(task: ReportTask, lastAt: string): ReportNeedsHuman[] {
  if (wasInterrupted(task, lastAt))
    return [
      {
        kind: 'task-interrupted',
        lesson: null,
        at: task.lease_until ?? task.started_at,
        text: flat(`phase ${task.phase}: ${interruptedText(task)}`),
      },
    ];
  if (task.status !== 'failed') return [];
  return [
    {
      kind: 'task-failed',
      lesson: null,
      at: task.started_at,
      text: flat(`phase ${task.phase}: task ${task.id} (${task.role}) failed${task.note ? `: ${task.note}` : ''}`),
    },
  ];
}

/** Everything a person should look at: most pressing kinds first, then by time and lesson. */
export function needsHuman(
  tracks: readonly LessonTrack[],
  events: readonly Event[],
  phaseTasks: readonly ReportTask[],
): ReportNeedsHuman[] {
  const lastAt = events.at(-1)?.ts ?? '';
  const items = [
    ...tracks.flatMap((track) => lessonItems(track, lastAt)),
    ...phaseTasks.flatMap((task) => phaseTaskItems(task, lastAt)),
  ];
  for (const event of events) {
    if (event.kind !== 'log' || event.lesson !== null) continue;
    const decision = decisionOf(event);
    if (decision !== null)
      items.push({ kind: 'user-decision', lesson: null, at: event.ts, text: flat(`course: decision: ${decision}`) });
  }
  const rank = (item: ReportNeedsHuman) => NEEDS_HUMAN_KINDS.indexOf(item.kind);
  return items.sort(
    (a, b) => rank(a) - rank(b) || a.at.localeCompare(b.at) || (a.lesson ?? '').localeCompare(b.lesson ?? ''),
  );
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
    `${track.lesson.id} ${track.lesson.title}: ${[where, verified, ...trouble, plural(track.tasks.length, 'task')].join(', ')}${track.blocked ? ' (blocked now)' : ''}${track.stale ? ' (stale now)' : ''}`,
  );
}
