// SIGTERM and SIGINT while waiting for the course lock and while holding it: no lock (or lock temp
// file) left behind, the change either complete or absent, and `check` clean afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, cliAsync, readEvents, readState, scratchCourse, snapshot } from '../../cli/testing.ts';

const EXIT_FOR: Record<'SIGTERM' | 'SIGINT', number> = { SIGTERM: 143, SIGINT: 130 };

const course = (): string => scratchCourse();

function lockDebris(root: string): string[] {
  return readdirSync(path.join(root, '.codelabgen')).filter((name) => name.startsWith('lock') || name.endsWith('.tmp'));
}

function lockOwnerPid(root: string): number | null {
  try {
    return (JSON.parse(readFileSync(path.join(root, '.codelabgen', 'lock'), 'utf8')) as { pid: number }).pid;
  } catch {
    return null; // no lock (yet)
  }
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 120_000) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} while waiting for the lock: exits ${EXIT_FOR[signal]}, leaves no lock file, its change absent`, async () => {
    const root = course();
    const before = snapshot(root);
    // The holder is this test process (alive, with its real start time): the lock is never broken,
    // so the waiter waits for as long as the test needs, however loaded the machine is.
    const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    const holder = {
      pid: process.pid,
      host: hostname(),
      command: 'test holder',
      acquired_at: new Date().toISOString(),
      start: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]),
      token: '0123456789abcdef',
    };
    const lock = path.join(root, '.codelabgen', 'lock');
    writeFileSync(lock, `${JSON.stringify(holder)}\n`);
    const waiter = cliAsync(['state', 'log', 'waiter'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '600' } });
    // The waiter's owner file (lock.<pid>.<token>.tmp) exists exactly while it waits for the lock.
    await waitFor(
      () => lockDebris(root).some((name) => name.startsWith(`lock.${waiter.child.pid}.`)),
      'the waiter to wait',
    );
    waiter.child.kill(signal);
    const waited = await waiter.done;
    assert.equal(waited.code, EXIT_FOR[signal], `${waited.signal ?? ''} ${waited.stderr}`);
    assert.equal(waited.stdout, '');
    assert.deepEqual(lockDebris(root), ['lock'], "the waiter removed its own lock file and left the holder's");
    assert.equal(lockOwnerPid(root), process.pid);
    unlinkSync(lock);
    assert.deepEqual(snapshot(root), before, 'the change is absent');
    assert.equal(cli(['check'], { cwd: root }).code, 0);
  });

  test(`${signal} while holding the lock: the change is complete or absent, no lock left`, async (t) => {
    const root = course();
    // The holder pauses with the lock held until this file exists (the fault seam's hold): the
    // signal is sent while it holds the lock, then it is let go.
    const release = path.join(path.dirname(root), 'release');
    const holder = cliAsync(['state', 'log', 'interrupted'], {
      cwd: root,
      env: { CODELABGEN_TEST_FAULT: 'hold@after-lock:120000', CODELABGEN_TEST_FAULT_RELEASE: release },
    });
    t.after(() => {
      writeFileSync(release, '');
      holder.child.kill('SIGKILL');
    });
    await waitFor(() => lockOwnerPid(root) === holder.child.pid, 'the holder to take the lock');
    holder.child.kill(signal);
    writeFileSync(release, '');
    const held = await holder.done;
    assert.ok(
      held.code === 0 || held.code === EXIT_FOR[signal],
      `exit ${held.code} ${held.signal ?? ''}: ${held.stderr}`,
    );
    assert.deepEqual(lockDebris(root), []);
    const facts = readEvents(root)
      .slice(1)
      .map((event) => event.fact);
    assert.ok(facts.length === 0 || (facts.length === 1 && facts[0] === 'interrupted'), `events: ${facts.join(', ')}`);
    assert.equal(readState(root).last_seq, facts.length + 1, 'state.json agrees with the log');
    if (held.code === 0) assert.equal(facts.length, 1, 'an acknowledged change is in the log');
    const check = cli(['check'], { cwd: root });
    assert.equal(check.code, 0, `${check.stdout}${check.stderr}`);
    assert.equal(
      cli(['state', 'log', 'next'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '0' } }).code,
      0,
      'the next writer needs no wait',
    );
  });
}
