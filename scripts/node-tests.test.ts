// The test runner cannot hang (docs/testing.md): a test that never ends is failed and named, and the
// process it left running is killed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Without the variable `node --test` sets for its own files, the runner below runs as npm test runs it.
const { NODE_TEST_CONTEXT: _context, ...env } = process.env;

/** node-tests.ts on the fixture, in a process group of its own (as npm test's steps run it). */
function runRunner(
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  const child = spawn(process.execPath, ['scripts/node-tests.ts', 'scripts/fixtures/hangs.fixture.ts'], {
    cwd: REPO,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 100_000);
  return new Promise((resolve) =>
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout });
    }),
  );
}

/** Running, not merely a zombie that its new parent has not reaped yet. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

// The two runs wait (on a test timeout, on the deadline) and take almost no CPU: they run at once.
describe('a hung test file', { concurrency: true }, () => {
  test('a hung test fails after the test timeout, is named, and the process it started is killed', {
    timeout: 120_000,
  }, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-hang-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const pidFile = path.join(dir, 'pid');
    const result = await runRunner({ ...env, CODELABGEN_TEST_TIMEOUT_MS: '4000', HANG_PIDFILE: pidFile });
    assert.equal(result.signal, null, `node-tests itself hung: ${result.stdout}`);
    assert.equal(result.status, 1, result.stdout);
    assert.match(
      result.stdout,
      /hangs\.fixture\.ts stopped \(test timed out after 4000ms\); hung: scripts\/fixtures\/hangs\.fixture\.ts › waits forever on a child that never exits/,
    );
    assert.match(result.stdout, /✔ finishes at once/);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.match(result.stdout, new RegExp(`process\\(es\\) the tests left running, killed:\\n  ${pid} sleep 3600`));
    assert.equal(alive(pid), false, `the child ${pid} the hung test started is still running`);
  });

  test('past the deadline the run stops and names the tests still running', { timeout: 120_000 }, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-hang-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const pidFile = path.join(dir, 'pid');
    const result = await runRunner({ ...env, CODELABGEN_TESTS_DEADLINE_S: '10', HANG_PIDFILE: pidFile });
    assert.equal(result.signal, null, `node-tests itself hung: ${result.stdout}`);
    assert.equal(result.status, 1, result.stdout);
    assert.match(
      result.stdout,
      /still running after the 10 s deadline, stopped:\n  hung: scripts\/fixtures\/hangs\.fixture\.ts › waits forever on a child that never exits/,
    );
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.equal(alive(pid), false, `the child ${pid} the hung test started is still running`);
  });
});
