// Resources that follow the log: a client subscribed to codelabgen://state or codelabgen://next (or
// a lesson's resource) is told `notifications/resources/updated` when any writer, an MCP call or the
// CLI, commits an event; registering lessons also sends `notifications/resources/list_changed`. One
// tail of .codelabgen/events.jsonl per course reads the bytes after the offset it reached, never the
// whole log again.
import path from 'node:path';
import { watchEventTail } from '../../pipeline/state-commands.ts';

/** How often the tail looks at the log's size besides the folder watch (ms). */
const POLL_MS = 200;

export interface LogTail {
  /** Stops following the log. */
  stop(): void;
}

/** What one appended event says, as far as resources care. */
export interface LogEvent {
  kind: string;
  lesson?: string | null;
}

/**
 * Follows `<course>/.codelabgen/events.jsonl` from its current end, calling `onEvents` with the
 * events of each batch of whole lines appended since: the pipeline's one tail of the log
 * (pipeline/store/event-tail.ts, also behind /progress/ and `state watch`), woken by a watch of the
 * folder and a poll. A rebuilt log (state rebuild) is announced whole.
 */
export function tailEvents(course: string, onEvents: (events: LogEvent[]) => void): LogTail {
  let primed = false; // the first batch is the log as it stands: nothing new to announce
  const watch = watchEventTail(
    path.join(course, '.codelabgen', 'events.jsonl'),
    (batch) => {
      if (primed && batch.events.length > 0) onEvents(batch.events);
    },
    { pollMs: POLL_MS },
  );
  primed = true;
  return { stop: () => watch.close() };
}

/** The resources an event changes: state and next always, a lesson's own when it names one. */
export function changedResources(events: readonly LogEvent[]): Set<string> {
  const uris = new Set(['codelabgen://state', 'codelabgen://next']);
  for (const event of events) {
    if (typeof event.lesson === 'string') uris.add(`codelabgen://lesson/${event.lesson}`);
    if (event.kind === 'site.build' || event.kind === 'log' || event.kind.startsWith('lesson.'))
      uris.add('codelabgen://report');
  }
  return uris;
}
