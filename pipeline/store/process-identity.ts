// Is the process that wrote a lock or guard still there? By pid, and by process start time (Linux
// /proc) so that a reused pid counts as gone. Another host's processes cannot be seen.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { errorCode } from '../course/errors.ts';

export interface ProcessIdentity {
  pid: number;
  host: string;
  /** Process start time in clock ticks since boot (Linux), to tell a reused pid apart. */
  start: number | null;
}

let self: ProcessIdentity | undefined;

/** This process's identity, read once: a long-lived server takes the lock for every change. */
export function currentProcess(): ProcessIdentity {
  self ??= { pid: process.pid, host: hostname(), start: processStart(process.pid) };
  return { ...self };
}

/** True when the process is on this host and no longer exists (or its pid was reused). */
export function processGone(identity: ProcessIdentity): boolean {
  if (identity.host !== hostname()) return false; // cannot see another host's processes
  if (!pidAlive(identity.pid)) return true;
  const start = processStart(identity.pid);
  return identity.start !== null && start !== null && start !== identity.start;
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
