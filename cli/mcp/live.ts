// Resources that follow the log: a client subscribed to codelabgen://state or codelabgen://next (or
// a lesson's resource) is told `notifications/resources/updated` when any writer, an MCP call or the
// CLI, commits an event; registering lessons also sends `notifications/resources/list_changed`. One
// tail of .codelabgen/events.jsonl per course: the file is only ever appended to, so the tail reads
// the bytes after the offset it reached (a whole line at a time), never the whole log again.
import { closeSync, openSync, readSync, statSync, unwatchFile, watchFile } from 'node:fs';
import path from 'node:path';

/** How often the tail looks at the log's size (ms). */
const POLL_MS = 200;

export interface LogTail {
  /** Stops following the log. */
  stop(): void;
}

/** What one appended event says, as far as resources care. */
export interface LogEvent {
  kind: string;
  lesson?: string;
  lessons?: string[];
}

/**
 * Follows `<course>/.codelabgen/events.jsonl` from its current end, calling `onEvents` with the
 * events of each batch of whole lines appended since.
 */
export function tailEvents(course: string, onEvents: (events: LogEvent[]) => void): LogTail {
  const file = path.join(course, '.codelabgen', 'events.jsonl');
  const sizeOf = (): number => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  let offset = sizeOf();
  let partial = '';
  const read = () => {
    const size = sizeOf();
    if (size < offset) {
      // Rewritten (state rebuild moved a torn line aside): follow from its new end.
      offset = size;
      partial = '';
      return;
    }
    if (size === offset) return;
    const buffer = Buffer.alloc(size - offset);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, offset);
    } finally {
      closeSync(fd);
    }
    offset = size;
    const text = partial + buffer.toString('utf8');
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    const events: LogEvent[] = [];
    for (const line of lines) {
      try {
        const event = JSON.parse(line) as LogEvent;
        if (typeof event.kind === 'string') events.push(event);
      } catch {
        // a torn line: the store repairs it; nothing to announce
      }
    }
    if (events.length > 0) onEvents(events);
  };
  watchFile(file, { interval: POLL_MS, persistent: false }, read);
  return { stop: () => unwatchFile(file, read) };
}

/** The resources an event changes: state and next always, a lesson's own when it names one. */
export function changedResources(events: readonly LogEvent[]): Set<string> {
  const uris = new Set(['codelabgen://state', 'codelabgen://next']);
  for (const event of events) {
    if (typeof event.lesson === 'string') uris.add(`codelabgen://lesson/${event.lesson}`);
    if (event.kind === 'site.build' || event.kind === 'log' || event.kind.startsWith('lesson.')) uris.add('codelabgen://report');
  }
  return uris;
}
