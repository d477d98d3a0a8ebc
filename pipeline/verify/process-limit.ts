// The process-count limit of a lesson step (verify.max_processes), so a fork bomb ends in a failed
// run, not a machine out of processes. Two kernel limits, each where it binds (docs/verify.md):
// RLIMIT_NPROC set inside the sandbox, where it counts only the sandbox's own tasks (its user
// namespace has its own count), which binds every caller but root; and a pids cgroup around the
// whole step where this process may make one (root), which binds root too. Used by lesson-step.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { uniqueHex } from '../store/unique-name.ts';

/** A pids cgroup made for one step: the step's first process moves itself into it (cgroupWrapper). */
export interface PidsCgroup {
  /** Its `cgroup.procs`: writing 0 there moves the writer in. */
  procs: string;
  /** Whether a fork or clone in it failed at pids.max. */
  reached(): boolean;
  /** Removes the (empty) cgroup; a leftover is an empty folder, harmless. */
  remove(): void;
}

/** Where cgroup file systems are mounted. */
const CGROUP_ROOT = '/sys/fs/cgroup';

/**
 * A new pids cgroup below this process's own with pids.max = `maxProcesses`, or null where none can
 * be made (cgroup v1 without a pids hierarchy, cgroup v2 without the pids controller delegated, a
 * read-only /sys/fs/cgroup, a caller without the right to write there): then only RLIMIT_NPROC
 * applies.
 */
export function makePidsCgroup(maxProcesses: number, cgroupRoot = CGROUP_ROOT): PidsCgroup | null {
  const parent = pidsParent(cgroupRoot);
  if (parent === null) return null;
  sweepOnce(parent);
  const dir = path.join(parent, `${STEP_PREFIX}${process.pid}.${uniqueHex()}`);
  try {
    mkdirSync(dir);
  } catch {
    return null; // no right to make one here (not root, a read-only cgroup mount): RLIMIT_NPROC alone
  }
  try {
    writeFileSync(path.join(dir, 'pids.max'), String(maxProcesses));
  } catch {
    removeCgroup(dir);
    return null; // the controller is not enabled for it: RLIMIT_NPROC alone
  }
  const procs = path.join(dir, 'cgroup.procs');
  if (!canEnter(parent, procs)) {
    removeCgroup(dir);
    return null; // a process cannot be moved in here (cgroup v2 rules, a container): RLIMIT_NPROC alone
  }
  removeAtExit(dir);
  return {
    procs,
    reached: () => limitReached(dir),
    remove: () => {
      live.delete(dir);
      removeCgroup(dir);
    },
  };
}

/** Cgroups of steps still running: removed when codelabgen exits first (stopped by SIGINT or SIGTERM after killing them). */
const live = new Set<string>();

function removeAtExit(dir: string): void {
  if (live.size === 0 && !exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      for (const left of live) removeCgroup(left);
    });
  }
  live.add(dir);
}
let exitHooked = false;

/** The script that moves its shell into the cgroup (`$0`, its cgroup.procs); the wrapper then execs the step. */
const ENTER = 'echo 0 > "$0"';

/** `sh -c` that moves itself into the cgroup, then execs the step: no process of the step starts outside it. */
export function cgroupWrapper(cgroup: PidsCgroup): string[] {
  return ['/bin/sh', '-c', `${ENTER} && exec "$@"`, cgroup.procs];
}

const enterable = new Map<string, boolean>();

/** Whether a shell can move itself into a cgroup made under `parent`: tried once per process, with the first one. */
function canEnter(parent: string, procs: string): boolean {
  let known = enterable.get(parent);
  if (known === undefined) {
    known = spawnSync('/bin/sh', ['-c', ENTER, procs], { stdio: 'ignore', env: {}, timeout: 10_000 }).status === 0;
    enterable.set(parent, known);
  }
  return known;
}

/** This process's pids cgroup folder (cgroup v1 `pids` hierarchy, or v2 with pids delegated), or null. */
function pidsParent(cgroupRoot: string): string | null {
  let lines: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return null; // no /proc/self/cgroup (not Linux): no cgroup limit
  }
  const v1 = lines.map((line) => /^\d+:([^:]*):(\/.*)$/.exec(line)).find((m) => m?.[1]?.split(',').includes('pids'));
  if (v1?.[2] !== undefined) return path.join(cgroupRoot, 'pids', v1[2]);
  const v2 = lines.map((line) => /^0::(\/.*)$/.exec(line)).find((m) => m !== null);
  if (v2?.[1] === undefined) return null;
  const own = path.join(cgroupRoot, v2[1]);
  return readText(path.join(own, 'cgroup.subtree_control')).split(/\s+/).includes('pids') ? own : null;
}

const STEP_PREFIX = 'codelabgen-step.';
const swept = new Set<string>();

/**
 * Removes the cgroups of codelabgen processes that are gone (killed before their step's cleanup, or
 * stopped by a signal): once per process and parent. rmdir removes only an empty cgroup.
 */
function sweepOnce(parent: string): void {
  if (swept.has(parent)) return;
  swept.add(parent);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return; // unreadable: nothing to sweep
  }
  for (const name of names) {
    const owner = name.startsWith(STEP_PREFIX) ? Number(name.slice(STEP_PREFIX.length).split('.')[0]) : Number.NaN;
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) removeCgroup(path.join(parent, name), 1);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, another user's
  }
}

/** pids.events: `max N` counts the forks refused at pids.max. */
function limitReached(dir: string): boolean {
  const match = /^max (\d+)$/m.exec(readText(path.join(dir, 'pids.events')));
  return match !== null && Number(match[1]) > 0;
}

/** Tries `attempts` times, 10 ms apart (0.5 s by default): the step's killed processes may take a moment to leave it. */
function removeCgroup(dir: string, attempts = 50): void {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EBUSY') return; // gone, or not ours to remove: nothing to do
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); // ms
    }
  }
  // still busy: an empty cgroup folder left behind is harmless
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // missing: the kernel does not offer it
  }
}
