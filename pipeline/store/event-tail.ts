// The tail of events.jsonl for live views (site dev's /progress/ board, `state watch`, MCP resource
// updates): reads only the bytes added since the last read, by byte offset. A torn last line waits
// for its newline; a log cut shorter, replaced (another inode) or rewritten (a seq that does not
// follow) is read again from the start, and the reader is told (`reset`). Read-only.
import { closeSync, fstatSync, openSync, unwatchFile, watch, watchFile, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Event } from '../../content-schemas/index.ts';
import { errorCode } from '../course/errors.ts';
import { fileReader, logLines } from './log-lines.ts';

export interface TailBatch {
  /** Events appended since the last read, in log order (all of them after a reset). */
  events: Event[];
  /** True when the log was truncated, replaced or rebuilt: drop what was read before. */
  reset: boolean;
}

export interface EventTail {
  /** Reads what was appended since the last call. */
  read(): TailBatch;
  /** Byte offset just after the last complete line read. */
  readonly offset: number;
  readonly lastSeq: number;
}

/** A line that is JSON with a numeric seq and a string kind; the views tell unknown kinds generically. */
function parseEventLine(text: string): Event | null {
  try {
    const raw = JSON.parse(text) as { seq?: unknown; kind?: unknown; ts?: unknown } | null;
    return raw !== null && typeof raw.seq === 'number' && typeof raw.kind === 'string' && typeof raw.ts === 'string'
      ? (raw as Event)
      : null;
  } catch {
    return null; // a complete line that is not JSON is corruption: the store's commands report it
  }
}

/** Opens a tail of `file` (which may not exist yet); the first read() returns the whole log. */
export function openEventTail(file: string): EventTail {
  let offset = 0;
  let lastSeq = 0;
  let inode: number | null = null;
  let seenAs = '';
  const read = (): TailBatch => {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      const reset = offset > 0;
      offset = 0;
      lastSeq = 0;
      inode = null;
      seenAs = '';
      return { events: [], reset };
    }
    try {
      const stats = fstatSync(fd);
      let reset = false;
      if ((inode !== null && stats.ino !== inode) || stats.size < offset) {
        reset = true;
        offset = 0;
        lastSeq = 0;
      }
      inode = stats.ino;
      // Unchanged since the last read: nothing to do (a long torn tail is not scanned again each time).
      const seen = `${stats.size}:${stats.mtimeMs}`;
      if (seen === seenAs && !reset) return { events: [], reset };
      seenAs = seen;
      const events = readFrom(fd, offset, stats.size);
      const first = events.events[0];
      if (first !== undefined && lastSeq > 0 && first.seq !== lastSeq + 1) {
        // Same inode and longer, but rewritten in place: read it all again.
        offset = 0;
        lastSeq = 0;
        const again = readFrom(fd, 0, stats.size);
        offset = again.end;
        lastSeq = again.events.at(-1)?.seq ?? 0;
        return { events: again.events, reset: true };
      }
      offset = events.end;
      lastSeq = events.events.at(-1)?.seq ?? lastSeq;
      return { events: events.events, reset };
    } finally {
      closeSync(fd);
    }
  };
  return {
    read,
    get offset() {
      return offset;
    },
    get lastSeq() {
      return lastSeq;
    },
  };
}

/** The complete lines between `start` and `size`, streamed; `end` is after the last newline (a torn line stays unread). */
function readFrom(fd: number, start: number, size: number): { events: Event[]; end: number } {
  const events: Event[] = [];
  let end = start;
  for (const line of logLines(fileReader(fd), size, start)) {
    if (!line.newline) break;
    end = line.end;
    const event = line.bytes === null || line.bytes.length === 0 ? null : parseEventLine(line.bytes.toString('utf8'));
    if (event !== null) events.push(event);
  }
  return { events, end };
}

export interface TailWatch {
  close(): void;
}

/**
 * Calls `onBatch` with each change of the log: at once with the whole log, then after every append.
 * Watches the log's folder (a rebuild may replace the file) and also checks its size every
 * `pollMs`, for folders shared over a network filesystem that sends no change events.
 */
export function watchEventTail(
  file: string,
  onBatch: (batch: TailBatch) => void,
  { pollMs = 500 }: { pollMs?: number } = {},
): TailWatch {
  const tail = openEventTail(file);
  let closed = false;
  const check = () => {
    if (closed) return;
    const batch = tail.read();
    if (batch.events.length > 0 || batch.reset) onBatch(batch);
  };
  check();
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(path.dirname(file), (_type, name) => {
      if (name === null || name === path.basename(file)) check();
    });
    watcher.on('error', () => {}); // the folder went away: the poll below still runs
  } catch {
    watcher = undefined; // no folder yet or no watch support: the poll covers it
  }
  const poll = () => check();
  watchFile(file, { interval: pollMs, persistent: false }, poll);
  return {
    close() {
      closed = true;
      watcher?.close();
      unwatchFile(file, poll);
    },
  };
}
