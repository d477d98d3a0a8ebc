// events.jsonl: append one complete line with fsync (undone on failure), and scan the log for
// replay and checks (streamed: a log of any size, docs/reliability.md): gapless seq, a torn last line
// told apart from a corrupt line and from an event written by a newer codelabgen; and the cheap read
// of the last line's seq.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, type Stats, writeSync } from 'node:fs';
import type { Event } from '../../content-schemas/index.ts';
import { EventParser, issuesToProblems, zodSchemas } from '../../content-schemas/fast.ts';
import { ARTIFACTS, printable } from '../course/course.ts';
import { RefusalError, errorCode } from '../course/errors.ts';
import { unreadableStoreFile } from './state-file.ts';
import { faultArmed, faultPoint } from './fault.ts';
import { bytesReader, fileReader, type LogLine, logLines, MAX_EVENT_LINE_BYTES, openLog } from './log-lines.ts';

export interface LogScan {
  /** Events with seq > `after`, parsed and validated. */
  events: Event[];
  /** Byte offset after each returned event's line. */
  offsets: number[];
  lastSeq: number;
  /** Bytes up to the end of the last complete, parseable line. */
  goodBytes: number;
  /** Where a torn last line (no newline, or not valid JSON at the very end) starts and its length, if any. */
  torn: { offset: number; length: number } | null;
  /** First corrupt line: a bad line followed by more lines, a seq gap, or a complete line that is not an event. */
  corrupt: { line: number; problem: string } | null;
  /** First complete event written by a newer codelabgen (unknown kind or newer schema_version). */
  newer: { line: number; seq: number; problem: string } | null;
}

/** Events carry no schema_version yet; one that does (above 1) was written by a newer codelabgen. */
const EVENT_SCHEMA_VERSION = 1;
let knownKinds: Set<unknown> | undefined;

/** Event kinds this version knows: asked only after an event failed the fast check (zod is loaded by then). */
function isKnownKind(kind: string): boolean {
  knownKinds ??= new Set<unknown>(zodSchemas().EventSchema.options.map((option) => option.shape.kind.value));
  return knownKinds.has(kind);
}

export function scanLog(file: string, after = 0): LogScan {
  let fd: number;
  try {
    fd = openLog(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return scanLines([], 0, after);
    throw unreadableStoreFile(ARTIFACTS.events, error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(stats);
    return scanLines(logLines(fileReader(fd), stats.size), stats.size, after);
  } catch (error) {
    if (error instanceof RefusalError) throw error;
    throw unreadableStoreFile(ARTIFACTS.events, error);
  } finally {
    closeSync(fd);
  }
}

export function scanLogBytes(data: Buffer, after = 0): LogScan {
  return scanLines(logLines(bytesReader(data), data.length), data.length, after);
}

function scanLines(lines: Iterable<LogLine>, size: number, after: number): LogScan {
  const scan: LogScan = { events: [], offsets: [], lastSeq: 0, goodBytes: 0, torn: null, corrupt: null, newer: null };
  let lineNumber = 0;
  for (const line of lines) {
    lineNumber += 1;
    const parsed = !line.newline
      ? null
      : line.bytes === null
        ? { problem: `a line of ${line.end - line.start} bytes, longer than any event`, json: false }
        : parseLine(line.bytes, scan.lastSeq, after);
    if (parsed !== null && 'newer' in parsed) {
      scan.newer = { line: lineNumber, seq: parsed.seq, problem: parsed.newer };
      return scan;
    }
    if (parsed === null || 'problem' in parsed) {
      // Only an interrupted write can tear the last line: it lacks its newline or is cut mid-JSON.
      // A complete line of valid JSON that is not a valid next event is corruption, never cut.
      if (line.end >= size && (parsed === null || !parsed.json)) {
        scan.torn = { offset: line.start, length: size - line.start };
        return scan;
      }
      scan.corrupt = { line: lineNumber, problem: parsed?.problem ?? 'line has no newline' };
      return scan;
    }
    scan.lastSeq = parsed.seq;
    scan.goodBytes = line.end;
    if (parsed.event !== null) {
      scan.events.push(parsed.event);
      scan.offsets.push(line.end);
    }
  }
  return scan;
}

type ParsedLine =
  | { seq: number; event: Event | null }
  | { seq: number; newer: string }
  | { problem: string; json: boolean };

function parseLine(bytes: Buffer, lastSeq: number, after: number): ParsedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { problem: `not valid JSON (${(error as Error).message})`, json: false };
  }
  const fields =
    typeof raw === 'object' && raw !== null ? (raw as { seq?: unknown; kind?: unknown; schema_version?: unknown }) : {};
  if (typeof fields.seq !== 'number') return { problem: 'no seq', json: true };
  const seq = fields.seq;
  if (seq !== lastSeq + 1) return { problem: `seq ${seq} follows seq ${lastSeq} (a gap or a duplicate)`, json: true };
  if (seq <= after) return { seq, event: null };
  const result = EventParser.safeParse(raw);
  if (result.success) return { seq, event: result.data };
  const newer = newerEvent(fields);
  if (newer !== null) return { seq, newer };
  return { problem: `invalid event: ${issuesToProblems(result.error.issues).join('; ')}`, json: true };
}

/** Why an event that fails the schema was written by a newer codelabgen, or null when it was not. */
function newerEvent(fields: { kind?: unknown; schema_version?: unknown }): string | null {
  const version = fields.schema_version;
  if (typeof version === 'number' && version > EVENT_SCHEMA_VERSION)
    return `event schema_version ${version}, newer than the ${EVENT_SCHEMA_VERSION} this codelabgen reads`;
  if (typeof fields.kind === 'string' && !isKnownKind(fields.kind)) {
    return `event kind ${JSON.stringify(printable(fields.kind, 60))}, unknown to this codelabgen (event schema_version ${EVENT_SCHEMA_VERSION})`;
  }
  return null;
}

/**
 * The seq of the log's last line, read from its end (cheap: one small read for a normal event);
 * 0 for an empty log, null when the log does not end with a complete line that has a seq.
 */
export function lastLineSeq(file: string, size: number): number | null {
  if (size === 0) return 0;
  let chunkBytes = 8192; // doubled per read, so a long last line costs few reads
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    let tail = Buffer.alloc(0);
    for (let position = size; position > 0; ) {
      const length = Math.min(chunkBytes, position);
      chunkBytes *= 2;
      position -= length;
      const chunk = Buffer.alloc(length);
      readSync(fd, chunk, 0, length, position);
      tail = Buffer.concat([chunk, tail]);
      const newline = tail.length >= 2 ? tail.lastIndexOf(0x0a, tail.length - 2) : -1;
      if (newline !== -1) {
        tail = tail.subarray(newline + 1);
        break;
      }
      if (tail.length > MAX_EVENT_LINE_BYTES) return null; // no event is that long: the full scan says what it is
    }
    if (tail.at(-1) !== 0x0a) return null;
    const seq = (JSON.parse(tail.toString('utf8')) as { seq?: unknown } | null)?.seq;
    return typeof seq === 'number' ? seq : null;
  } catch {
    return null; // unreadable or not JSON: the caller's full scan says what is wrong
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Appends one event line at `expectedSize` and fsyncs it. On failure the log is cut back to
 * `expectedSize` so no partial event remains, and the error is rethrown.
 */
export function appendEvent(file: string, line: string, expectedSize: number): void {
  const bytes = Buffer.from(line, 'utf8');
  const fd = openSync(file, 'a', 0o644);
  try {
    if (fstatSync(fd).size !== expectedSize)
      throw new Error(`events.jsonl is ${fstatSync(fd).size} bytes, expected ${expectedSize}`);
    try {
      faultPoint('event-write');
      if (faultArmed('mid-event')) {
        writeSync(fd, bytes, 0, Math.floor(bytes.length / 2));
        faultPoint('mid-event');
      }
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      faultPoint('event-fsync');
      fsyncSync(fd);
    } catch (error) {
      ftruncateSync(fd, expectedSize);
      fsyncSync(fd);
      throw error;
    }
    faultPoint('after-event-fsync');
  } finally {
    closeSync(fd);
  }
}

/** Makes the log's bytes durable: recovery applies events a killed writer may not have fsynced. */
export function syncLog(file: string): void {
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Cuts the log back to `size` bytes (undoing an append whose state write failed). */
export function truncateLog(file: string, size: number): void {
  const fd = openSync(file, 'r+');
  try {
    ftruncateSync(fd, size);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A store file that is not a regular file (a FIFO, device or socket): refused before any read. */
function notRegular(stats: Stats): RefusalError {
  const what = stats.isDirectory() ? 'is a folder, not a file' : 'is not a regular file (a pipe, device or socket)';
  return new RefusalError(`${ARTIFACTS.events} ${what}; nothing was changed`, [
    'move it away, then run "codelabgen state rebuild" (or restore the file from a backup)',
  ]);
}
