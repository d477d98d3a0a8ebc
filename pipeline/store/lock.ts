// The course lock: `.codelabgen/lock`, created atomically with its owner (pid, host, command, time,
// process start) by linking a fully written temp file. It is broken only when its owner process is
// gone (at once, no blind wait), under a second `lock.break` guard so that two breakers cannot both
// remove it. Waiting backs off up to a timeout, then refuses naming the holder.
import { closeSync, linkSync, lstatSync, openSync, readFileSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Course } from '../course.ts';
import { RefusalError, StoreWriteError, errorCode, writeErrorReason } from '../errors.ts';
import { safeUnlink } from './atomic-write.ts';
import { faultPoint } from './fault.ts';

export interface LockOwner {
  pid: number;
  host: string;
  command: string;
  acquired_at: string;
  /** Process start time in clock ticks since boot (Linux), to tell a reused pid apart. */
  start: number | null;
  token: string;
}

export interface LockOptions {
  command: string;
  timeoutMs?: number;
  /** Called once when the lock is busy, so the CLI can say it is waiting. */
  onWait?: (owner: LockOwner | null) => void;
}

const held = new Map<string, string>(); // lock path → our token
const pendingTemps = new Set<string>(); // owner temp files of locks being waited for

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

/** Releases every lock this process holds (and drops its waiting files); signal handlers call it. */
export function releaseHeldLocks(): void {
  for (const [file, token] of held) release(file, token);
  for (const temp of pendingTemps) safeUnlink(temp);
  pendingTemps.clear();
}

async function acquire(file: string, options: LockOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? lockTimeoutMs();
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    command: options.command.slice(0, 300),
    acquired_at: new Date().toISOString(),
    start: processStart(process.pid),
    token: randomBytes(8).toString('hex'),
  };
  const temp = `${file}.${process.pid}.${owner.token}.tmp`;
  pendingTemps.add(temp);
  const started = Date.now();
  let delay = 2; // ms, doubled up to 100
  let announced = false;
  try {
    writeCompleteFile(temp, `${JSON.stringify(owner)}\n`, 'lock-write');
    for (;;) {
      try {
        linkSync(temp, file);
        held.set(file, owner.token);
        return owner.token;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw writeRefusal(error, file);
      }
      const current = readOwner(file);
      // A stale lock just removed is retried at once; every other outcome is a wait: it sleeps, so
      // signal handlers run, and it counts against the timeout.
      if ((current === 'unreadable' || (typeof current === 'object' && ownerGone(current))) && breakLock(file, current === 'unreadable' ? null : current.token)) continue;
      if (current === 'missing') continue; // released between our link and our read
      if (Date.now() - started >= timeoutMs) throw timeoutRefusal(file, current, timeoutMs);
      if (!announced) options.onWait?.(typeof current === 'object' ? current : null);
      announced = true;
      faultPoint('lock-wait');
      await sleep(Math.min(delay, Math.max(1, timeoutMs - (Date.now() - started))) * (0.5 + Math.random()));
      delay = Math.min(delay * 2, 100);
    }
  } finally {
    pendingTemps.delete(temp);
    safeUnlink(temp);
  }
}

/** Writes a whole new file (it never exists half-written: a failed write removes it). */
function writeCompleteFile(file: string, text: string, step: 'lock-write' | 'guard-write'): void {
  try {
    const fd = openSync(file, 'wx', 0o644);
    try {
      faultPoint(step);
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    safeUnlink(file);
    throw writeRefusal(error, file);
  }
}

function release(file: string, token: string): void {
  held.delete(file);
  const current = readOwner(file);
  if (typeof current === 'object' && current.token === token) safeUnlink(file);
}

export function readOwner(file: string): LockOwner | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return existsAsLink(file) ? 'unreadable' : 'missing'; // a dangling symlink: not ours
    throw notAFileRefusal(error, file);
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner === 'object' && owner !== null && typeof owner.pid === 'number' && typeof owner.token === 'string' ? owner : 'unreadable';
  } catch {
    return 'unreadable'; // never written by codelabgen (it links complete files): treat as stale
  }
}

function existsAsLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false; // gone
  }
}

/** True when the owner is on this host and its process no longer exists (or the pid was reused). */
export function ownerGone(owner: Pick<LockOwner, 'pid' | 'host' | 'start'>): boolean {
  if (owner.host !== hostname()) return false; // cannot see another host's processes
  if (!pidAlive(owner.pid)) return true;
  const start = processStart(owner.pid);
  return owner.start !== null && start !== null && start !== owner.start;
}

/** True while a process with this pid exists (EPERM: it exists but belongs to another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

function processStart(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[19]);
    return Number.isFinite(start) ? start : null;
  } catch {
    return null; // no procfs (macOS) or the process is gone
  }
}

/**
 * Removes a stale lock, but only the one whose token was judged stale, under the break guard.
 * Returns false when another breaker holds the guard (the caller waits).
 */
function breakLock(file: string, staleToken: string | null): boolean {
  const guard = `${file}.break`;
  if (!takeGuard(guard)) return false;
  try {
    const current = readOwner(file);
    const token = typeof current === 'object' ? current.token : null;
    if (current !== 'missing' && token === staleToken) unlinkSync(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error instanceof RefusalError ? error : writeRefusal(error, file);
  } finally {
    safeUnlink(guard);
  }
  return true;
}

/**
 * Takes `lock.break` by linking a complete temp file (pid, host, start), as the lock itself is
 * taken. A guard left behind (its breaker gone, empty, unreadable, or older than a break can
 * take) is removed first, and only if it is still the same file that was judged stale.
 */
function takeGuard(guard: string): boolean {
  const breaker = { pid: process.pid, host: hostname(), start: processStart(process.pid) };
  const temp = `${guard}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  pendingTemps.add(temp);
  try {
    writeCompleteFile(temp, `${JSON.stringify(breaker)}\n`, 'guard-write');
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

const GUARD_STALE_MS = 10_000; // a break takes microseconds; a guard this old was left behind

function removeStaleGuard(guard: string): boolean {
  let seen: Stats;
  let text: string;
  try {
    seen = lstatSync(guard);
    text = readFileSync(guard, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return true; // just released: retry at once
    throw notAFileRefusal(error, guard);
  }
  if (!seen.isFile()) throw notAFileRefusal(Object.assign(new Error('not a file'), { code: 'EISDIR' }), guard);
  const old = Date.now() - seen.mtimeMs > GUARD_STALE_MS;
  if (!old && !guardOwnerGone(text)) return false;
  try {
    const now = lstatSync(guard);
    if (now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs) return false; // replaced meanwhile: not the stale one
    unlinkSync(guard);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw writeRefusal(error, guard);
  }
  return true;
}

/** An empty or unreadable guard was not written by codelabgen (it links complete files). */
function guardOwnerGone(text: string): boolean {
  try {
    const breaker = JSON.parse(text) as { pid?: unknown; host?: unknown; start?: unknown };
    if (typeof breaker !== 'object' || breaker === null || typeof breaker.pid !== 'number' || typeof breaker.host !== 'string') return true;
    return ownerGone({ pid: breaker.pid, host: breaker.host, start: typeof breaker.start === 'number' ? breaker.start : null });
  } catch {
    return true;
  }
}

function timeoutRefusal(file: string, owner: LockOwner | 'unreadable', timeoutMs: number): RefusalError {
  if (owner === 'unreadable') {
    return new RefusalError(`course lock ${lockName(file)} is stale but another process is breaking it (${lockName(file)}.break); gave up after ${Math.round(timeoutMs / 1000)}s`, [
      `wait and retry; if no codelabgen is running, remove ${file}.break`,
    ]);
  }
  if (ownerGone(owner)) {
    return new RefusalError(`course lock held by pid ${owner.pid} (gone) is being broken by another process (${lockName(file)}.break); gave up after ${Math.round(timeoutMs / 1000)}s`, [
      `wait and retry; if no codelabgen is running, remove ${file}.break`,
    ]);
  }
  return new RefusalError(
    `course is locked by pid ${owner.pid} on ${owner.host} (${owner.command}) since ${owner.acquired_at}; gave up after ${Math.round(timeoutMs / 1000)}s`,
    [`wait and retry, or raise CODELABGEN_LOCK_TIMEOUT (seconds); if that process is gone on another host, remove ${file}`],
  );
}

function lockName(file: string): string {
  return path.join(path.basename(path.dirname(file)), path.basename(file));
}

function writeRefusal(error: unknown, file: string): RefusalError {
  const code = errorCode(error) ?? 'error';
  const lock = path.join(path.basename(path.dirname(file)), 'lock');
  return new StoreWriteError(`cannot write ${lock} (the course lock): ${writeErrorReason(error)} (${code}); nothing was changed`, [`check free space and permissions of ${path.dirname(file)}`], { cause: error });
}

/** `lock` or `lock.break` that cannot be read as a file (a folder, say): never removed for the user. */
function notAFileRefusal(error: unknown, file: string): RefusalError {
  const code = errorCode(error);
  const what = code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read (${code ?? (error as Error).message})`;
  return new RefusalError(`${lockName(file)} ${what}; codelabgen never creates it that way, so it is left alone`, [`if no codelabgen is running, remove ${file}, then retry`], { cause: error });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
