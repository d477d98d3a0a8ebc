// The processes of one process group, read from /proc (Linux; elsewhere the list is empty and
// nothing is swept). The test runners use it to name and end what a test left running:
// scripts/node-tests.ts and scripts/test-all.ts.
import { readdirSync, readFileSync } from 'node:fs';

export interface GroupMember {
  pid: number;
  ppid: number;
  command: string;
}

function stat(pid: number): { ppid: number; pgid: number; state: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return null; // gone meanwhile, or no /proc here
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 200);
  } catch {
    return '?';
  }
}

/** Every live process whose process group is `pgid` (zombies are done: left out). */
export function groupMembers(pgid: number): GroupMember[] {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return []; // not Linux
  }
  const members: GroupMember[] = [];
  for (const pid of pids) {
    const info = stat(pid);
    if (info?.pgid === pgid && info.state !== 'Z') members.push({ pid, ppid: info.ppid, command: commandOf(pid) });
  }
  return members;
}

/** This process's group id (0 where /proc is missing). */
export function ownGroup(): number {
  return stat(process.pid)?.pgid ?? 0;
}

/** SIGKILLs `members`, ignoring those already gone. */
export function killAll(members: GroupMember[]): void {
  for (const { pid } of members) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already ended: nothing left to stop.
    }
  }
}
