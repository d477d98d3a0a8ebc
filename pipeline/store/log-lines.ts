// The lines of events.jsonl, read in chunks of 1 MiB so a log of any size (over 2 GiB too) streams
// through the same scan, in bounded memory: a line longer than any event codelabgen writes is not
// kept (its bytes are null), only where it starts and ends. Used by the log scan and the live tail.
import { constants, openSync, readSync } from 'node:fs';

const CHUNK_BYTES = 1 << 20;
/** Longer than any event line codelabgen writes (a 100,000-character note, a register of 10,000 lessons). */
export const MAX_EVENT_LINE_BYTES = 64 << 20;

export interface LogLine {
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset after the line (after its newline, if it has one). */
  end: number;
  /** The line's bytes without its newline; null when longer than MAX_EVENT_LINE_BYTES. */
  bytes: Buffer | null;
  /** False for the last line when the log does not end with a newline. */
  newline: boolean;
}

/** Reads `length` bytes at `position` into `buffer`; returns how many it read (0: end). */
export type ReadAt = (buffer: Buffer, length: number, position: number) => number;

/** The lines between byte `from` and `size`, in order. */
export function* logLines(readAt: ReadAt, size: number, from = 0): Generator<LogLine> {
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, size - from)));
  let parts: Buffer[] = [];
  let partBytes = 0;
  let start = from;
  for (let position = from; position < size; ) {
    const got = readAt(chunk, Math.min(chunk.length, size - position), position);
    if (got === 0) break;
    const data = chunk.subarray(0, got);
    let at = 0;
    for (let newline = data.indexOf(0x0a, at); newline !== -1; newline = data.indexOf(0x0a, at)) {
      const end = position + newline + 1;
      yield { start, end, bytes: joined(parts, partBytes, data.subarray(at, newline)), newline: true };
      parts = [];
      partBytes = 0;
      start = end;
      at = newline + 1;
    }
    const rest = data.subarray(at);
    partBytes += rest.length;
    parts = partBytes > MAX_EVENT_LINE_BYTES ? [] : [...parts, Buffer.from(rest)];
    position += got;
  }
  if (partBytes > 0)
    yield { start, end: start + partBytes, bytes: joined(parts, partBytes, Buffer.alloc(0)), newline: false };
}

function joined(parts: Buffer[], partBytes: number, last: Buffer): Buffer | null {
  if (partBytes + last.length > MAX_EVENT_LINE_BYTES) return null;
  return parts.length === 0 ? Buffer.from(last) : Buffer.concat([...parts, last]);
}

/** A ReadAt over an open file. */
export function fileReader(fd: number): ReadAt {
  return (buffer, length, position) => readSync(fd, buffer, 0, length, position);
}

/** A ReadAt over bytes in memory (tests, small inputs). */
export function bytesReader(data: Buffer): ReadAt {
  return (buffer, length, position) => data.copy(buffer, 0, position, Math.min(data.length, position + length));
}

/** Opens the log for reading without blocking (a FIFO in its place is refused by the caller's fstat). */
export function openLog(file: string): number {
  return openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
}
