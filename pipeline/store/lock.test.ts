// The course lock: a dead owner's lock (or a reused pid's, or an unreadable one) is broken at once;
// a live holder makes a writer wait, then refuse after CODELABGEN_LOCK_TIMEOUT naming the holder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cli, cliAsync, readEvents, scratchCourse, snapshot } from '../../cli/testing.ts';
import type { LockOwner } from './lock.ts';

const course = (): string => scratchCourse();

const lockFile = (root: string) => path.join(root, '.codelabgen', 'lock');

function writeLock(root: string, owner: Partial<LockOwner>): void {
  const full: LockOwner = {
    pid: 1,
    host: hostname(),
    command: 'codelabgen state set 1.1 code',
    acquired_at: '2026-01-01T00:00:00.000Z',
    start: null,
    token: 'deadbeefdeadbeef',
    ...owner,
  };
  writeFileSync(lockFile(root), `${JSON.stringify(full)}\n`);
}

/** Start time (clock ticks since boot) of a live pid, as lock.ts records it. */
function processStart(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function lockOwnerPid(root: string): number | null {
  try {
    return (JSON.parse(readFileSync(lockFile(root), 'utf8')) as LockOwner).pid;
  } catch {
    return null;
  }
}

test('a lock whose owner pid is dead is broken at once', () => {
  const root = course();
  const dead = spawnSync(process.execPath, ['-e', '0']);
  assert.equal(dead.status, 0);
  assert.ok(dead.pid);
  writeLock(root, { pid: dead.pid! });
  // A timeout of 0 means "no wait at all": success proves the lock was broken, not waited out.
  const result = cli(['state', 'log', 'after-dead-owner'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '0' } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readEvents(root).at(-1)?.fact, 'after-dead-owner');
  assert.equal(existsSync(lockFile(root)), false);
  assert.equal(existsSync(`${lockFile(root)}.break`), false);
});

test('a lock whose pid is alive but reused (another process start time) counts as gone', () => {
  const root = course();
  writeLock(root, { pid: process.pid, start: processStart(process.pid) + 1 });
  const result = cli(['state', 'log', 'after-reused-pid'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '0' } });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(existsSync(lockFile(root)), false);
});

test('an unreadable lock file (never written by codelabgen) is broken', () => {
  const root = course();
  writeFileSync(lockFile(root), 'garbage');
  assert.equal(cli(['state', 'log', 'x'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '0' } }).code, 0);
});

test('a live owner (same start time) or another host keeps the lock: exit 2 naming the holder, nothing changed', () => {
  const root = course();
  const before = snapshot(root);
  for (const owner of [
    { pid: process.pid, start: processStart(process.pid) },
    { pid: process.pid, start: null },
    { pid: 999_999, host: 'elsewhere.example' },
  ]) {
    writeLock(root, owner);
    const lock = readFileSync(lockFile(root), 'utf8');
    const started = Date.now();
    const result = cli(['state', 'log', 'blocked'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '1' } });
    const elapsed = Date.now() - started;
    assert.equal(result.code, 2, result.stderr);
    const host = owner.host ?? hostname();
    assert.match(
      result.stderr,
      new RegExp(
        `^error: course is locked by pid ${owner.pid} on ${host.replace(/\./g, '\\.')} \\(codelabgen state ` +
          `set 1\\.1 code\\) since 2026-01-01T00:00:00\\.000Z; gave up after 1s\\nhint: wait and retry, or raise ` +
          `CODELABGEN_LOCK_TIMEOUT \\(seconds\\)`,
      ),
    );
    assert.ok(elapsed >= 1000, `refused after ${elapsed} ms, before the 1 s timeout`);
    assert.equal(readFileSync(lockFile(root), 'utf8'), lock, "the holder's lock is untouched");
  }
  writeLock(root, {});
  const after = snapshot(root);
  after.delete('.codelabgen/lock');
  assert.deepEqual(after, before);
});

test('a lock held by a live CLI process makes a writer wait, then proceed; with a short timeout it refuses', async (t) => {
  const root = course();
  // The holder keeps the lock until this file exists (the fault seam's hold): released once the
  // patient writer is seen waiting, not after a fixed delay long enough for a loaded machine.
  const release = path.join(path.dirname(root), 'release');
  const holder = cliAsync(['state', 'log', 'holder'], {
    cwd: root,
    env: { CODELABGEN_TEST_FAULT: 'hold@after-lock:120000', CODELABGEN_TEST_FAULT_RELEASE: release },
  });
  t.after(() => {
    writeFileSync(release, '');
    holder.child.kill('SIGKILL');
  });
  await waitFor(() => lockOwnerPid(root) === holder.child.pid, 'the holder to take the lock');
  const events = readFileSync(path.join(root, '.codelabgen', 'events.jsonl'));
  const state = readFileSync(path.join(root, '.codelabgen', 'state.json'));

  const impatient = cli(['state', 'log', 'impatient'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '1' } });
  assert.equal(impatient.code, 2);
  assert.match(
    impatient.stderr,
    new RegExp(
      `^error: course is locked by pid ${holder.child.pid} on .* \\(codelabgen state log holder\\) since .*; gave up after 1s$`,
      'm',
    ),
  );
  assert.deepEqual(readFileSync(path.join(root, '.codelabgen', 'events.jsonl')), events, 'the refusal changed nothing');
  assert.deepEqual(readFileSync(path.join(root, '.codelabgen', 'state.json')), state);

  const patient = cliAsync(['state', 'log', 'patient'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '60' } });
  t.after(() => patient.child.kill('SIGKILL'));
  // Its owner file (lock.<pid>.<token>.tmp) exists exactly while it waits for the lock.
  await waitFor(
    () => readdirSync(path.join(root, '.codelabgen')).some((name) => name.startsWith(`lock.${patient.child.pid}.`)),
    'the patient writer to wait',
  );
  assert.equal(lockOwnerPid(root), holder.child.pid, 'the holder still has the lock');
  writeFileSync(release, '');
  const [held, waited] = await Promise.all([holder.done, patient.done]);
  assert.equal(held.code, 0, held.stderr);
  assert.equal(waited.code, 0, waited.stderr);
  assert.deepEqual(
    readEvents(root)
      .slice(1)
      .map((event) => event.fact),
    ['holder', 'patient'],
  );
  assert.equal(existsSync(lockFile(root)), false);
  assert.equal(cli(['check'], { cwd: root }).code, 0);
});
