// The test runner cannot hang (docs/testing.md): a test that never ends is failed and named, and the
// process it left running is killed. Nor can it lose a test: a result that never arrives fails the run,
// named, and a file that ends while the runner is not reading loses none of its results.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Without the variable `node --test` sets for its own files, the runner below runs as npm test runs it.
const { NODE_TEST_CONTEXT: _context, ...env } = process.env;

/** node-tests.ts on fixtures (default the hung one), in a process group of its own (as npm test's steps run it). */
function runRunner(
  env: NodeJS.ProcessEnv,
  ...fixtures: string[]
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  const files = fixtures.length > 0 ? fixtures : ['scripts/fixtures/hangs.fixture.ts'];
  const child = spawn(process.execPath, ['scripts/node-tests.ts', ...files], {
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
    assert.match(
      result.stdout,
      /\n {2}no result: scripts\/fixtures\/hangs\.fixture\.ts:9 › waits forever on a child that never exits\n/,
    );
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // The file's own process may be listed too: killed at the timeout, on a loaded machine it may not have ended yet.
    assert.match(
      result.stdout,
      new RegExp(`process\\(es\\) the tests left running, killed:\\n(?:  \\d+ .*\\n)*  ${pid} sleep 3600\\n`),
    );
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

/**
 * Whether `pid` has exited or waits in a write to its full stdout (to a runner that reads nothing):
 * a pipe, or the Unix socket Node's `stdio: 'pipe'` makes, by the kernel function it sleeps in
 * (`/proc/PID/wchan`; on a kernel that hides it, the test fails at its timeout, never hangs).
 */
function exitedOrWaitingToWrite(pid: number): boolean {
  if (!alive(pid)) return true;
  try {
    return /pipe_write|sock_alloc_send|wait_for_wmem/.test(readFileSync(`/proc/${pid}/wchan`, 'utf8'));
  } catch {
    return true;
  }
}

// Each run takes a few tenths of a second of CPU: they run at once.
describe('a lost test result', { concurrency: true }, () => {
  test('a file that ends while the runner reads nothing (stopped, as when starved of CPU) loses no result', {
    timeout: 120_000,
  }, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-stall-'));
    const pidFile = path.join(dir, 'pids');
    // The fixture stops the runner; resumed once the fixture has exited (its queued writes dropped,
    // before the fix) or waits on its full stdout (a blocking write, which the runner then reads).
    let pids: number[] = [];
    const resume = () => {
      try {
        process.kill(pids[1]!, 'SIGCONT');
      } catch {
        // Already gone.
      }
    };
    const watch = setInterval(() => {
      if (pids.length < 2) pids = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split(' ').map(Number) : [];
      if (pids.length === 2 && exitedOrWaitingToWrite(pids[0]!)) resume();
    }, 50);
    t.after(() => {
      clearInterval(watch);
      if (pids.length === 2) resume();
      rmSync(dir, { recursive: true, force: true });
    });
    const result = await runRunner({ ...env, STALL_PIDFILE: pidFile }, 'scripts/fixtures/stalls-runner.fixture.ts');
    assert.equal(pids.length, 2, 'the fixture did not stop the runner');
    // The fixture's padding (lines of dots) left out of the messages.
    const shown = result.stdout.replace(/^\.+\n/gm, '');
    assert.equal(result.signal, null, `node-tests itself hung: ${shown}`);
    assert.match(shown, /^✔ finishes at once/m);
    assert.match(shown, /^▶ the last describe\n {2}✔ ends while the runner reads nothing .*\n✔ the last describe /m);
    assert.match(shown, /^ℹ tests 2\nℹ suites 1\nℹ pass 2\nℹ fail 0$/m);
    assert.doesNotMatch(shown, /never reported a result|reported no test/);
    assert.equal(result.status, 0, shown);
    // forceExit ends the file only after its after() hooks: what one writes once the tests end is written.
    assert.equal(readFileSync(`${pidFile}.after`, 'utf8'), 'written after the last test\n');
  });

  test('tests that never report a result, and a file that reports none, fail the run and are named', {
    timeout: 120_000,
  }, async () => {
    // Both files exit 0: node:test counts them as passed.
    const result = await runRunner(
      env,
      'scripts/fixtures/exits-early.fixture.ts',
      'scripts/fixtures/exits-at-once.fixture.ts',
    );
    assert.equal(result.signal, null, `node-tests itself hung: ${result.stdout}`);
    assert.match(result.stdout, /^✔ finishes at once/m);
    assert.match(
      result.stdout,
      new RegExp(
        String.raw`\nnode-tests: scripts/fixtures/exits-at-once\.fixture\.ts reported no test \(it has none, or its process ` +
          String.raw`ended before its first report\)\n` +
          String.raw`\nnode-tests: 3 test\(s\) never reported a result \(their report was lost, or their file's process ` +
          String.raw`ended first\):\n` +
          String.raw`  no result: scripts/fixtures/exits-early\.fixture\.ts:8 › a describe that never reports\n` +
          String.raw`  no result: scripts/fixtures/exits-early\.fixture\.ts:9 › ends its process with exit code 0\n` +
          String.raw`  no result: scripts/fixtures/exits-early\.fixture\.ts:13 › never runs\n`,
      ),
    );
    assert.equal(result.status, 1, result.stdout);
  });
});

test('CODELABGEN_TEST_TIMELINE writes each file with its CPU (its children counted) and the machine sampled each second', {
  timeout: 120_000,
}, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-timeline-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'timeline.json');
  const result = await runRunner({ ...env, CODELABGEN_TEST_TIMELINE: file }, 'scripts/fixtures/busy-child.fixture.ts');
  assert.equal(result.status, 0, result.stdout);
  assert.match(result.stdout, new RegExp(`\\nnode-tests: timeline written to ${file}\\ntimeline: 1 files, `));
  const timeline = JSON.parse(readFileSync(file, 'utf8')) as {
    cores: number;
    files: Array<{ file: string; start: number; end: number; cpu: number }>;
    samples: Array<{ t: number; busy: number; ours: number; load: number }>;
  };
  assert.deepEqual(
    timeline.files.map((span) => span.file),
    ['scripts/fixtures/busy-child.fixture.ts'],
  );
  const [span] = timeline.files;
  // The child's 0.5 s of CPU counts in the file's; its 2 s wait in the wall time, not the CPU.
  assert.ok(span!.cpu >= 0.5 && span!.cpu < span!.end - span!.start, JSON.stringify(span));
  assert.ok(span!.end - span!.start >= 2, JSON.stringify(span));
  assert.ok(timeline.samples.length >= 2, JSON.stringify(timeline.samples));
  for (const sample of timeline.samples)
    assert.ok(sample.busy >= 0 && sample.busy <= timeline.cores && sample.ours >= 0, JSON.stringify(sample));
  // The runner's own processes: the fixture's child burned 0.5 s of CPU while they were sampled.
  const ours = timeline.samples.reduce((sum, sample) => sum + sample.ours, 0);
  assert.ok(ours >= 0.4, JSON.stringify(timeline.samples));
});
