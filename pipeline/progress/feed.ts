// The live board's event feed: the last events of the log, one line each, in the report's own
// words (pipeline/report/story.ts folds them, each lesson and task starting from what state.json
// says of it). Pure; the board (pipeline/progress/board.ts) shows the lines.
import type { Event, LessonState, State, Task } from '../../content-schemas/index.ts';
import { foldEvent, genericText, newTrack, type Folded } from '../report/story.ts';
import { startTask, taskText } from '../report/tasks.ts';

export interface FeedLine {
  seq: number;
  at: string;
  /** The lesson the event is about, or null. */
  lesson: string | null;
  /** The story label (`stage`, `failure`, `block`, `task`, ...), or the event kind for course events. */
  label: string;
  text: string;
}

const registered = (lesson: LessonState) => ({
  id: lesson.id,
  title: lesson.title,
  slug: lesson.slug,
  module_id: lesson.module_id,
  module_slug: lesson.module_slug,
  module_title: lesson.module_title,
  dir: lesson.dir,
});

/** Review rounds each lesson used inside `events` (the fold counts them again). */
function roundsUsedIn(events: readonly Event[]): Map<string, number> {
  const used = new Map<string, number>();
  for (const event of events)
    if (event.kind === 'lesson.stage' && event.review_round_used)
      used.set(event.lesson, (used.get(event.lesson) ?? 0) + 1);
  return used;
}

/** A fold seeded with the lessons and tasks of `state`, so a slice of the log reads as in the report. */
function seededFold(state: State, events: readonly Event[]): Folded {
  const folded: Folded = { lessons: new Map(), tasks: new Map(), course_story: [] };
  const used = roundsUsedIn(events);
  for (const lesson of Object.values(state.lessons)) {
    const track = newTrack(registered(lesson), lesson.updated_at);
    track.review_rounds = Math.max(0, lesson.review_rounds_used - (used.get(lesson.id) ?? 0));
    folded.lessons.set(lesson.id, track);
  }
  const first = events[0]?.seq ?? Number.POSITIVE_INFINITY;
  for (const task of Object.values(state.tasks)) {
    // A task started inside the slice is folded from its own task.start event.
    if (!events.some((event) => event.kind === 'task.start' && event.task === task.id && event.seq >= first))
      folded.tasks.set(task.id, seedTask(task));
  }
  return folded;
}

function seedTask(task: Task) {
  const start = {
    seq: 0,
    ts: task.started_at,
    kind: 'task.start',
    task: task.id,
    lesson: task.lesson,
    role: task.role,
    ...(task.phase ? { phase: task.phase } : {}),
  } as Extract<Event, { kind: 'task.start' }>;
  return startTask(start, { seq: 0, at: task.started_at, kind: 'task.start', label: 'task', text: '', details: [] });
}

/** What the report tells of no lesson (phase moves, registrations, builds): one line each here. */
function courseText(event: Event): string {
  switch (event.kind) {
    case 'course.init':
      return `course created: ${event.title}`;
    case 'phase.advance':
      return `phase ${event.from} → ${event.to}${event.approved ? ' (approved)' : ''}`;
    case 'lessons.register':
      return (
        `registered ${event.lessons.length} lesson${event.lessons.length === 1 ? '' : 's'}` +
        `${event.removed.length > 0 ? `, removed ${event.removed.join(', ')}` : ''}`
      );
    case 'site.build':
      return `site built: ${event.pages} pages, ${event.lessons.length} lessons`;
    case 'log':
      return `fact ${event.fact}: ${Object.entries(event.data)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`;
    default:
      return genericText(event);
  }
}

/** One line per event of `events` (oldest first), worded as the report's stories. */
export function tellRecent(state: State, events: readonly Event[]): FeedLine[] {
  const folded = seededFold(state, events);
  const lines: FeedLine[] = [];
  for (const event of events) {
    foldEvent(folded, event);
    const lesson = 'lesson' in event && typeof event.lesson === 'string' ? event.lesson : null;
    if (
      event.kind === 'task.start' ||
      event.kind === 'task.heartbeat' ||
      event.kind === 'task.finish' ||
      event.kind === 'task.reset'
    ) {
      const task = folded.tasks.get(event.task);
      lines.push({
        seq: event.seq,
        at: event.ts,
        lesson: task?.lesson ?? null,
        label: 'task',
        text: task ? taskText(task, event.ts) : genericText(event),
      });
      continue;
    }
    const story = lesson !== null ? folded.lessons.get(lesson)?.story : folded.course_story;
    const told = (story ?? []).filter((entry) => entry.seq === event.seq);
    lines.push({
      seq: event.seq,
      at: event.ts,
      lesson,
      label: told[0]?.label ?? event.kind,
      text: told.length > 0 ? told.map((entry) => entry.text).join('; ') : courseText(event),
    });
  }
  return lines;
}
