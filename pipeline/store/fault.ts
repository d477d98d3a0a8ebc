// Test-only fault seam: CODELABGEN_TEST_FAULT="<action>@<step>[:<ms>]" makes the store kill itself,
// fail with an I/O error, or pause at one step of a write, so crash safety is tested, not assumed.
// Actions: kill (SIGKILL), enospc, eio, delay (synchronous pause of <ms>), hold (synchronous pause
// until the file $CODELABGEN_TEST_FAULT_RELEASE exists, at most <ms>: a test releases the process
// when it has seen what it waits for, instead of sleeping through a fixed delay). Read once at start.

import { existsSync } from 'node:fs';

export const WRITE_STEPS = [
  'after-lock',
  'mid-event',
  'after-event-fsync',
  'after-temp-write',
  'after-rename',
  'before-unlock',
  'event-write',
  'event-fsync',
  'temp-write',
  'rename',
  'lock-wait',
  'lock-write',
  'guard-write',
  'torn-write',
  'change-stage',
  'change-seal',
  'change-move',
  'after-change-move',
] as const;
export type WriteStep = (typeof WRITE_STEPS)[number];

interface Fault {
  action: 'kill' | 'enospc' | 'eio' | 'delay' | 'hold';
  step: string;
  ms: number;
}

const fault: Fault | null = parseFault(process.env.CODELABGEN_TEST_FAULT);

function parseFault(spec: string | undefined): Fault | null {
  if (!spec) return null; // the common case, without compiling the expression below
  const match = /^(kill|enospc|eio|delay|hold)@([a-z-]+)(?::(\d+))?$/.exec(spec ?? '');
  if (!match) return null;
  return { action: match[1] as Fault['action'], step: match[2] ?? '', ms: Number(match[3] ?? 0) };
}

export function faultArmed(step: WriteStep): boolean {
  return fault !== null && fault.step === step;
}

/** Acts on the fault configured for `step`, if any. */
export function faultPoint(step: WriteStep): void {
  if (fault === null || fault.step !== step) return;
  switch (fault.action) {
    case 'kill':
      process.kill(process.pid, 'SIGKILL');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000); // SIGKILL lands before this returns
      return;
    case 'delay':
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, fault.ms);
      return;
    case 'hold':
      hold(fault.ms);
      return;
    case 'enospc':
      throw Object.assign(new Error(`ENOSPC: no space left on device (test fault at ${step})`), { code: 'ENOSPC' });
    case 'eio':
      throw Object.assign(new Error(`EIO: i/o error (test fault at ${step})`), { code: 'EIO' });
  }
}

/** Pauses until $CODELABGEN_TEST_FAULT_RELEASE exists (looked for every 10 ms), at most `ms`. */
function hold(ms: number): void {
  const release = process.env.CODELABGEN_TEST_FAULT_RELEASE ?? '';
  const until = Date.now() + ms;
  while (Date.now() < until && !(release !== '' && existsSync(release)))
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
}
