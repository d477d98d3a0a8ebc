// `lock.break`: the guard under which a stale lock is removed, so that two breakers cannot both
// remove it. Taken like the lock (a complete temp file linked into place); a guard left behind
// (breaker gone, empty, unreadable or old) is removed only if it is still the file judged stale.
import { linkSync, lstatSync, unlinkSync } from 'node:fs';
import { errorCode } from '../course/errors.ts';
import { safeUnlink } from './atomic-write.ts';
import { pendingTemps, readLockFile, writeCompleteFile, writeRefusal } from './lock-files.ts';
import { currentProcess, processGone } from './process-identity.ts';
import { uniqueHex } from './unique-name.ts';

const GUARD_STALE_MS = 10_000; // a break takes microseconds; a guard this old was left behind

/** Runs `fn` holding `<lock>.break`; returns false (fn not run) when another live breaker holds it. */
export function withBreakGuard(lockFile: string, fn: () => void): boolean {
  const guard = `${lockFile}.break`;
  if (!takeGuard(guard)) return false;
  try {
    fn();
  } finally {
    safeUnlink(guard);
  }
  return true;
}

function takeGuard(guard: string): boolean {
  const temp = `${guard}.${process.pid}.${uniqueHex()}.tmp`;
  pendingTemps.add(temp);
  try {
    writeCompleteFile(temp, `${JSON.stringify(currentProcess())}\n`, 'guard-write');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(temp, guard);
        return true;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw writeRefusal(error, guard);
      }
      if (!removeStaleGuard(guard)) return false;
    }
    return false;
  } finally {
    pendingTemps.delete(temp);
    safeUnlink(temp);
  }
}

/** Removes a guard left behind; false when it is live (or was replaced while we looked). */
function removeStaleGuard(guard: string): boolean {
  const read = readLockFile(guard); // a FIFO, link or device in its place is refused, never read
  if (read === null) return true; // just released: retry at once
  const { text, stats: seen } = read;
  const old = Date.now() - seen.mtimeMs > GUARD_STALE_MS;
  if (!old && !guardBreakerGone(text)) return false;
  try {
    const now = lstatSync(guard);
    if (now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs) return false; // replaced meanwhile: not the stale one
    unlinkSync(guard);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw writeRefusal(error, guard);
  }
  return true;
}

/** An empty or unreadable guard was not written by codelabgen (it links complete files): stale. */
function guardBreakerGone(text: string): boolean {
  try {
    const breaker = JSON.parse(text) as { pid?: unknown; host?: unknown; start?: unknown } | null;
    if (
      typeof breaker !== 'object' ||
      breaker === null ||
      typeof breaker.pid !== 'number' ||
      typeof breaker.host !== 'string'
    )
      return true;
    return processGone({
      pid: breaker.pid,
      host: breaker.host,
      start: typeof breaker.start === 'number' ? breaker.start : null,
    });
  } catch {
    return true;
  }
}
