// events.jsonl: append one complete line with fsync (undone on failure), and scan the log for
// replay and checks: gapless seq, a torn last line told apart from a corrupt middle line.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Event } from '../../content-schemas/index.ts';
import { EventParser, issuesToProblems } from '../../content-schemas/fast.ts';
import { errorCode } from '../errors.ts';
import { faultArmed, faultPoint } from './fault.ts';

export interface LogScan {
  /** Events with seq > `after`, parsed and validated. */
  events: Event[];
  /** Byte offset after each returned event's line. */
  offsets: number[];
  lastSeq: number;
  /** Bytes up to the end of the last complete, parseable line. */
  goodBytes: number;
  /** Bytes of a torn last line (no newline, or unparseable at the very end), if any. */
  torn: Buffer | null;
  /** First corrupt line that is followed by more lines, or a seq gap; the log must not be written. */
  corrupt: { line: number; problem: string } | null;
}

export function scanLog(file: string, after = 0): LogScan {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') data = Buffer.alloc(0);
    else throw error;
  }
  return scanLogBytes(data, after);
}

export function scanLogBytes(data: Buffer, after = 0): LogScan {
  const scan: LogScan = { events: [], offsets: [], lastSeq: 0, goodBytes: 0, torn: null, corrupt: null };
  let start = 0;
  let lineNumber = 0;
  while (start < data.length) {
    lineNumber += 1;
    const newline = data.indexOf(0x0a, start);
    const end = newline === -1 ? data.length : newline + 1;
    const parsed = newline === -1 ? null : parseLine(data.subarray(start, newline), lineNumber, scan.lastSeq, after);
    if (parsed === null || typeof parsed === 'string') {
      if (end >= data.length) {
        scan.torn = data.subarray(start); // the last line: torn by a crash mid-write
        return scan;
      }
      scan.corrupt = { line: lineNumber, problem: parsed ?? 'line has no newline' };
      return scan;
    }
    scan.lastSeq = parsed.seq;
    scan.goodBytes = end;
    if (parsed.event !== null) {
      scan.events.push(parsed.event);
      scan.offsets.push(end);
    }
    start = end;
  }
  return scan;
}

function parseLine(bytes: Buffer, line: number, lastSeq: number, after: number): { seq: number; event: Event | null } | string {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  const seq = typeof raw === 'object' && raw !== null ? (raw as { seq?: unknown }).seq : undefined;
  if (typeof seq !== 'number') return 'no seq';
  if (seq !== lastSeq + 1) return `seq ${seq} follows seq ${lastSeq} (a gap or a duplicate)`;
  if (seq <= after) return { seq, event: null };
  const result = EventParser.safeParse(raw);
  if (!result.success) return `invalid event: ${issuesToProblems(result.error.issues).join('; ')}`;
  return { seq, event: result.data };
}

/**
 * Appends one event line at `expectedSize` and fsyncs it. On failure the log is cut back to
 * `expectedSize` so no partial event remains, and the error is rethrown.
 */
export function appendEvent(file: string, line: string, expectedSize: number): void {
  const bytes = Buffer.from(line, 'utf8');
  const fd = openSync(file, 'a', 0o644);
  try {
    if (fstatSync(fd).size !== expectedSize) throw new Error(`events.jsonl is ${fstatSync(fd).size} bytes, expected ${expectedSize}`);
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
