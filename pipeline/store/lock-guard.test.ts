// The break guard (`lock.break`) left behind: empty (a breaker refused by a full disk), naming a
// live unrelated pid, or old. A writer breaks it and proceeds, or waits (sleeping, answering
// SIGTERM) and refuses at CODELABGEN_LOCK_TIMEOUT; it never spins. Lock files are never half-written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, cliAsync, readEvents, scratchCourse, snapshot, type CliResult } from '../../cli/testing.ts';

const store = (root: string, name: string) => path.join(root, '.codelabgen', name);

function debris(root: string): string[] {
  return readdirSync(path.join(root, '.codelabgen'))
    .filter((name) => name.startsWith('lock') || name.endsWith('.tmp'))
    .sort();
}

/** Start time (clock ticks since boot) of a live pid, as lock.ts records it. */
function processStart(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** A course whose lock was left by a process that is gone. */
function courseWithStaleLock(): string {
  const root = scratchCourse();
  const dead = spawnSync(process.execPath, ['-e', '0']);
  const owner = {
    pid: dead.pid,
    host: hostname(),
    command: 'codelabgen state log killed',
    acquired_at: '2026-01-01T00:00:00.000Z',
    start: null,
    token: 'deadbeefdeadbeef',
  };
  writeFileSync(store(root, 'lock'), `${JSON.stringify(owner)}\n`);
  return root;
}

/**
 * Runs the CLI, SIGKILLed after `boundMs`: a writer that spins ignores SIGTERM, so the default
 * kill would hang the test. The bound only stops a hang; no assertion is made on time.
 */
function runBounded(root: string, args: string[], env: NodeJS.ProcessEnv, boundMs = 60_000): CliResult {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
  delete childEnv.CODELABGEN_TEST_FAULT;
  if (env.CODELABGEN_TEST_FAULT) childEnv.CODELABGEN_TEST_FAULT = env.CODELABGEN_TEST_FAULT;
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: root,
    env: childEnv,
    encoding: 'utf8',
    timeout: boundMs,
    killSignal: 'SIGKILL',
  });
  return { code: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

for (const [name, guard] of [
  ['empty', ''],
  ['naming a live unrelated pid (no start time)', String(process.pid)],
  ['not JSON', 'garbage'],
] as const) {
  test(`a stale lock and a lock.break that is ${name}: the writer breaks both and proceeds without waiting`, () => {
    const root = courseWithStaleLock();
    writeFileSync(store(root, 'lock.break'), guard);
    const result = runBounded(root, ['state', 'log', 'after-guard'], { CODELABGEN_LOCK_TIMEOUT: '0' });
    assert.equal(result.signal, null, 'the writer ended by itself (before: it spun at 100% CPU until killed)');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readEvents(root).at(-1)?.fact, 'after-guard');
    assert.deepEqual(debris(root), []);
  });
}

function liveGuard(root: string): void {
  writeFileSync(
    store(root, 'lock.break'),
    `${JSON.stringify({ pid: process.pid, host: hostname(), start: processStart(process.pid) })}\n`,
  );
}

test('a stale lock and a fresh lock.break of a live breaker: the writer waits, refuses at the timeout, changes nothing', () => {
  const root = courseWithStaleLock();
  liveGuard(root);
  const before = snapshot(root);
  const result = runBounded(root, ['state', 'log', 'blocked'], { CODELABGEN_LOCK_TIMEOUT: '1' });
  assert.equal(result.signal, null, 'refused by itself at the timeout');
  assert.equal(result.code, 2, result.stderr);
  const gone = (JSON.parse(readFileSync(store(root, 'lock'), 'utf8')) as { pid: number }).pid;
  assert.equal(
    result.stderr,
    `error: course lock held by pid ${gone} (gone) is being broken by another process ` +
      `(.codelabgen/lock.break); gave up after 1s\nhint: wait and retry; if no codelabgen is running, remove ` +
      `${store(root, 'lock.break')}\n`,
  );
  assert.deepEqual(snapshot(root), before);
});

test('an old lock.break (longer than any break takes) is stale even when its pid is alive', () => {
  const root = courseWithStaleLock();
  liveGuard(root);
  const minuteAgo = new Date(Date.now() - 60_000);
  utimesSync(store(root, 'lock.break'), minuteAgo, minuteAgo);
  const result = runBounded(root, ['state', 'log', 'after-old-guard'], { CODELABGEN_LOCK_TIMEOUT: '0' });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(debris(root), []);
});

test('SIGTERM while waiting on a live lock.break: exits 143 at once, leaves no file of its own', async () => {
  const root = courseWithStaleLock();
  liveGuard(root);
  const before = snapshot(root);
  const waiter = cliAsync(['state', 'log', 'waiter'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '600' } });
  const killer = setTimeout(() => waiter.child.kill('SIGKILL'), 60_000); // only against a hang
  const started = Date.now();
  while (!debris(root).some((name) => name.startsWith(`lock.${waiter.child.pid}.`)) && Date.now() - started < 60_000)
    await sleep(20);
  await sleep(200); // well into its waiting loop
  waiter.child.kill('SIGTERM');
  const waited = await waiter.done;
  clearTimeout(killer);
  assert.equal(waited.signal, null, 'it answered SIGTERM (before: it spun and only SIGKILL stopped it)');
  assert.equal(waited.code, 143, waited.stderr);
  assert.deepEqual(debris(root), ['lock', 'lock.break']);
  assert.deepEqual(snapshot(root), before);
});

test('disk full while writing lock.break: refused, no empty guard left, and the next writer proceeds', () => {
  const root = courseWithStaleLock();
  const result = runBounded(root, ['state', 'log', 'full'], { CODELABGEN_TEST_FAULT: 'enospc@guard-write' });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^error: cannot write \.codelabgen\/lock \(the course lock\): no space left on device \(ENOSPC\); nothing was changed\n/,
  );
  assert.deepEqual(debris(root), ['lock'], 'no lock.break and no temp file left');
  const next = runBounded(root, ['state', 'log', 'freed'], { CODELABGEN_LOCK_TIMEOUT: '0' });
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual(debris(root), []);
});

test('disk full while writing the lock owner file: refused, no lock.<pid>.<token>.tmp left', () => {
  const root = scratchCourse();
  const before = snapshot(root);
  const result = runBounded(root, ['state', 'log', 'full'], { CODELABGEN_TEST_FAULT: 'enospc@lock-write' });
  assert.equal(result.code, 2, result.stderr);
  assert.equal(
    result.stderr.split('\n')[0],
    'error: cannot write .codelabgen/lock (the course lock): no space left on device (ENOSPC); nothing was changed',
  );
  assert.deepEqual(debris(root), []);
  assert.deepEqual(snapshot(root), before);
});
