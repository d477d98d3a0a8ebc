// Names no other process picks, for temp files and lock ownership tokens: 64 bits from the system's
// random source, read once per process, then a counter. Read from /dev/urandom rather than through
// node:crypto, whose load (with the stream modules it pulls in) costs a state command a few ms.
import { closeSync, openSync, readSync } from 'node:fs';

let prefix: string | undefined;
let counter = 0;

/** Lowercase hex, at least 17 characters; unique across processes (random) and within one (counter). */
export function uniqueHex(): string {
  prefix ??= randomHex(8);
  counter += 1;
  return `${prefix}${counter.toString(16)}`;
}

function randomHex(size: number): string {
  const bytes = Buffer.alloc(size);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, bytes, 0, size, null) === size) return bytes.toString('hex');
    } finally {
      closeSync(fd);
    }
  } catch {
    // no /dev/urandom (Windows): the same random source through node:crypto
  }
  return process.getBuiltinModule('node:crypto').randomBytes(size).toString('hex');
}
