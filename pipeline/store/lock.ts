// The course lock: `.codelabgen/lock`, created atomically with its owner (pid, host, command, time,
// process start) by linking a fully written temp file. It is broken only when its owner process is
// gone (at once, no blind wait), under a second `lock.break` guard so that two breakers cannot both
// remove it. Waiting backs off up to a timeout, then refuses naming the holder.
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
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
  try {
    writeFileSync(temp, `${JSON.stringify(owner)}\n`, { flag: 'wx' });
    pendingTemps.add(temp);
  } catch (error) {
    throw writeRefusal(error, temp);
  }
  const started = Date.now();
  let delay = 2; // ms, doubled up to 100
  let announced = false;
  try {
    for (;;) {
      try {
        linkSync(temp, file);
        held.set(file, owner.token);
        return owner.token;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw writeRefusal(error, file);
      }
      const current = readOwner(file);
      if (current === 'missing') continue;
      if (current === 'unreadable' || ownerGone(current)) {
        breakLock(file, current === 'unreadable' ? null : current.token);
        continue;
      }
      if (Date.now() - started >= timeoutMs) throw timeoutRefusal(file, current, timeoutMs);
      if (!announced) options.onWait?.(current);
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
    if (errorCode(error) === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.token === 'string' ? owner : 'unreadable';
  } catch {
    return 'unreadable'; // never written by codelabgen (it links complete files): treat as stale
  }
}

/** True when the owner is on this host and its process no longer exists (or the pid was reused). */
export function ownerGone(owner: LockOwner): boolean {
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

/** Removes a stale lock, but only the one whose token was judged stale, under the break guard. */
function breakLock(file: string, staleToken: string | null): void {
  const guard = `${file}.break`;
  try {
    writeFileSync(guard, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw writeRefusal(error, guard);
    const breaker = Number(readFileSync(guard, { encoding: 'utf8', flag: 'r' }) || NaN);
    if (Number.isInteger(breaker) && !pidAlive(breaker)) safeUnlink(guard); // a breaker died mid-break
    return;
  }
  try {
    const current = readOwner(file);
    const token = typeof current === 'object' ? current.token : null;
    if (current !== 'missing' && token === staleToken) unlinkSync(file);
  } finally {
    safeUnlink(guard);
  }
}

function timeoutRefusal(file: string, owner: LockOwner, timeoutMs: number): RefusalError {
  return new RefusalError(
    `course is locked by pid ${owner.pid} on ${owner.host} (${owner.command}) since ${owner.acquired_at}; gave up after ${Math.round(timeoutMs / 1000)}s`,
    [`wait and retry, or raise CODELABGEN_LOCK_TIMEOUT (seconds); if that process is gone on another host, remove ${file}`],
  );
}

function writeRefusal(error: unknown, file: string): RefusalError {
  const code = errorCode(error) ?? 'error';
  const lock = path.join(path.basename(path.dirname(file)), 'lock');
  return new StoreWriteError(`cannot write ${lock} (the course lock): ${writeErrorReason(error)} (${code}); nothing was changed`, [`check free space and permissions of ${path.dirname(file)}`], { cause: error });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
