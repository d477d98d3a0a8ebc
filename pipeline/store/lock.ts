// The course lock: `.codelabgen/lock`, created atomically with its owner (pid, host, command, time,
// process start) by linking a fully written temp file. It is broken only when its owner process is
// gone (at once, no blind wait), under a second `lock.break` guard so that two breakers cannot both
// remove it. Every wait sleeps (so signals are answered) and backs off up to a timeout, then
// refuses naming the holder; a release wakes the sleepers (lock-wake.ts).
import { existsSync, linkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { Course } from '../course/course.ts';
import { RefusalError, errorCode } from '../course/errors.ts';
import { safeUnlink } from './atomic-write.ts';
import { faultPoint } from './fault.ts';
import { isoTime } from './iso-time.ts';
import { withBreakGuard } from './lock-guard.ts';
import { lockName, pendingTemps, readLockFile, writeCompleteFile, writeRefusal } from './lock-files.ts';
import { ReleaseWatch } from './lock-wake.ts';
import { currentProcess, processGone, type ProcessIdentity } from './process-identity.ts';
import { uniqueHex } from './unique-name.ts';

export interface LockOwner extends ProcessIdentity {
  command: string;
  acquired_at: string;
  token: string;
}

export interface LockOptions {
  command: string;
  timeoutMs?: number;
  /** Called once when the lock is busy, so the CLI can say it is waiting. */
  onWait?: (owner: LockOwner | null) => void;
  /** What the lock guards, as its refusals name it (default: course). */
  subject?: string;
}

const held = new Map<string, string>(); // lock path → our token

export function lockPath(course: Course): string {
  return path.join(course.dir, 'lock');
}

export function lockTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.CODELABGEN_LOCK_TIMEOUT ?? 30);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 30_000;
}

/** Runs `fn` (synchronous, so no signal handler can run inside it) while holding the course lock. */
export async function withLock<T>(course: Course, options: LockOptions, fn: () => T): Promise<T> {
  const file = lockPath(course);
  const token = await acquire(file, options);
  try {
    faultPoint('after-lock');
    const result = fn();
    faultPoint('before-unlock');
    return result;
  } finally {
    release(file, token);
  }
}

/**
 * Takes lock file `file` (the course lock's protocol: stale locks of gone processes are broken,
 * busy ones waited for up to the timeout) for work that outlasts one synchronous step; returns its
 * release. Signal handlers release it too (releaseHeldLocks).
 */
export async function holdLock(file: string, options: LockOptions): Promise<() => void> {
  const token = await acquire(file, options);
  return () => release(file, token);
}

/** Releases every lock this process holds (and drops its waiting files); signal handlers call it. */
export function releaseHeldLocks(): void {
  for (const [file, token] of held) release(file, token);
  for (const temp of pendingTemps) safeUnlink(temp);
  pendingTemps.clear();
}

async function acquire(file: string, options: LockOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? lockTimeoutMs();
  const { pid, host, start } = currentProcess();
  const owner: LockOwner = {
    pid,
    host,
    command: options.command.slice(0, 300),
    acquired_at: isoTime(new Date()),
    start,
    token: uniqueHex(),
  };
  const temp = `${file}.${process.pid}.${owner.token}.tmp`;
  pendingTemps.add(temp);
  const started = Date.now();
  let delay = 2; // ms, doubled up to 20: a longer sleep leaves the lock idle while every waiter sleeps
  let announced = false;
  let release: ReleaseWatch | null = null; // set up at the first busy answer: a free lock costs nothing more
  try {
    writeCompleteFile(temp, `${JSON.stringify(owner)}\n`, 'lock-write');
    for (let tries = 0; ; tries += 1) {
      // The first try links at once; a later one only when the lock looks free. A link that fails
      // still takes the folder's lock for writing, against the holder's commit (docs/performance.md).
      if (tries === 0 || !existsSync(file)) {
        try {
          linkSync(temp, file);
          held.set(file, owner.token);
          return owner.token;
        } catch (error) {
          if (errorCode(error) !== 'EEXIST') throw writeRefusal(error, file);
        }
      }
      release ??= new ReleaseWatch(file); // before reading the owner, so a release after the read wakes us
      const current = readOwner(file);
      // A stale lock just removed is retried at once; every other outcome is a wait: it sleeps, so
      // signal handlers run, and it counts against the timeout.
      if (
        (current === 'unreadable' || (typeof current === 'object' && processGone(current))) &&
        breakLock(file, current === 'unreadable' ? null : current.token)
      )
        continue;
      if (current === 'missing') continue; // released between our link and our read
      if (Date.now() - started >= timeoutMs)
        throw timeoutRefusal(file, current, timeoutMs, options.subject ?? 'course');
      if (!announced) options.onWait?.(typeof current === 'object' ? current : null);
      announced = true;
      faultPoint('lock-wait');
      await release.sleep(Math.min(delay, Math.max(1, timeoutMs - (Date.now() - started))) * (0.5 + Math.random()));
      delay = Math.min(delay * 2, 20);
    }
  } finally {
    release?.close();
    pendingTemps.delete(temp);
    safeUnlink(temp);
  }
}

function release(file: string, token: string): void {
  held.delete(file);
  let current: ReturnType<typeof readOwner>;
  try {
    current = readOwner(file);
  } catch {
    return; // replaced by something that is not a lock file (the next taker names it): not ours to remove
  }
  if (typeof current === 'object' && current.token === token) safeUnlink(file);
}

export function readOwner(file: string): LockOwner | 'missing' | 'unreadable' {
  const read = readLockFile(file);
  if (read === null) return 'missing';
  try {
    const owner = JSON.parse(read.text) as LockOwner;
    return typeof owner === 'object' &&
      owner !== null &&
      typeof owner.pid === 'number' &&
      typeof owner.token === 'string'
      ? owner
      : 'unreadable';
  } catch {
    return 'unreadable'; // never written by codelabgen (it links complete files): treat as stale
  }
}

/**
 * Removes a stale lock, but only the one whose token was judged stale, under the break guard.
 * Returns false when another breaker holds the guard (the caller waits).
 */
function breakLock(file: string, staleToken: string | null): boolean {
  return withBreakGuard(file, () => {
    const current = readOwner(file);
    const token = typeof current === 'object' ? current.token : null;
    try {
      if (current !== 'missing' && token === staleToken) unlinkSync(file);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw writeRefusal(error, file);
    }
  });
}

function timeoutRefusal(
  file: string,
  owner: LockOwner | 'unreadable',
  timeoutMs: number,
  subject: string,
): RefusalError {
  if (owner === 'unreadable') {
    return new RefusalError(
      `${subject} lock ${lockName(file)} is stale but another process is breaking it (${lockName(file)}.break); gave up after ${Math.round(timeoutMs / 1000)}s`,
      [`wait and retry; if no codelabgen is running, remove ${file}.break`],
    );
  }
  if (processGone(owner)) {
    return new RefusalError(
      `${subject} lock held by pid ${owner.pid} (gone) is being broken by another process (${lockName(file)}` +
        `.break); gave up after ${Math.round(timeoutMs / 1000)}s`,
      [`wait and retry; if no codelabgen is running, remove ${file}.break`],
    );
  }
  return new RefusalError(
    `${subject} is locked by pid ${owner.pid} on ${owner.host} (${owner.command}) since ${owner.acquired_at}; gave up after ${Math.round(timeoutMs / 1000)}s`,
    [
      `wait and retry, or raise CODELABGEN_LOCK_TIMEOUT (seconds); if that process is gone on another host, remove ${file}`,
    ],
  );
}
