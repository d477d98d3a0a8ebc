// The process runner with real processes: exit codes, signals, a timeout that kills the whole
// group (grandchild included), a capped output tail, and the clean environment.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { childEnv } from './child-env.ts';
import { processGone } from './fixtures.ts';
import { inheritedDescriptors, runTests, SpawnError, withoutInherited } from './run-tests.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-run-'));
const env = childEnv(process.env);
const node = (code: string, timeoutMs = 30_000) =>
  runTests({ argv: [process.execPath, '-e', code], cwd: dir, env, timeoutMs });

test('a passing command: exit 0, output kept whole', async () => {
  const outcome = await node('console.log("hello"); console.error("warn")');
  assert.equal(outcome.exit_code, 0);
  assert.equal(outcome.signal, null);
  assert.equal(outcome.timed_out, false);
  assert.equal(outcome.output_tail, 'hello\nwarn\n');
  assert.equal(outcome.output_bytes, 11);
  assert.equal(outcome.output_truncated, false);
  assert.ok(outcome.duration_ms > 0);
});

test('a failing exit code is reported as is', async () => {
  const outcome = await node('process.exit(7)');
  assert.equal(outcome.exit_code, 7);
  assert.equal(outcome.signal, null);
});

test('an exit by signal gives a null exit code and the signal', async () => {
  const outcome = await node('process.kill(process.pid, "SIGSEGV")');
  assert.equal(outcome.exit_code, null);
  assert.equal(outcome.signal, 'SIGSEGV');
  assert.equal(outcome.timed_out, false);
});

test('a timeout kills the whole process group, grandchild included', async () => {
  const pidFile = path.join(dir, 'grandchild.pid');
  const code = `
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
    console.log('spawned');
    setInterval(() => {}, 1000);`;
  // 20 s: the child must have started its grandchild before the timeout; at nice 10 beside busy cores
  // a node -e that spawns one took close to 4 s, the time this was.
  const outcome = await node(code, 20_000);
  assert.equal(outcome.timed_out, true);
  assert.equal(outcome.signal, 'SIGKILL');
  assert.equal(outcome.exit_code, null);
  assert.match(outcome.output_tail, /spawned/);
  const grandchild = Number(readFileSync(pidFile, 'utf8'));
  assert.ok(grandchild > 0);
  for (let i = 0; i < 50 && !processGone(grandchild); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(processGone(grandchild), `grandchild ${grandchild} still running`);
});

test('a background grandchild left behind by a passing command is killed too', async () => {
  const pidFile = path.join(dir, 'leftover.pid');
  const code = `
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
    require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
    child.unref();`;
  const outcome = await node(code);
  assert.equal(outcome.exit_code, 0);
  const leftover = Number(readFileSync(pidFile, 'utf8'));
  for (let i = 0; i < 50 && !processGone(leftover); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(processGone(leftover), `leftover ${leftover} still running`);
});

test('10 MB of output: the tail is kept, every byte counted', async () => {
  const outcome = await node(
    'for (let i = 0; i < 160; i++) process.stdout.write("x".repeat(65536)); process.stdout.write("\\nTHE-END\\n")',
  );
  assert.equal(outcome.exit_code, 0);
  assert.equal(outcome.output_bytes, 160 * 65536 + 9);
  assert.equal(outcome.output_truncated, true);
  assert.equal(Buffer.byteLength(outcome.output_tail), 64 * 1024);
  assert.ok(outcome.output_tail.endsWith('x\nTHE-END\n'));
});

test("the child gets the clean environment, not the caller's", async () => {
  const parent = {
    ...process.env,
    SECRET_TOKEN: 'leak',
    NODE_OPTIONS: '--no-warnings',
    VIRTUAL_ENV: '/venv',
    NODE_TEST_CONTEXT: 'child-v8',
    CODELABGEN_VERIFY_ENV: 'EXTRA_ONE',
    EXTRA_ONE: 'kept',
  };
  const outcome = await runTests({
    argv: [process.execPath, '-p', 'JSON.stringify(process.env)'],
    cwd: dir,
    env: childEnv(parent),
    timeoutMs: 30_000,
  });
  const seen = JSON.parse(outcome.output_tail) as Record<string, string>;
  for (const name of ['SECRET_TOKEN', 'NODE_OPTIONS', 'VIRTUAL_ENV', 'NODE_TEST_CONTEXT'])
    assert.equal(seen[name], undefined, name);
  assert.equal(seen.EXTRA_ONE, 'kept');
  assert.equal(seen.NO_COLOR, '1');
  assert.equal(seen.CI, '1');
  assert.equal(seen.PATH!.split(path.delimiter)[0], path.dirname(process.execPath));
});

test('a program that does not exist is a SpawnError, not a run', async () => {
  await assert.rejects(
    runTests({ argv: ['codelabgen-no-such-program'], cwd: dir, env, timeoutMs: 5000 }),
    (error: unknown) => error instanceof SpawnError && /not found/.test(error.message),
  );
});

test('the descriptors codelabgen inherited without close-on-exec are read from fdinfo; each the child would get is /dev/null', () => {
  const proc = mkdtempSync(path.join(tmpdir(), 'codelabgen-proc-'));
  mkdirSync(path.join(proc, 'fd'));
  mkdirSync(path.join(proc, 'fdinfo'));
  // 1: stdout; 3 and 7: inherited (no O_CLOEXEC); 12: node's own (O_CLOEXEC 02000000); 9: closed before its flags were read.
  const fds = { 1: '02', 3: '0100000', 7: '0100001', 12: '02100002', 9: null };
  for (const [fd, flags] of Object.entries(fds)) {
    writeFileSync(path.join(proc, 'fd', fd), '');
    if (flags !== null) writeFileSync(path.join(proc, 'fdinfo', fd), `pos:\t0\nflags:\t${flags}\nmnt_id:\t1\n`);
  }
  assert.deepEqual(
    inheritedDescriptors(proc).sort((a, b) => a - b),
    [3, 7],
  );
  assert.deepEqual(inheritedDescriptors(path.join(proc, 'missing')), []);
  assert.deepEqual(withoutInherited(['ignore', 'pipe', 'pipe'], []), ['ignore', 'pipe', 'pipe']);
  const stdio = withoutInherited(['ignore', 'pipe', 'pipe', 'pipe'], [3, 7]);
  const devNull = stdio[7];
  assert.equal(typeof devNull, 'number');
  // 3 is the sandbox's status pipe already; dense up to 7 (Node shifts the entries after a hole down).
  assert.deepEqual(stdio, ['ignore', 'pipe', 'pipe', 'pipe', 'ignore', 'ignore', 'ignore', devNull]);
  assert.deepEqual(withoutInherited(['ignore', 'pipe', 'pipe', 'ignore'], [3]), ['ignore', 'pipe', 'pipe', devNull]);
});
