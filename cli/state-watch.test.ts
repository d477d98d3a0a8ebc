// `state watch` through the real CLI: one line per change on a pipe (state set, task start, block
// by other processes), no colour there, a clean exit on SIGINT, a redrawn board on a terminal
// (`script` gives it one), and a refusal for a course without state.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, cliAsync, removeDir, scratchDir, untilDrawnOnTerminal } from './testing.ts';
import { advance, courseAt, ok } from './protocol-fixture.ts';

/**
 * Resolves when `read()` matches `pattern` (polled every 20 ms), or fails after `ms`: a hang guard, not
 * a budget (a CLI starting on a loaded machine, at nice 10 beside busy cores, took over 10 s).
 */
async function until(read: () => string, pattern: RegExp, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pattern.test(read())) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${ms} ms in:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('state watch on a pipe: a line per change made by other processes, then a clean exit on Ctrl-C', async (t) => {
  const root = courseAt('lessons');
  t.after(() => removeDir(root));
  const watch = cliAsync(['state', 'watch', '--course', root], {
    env: { NO_COLOR: undefined, FORCE_COLOR: undefined },
  });
  t.after(() => watch.child.kill('SIGKILL'));
  let stdout = '';
  watch.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  await until(
    () => stdout,
    /seq \d+ lessons: pending 3 · spec 0 .* done 0 \| running 0 \| last: phase scaffold → lessons\n/,
  );
  advance(root, '1.1', 'spec');
  await until(() => stdout, /pending 2 · spec 1 .*\| last: 1\.1 pending → spec\n/);
  // A writer slower than a second between its event and its state.json (a loaded machine; here a
  // pause at that step): its change is one line, shown once the state caught up, not two.
  const slow = await cliAsync(['state', 'task', 'start', '1.1'], {
    cwd: root,
    env: { CODELABGEN_TEST_FAULT: 'delay@after-event-fsync:2000' },
  }).done;
  assert.equal(slow.code, 0, slow.stderr);
  await until(() => stdout, /running 1 \| last: 1\.1 task t1 \(code-author\) still running/);
  ok(root, 'state', 'block', '1.2', '--reason', 'needs an API key');
  await until(
    () => stdout,
    /\(blocked 1\) \| running 1 \| needs a human: codelabgen state unblock 1\.2 --note "your decision" \| last: 1\.2 blocked for the user: needs an API key\n/,
  );
  watch.child.kill('SIGINT');
  const result = await watch.done;
  assert.equal(result.stderr, '');
  assert.doesNotMatch(result.stdout, /\x1b\[/, 'no colour or cursor codes on a pipe');
  assert.ok(result.code === 130 || result.code === 0, `exit ${result.code} ${result.signal}`);
  // One line per change: the first board, then each of the three commits (each once).
  assert.equal(result.stdout.trim().split('\n').length, 4, result.stdout);
});

test('state watch: a lease that runs out moves its task to interrupted, with no command run', async (t) => {
  const root = courseAt('lessons');
  t.after(() => removeDir(root));
  // The watch draws its first board before the task starts, and then has the whole lease to show it
  // running: a watch starting on a loaded machine (or stalled 4 s) once drew its first board after a
  // 4 s lease had run out, and never showed the task running.
  const watch = cliAsync(['state', 'watch', '--course', root]);
  t.after(() => watch.child.kill('SIGKILL'));
  let stdout = '';
  watch.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  await until(() => stdout, /\| running 0 \|/);
  ok(root, 'state', 'task', 'start', '1.1', '--lease', '15s');
  await until(() => stdout, /\| running 1 \|/);
  await until(() => stdout, /\| running 0, interrupted t1 \| needs a human: codelabgen state task reset t1 \|/);
  watch.child.kill('SIGINT');
  await watch.done;
});

test('state watch on a terminal redraws the board in colour, and not with NO_COLOR', {
  skip: spawnSync('script', ['--version']).status !== 0 && 'no script(1)',
}, async (t) => {
  const root = courseAt('lessons');
  t.after(() => removeDir(root));
  ok(root, 'state', 'block', '1.2', '--reason', 'needs an API key');
  // script(1) runs the watch on a pseudo-terminal; it is ended (SIGINT) once it has drawn the board,
  // not after a fixed 2 s: on a loaded machine the watch had not drawn anything by then.
  const drawn = /needs a human \(1\)[\s\S]*codelabgen state unblock 1\.2 --note "your decision"/;
  const onTerminal = async (env: NodeJS.ProcessEnv) => ({
    stdout: await untilDrawnOnTerminal(['state', 'watch', '--course', root], { COLUMNS: '100', ...env }, (screen) =>
      drawn.test(screen),
    ),
  });
  const colour = await onTerminal({ NO_COLOR: '', FORCE_COLOR: '' });
  assert.match(colour.stdout, /\x1b\[2J/, 'clears the screen once');
  assert.match(colour.stdout, /\x1b\[H\x1b\[1mStreams — phase lessons, seq \d+\x1b\[22m/);
  assert.match(colour.stdout, /pending\s+3 /);
  assert.match(colour.stdout, /\x1b\[31mblocked 1\x1b\[39m/);
  assert.match(colour.stdout, drawn);
  const plain = await onTerminal({ NO_COLOR: '1' });
  assert.match(plain.stdout, /Streams — phase lessons/);
  assert.doesNotMatch(plain.stdout, /\x1b\[(1|22|31|39)m/, 'NO_COLOR: no colour, even on a terminal');
});

test('state watch refuses a course without state.json, naming the way back', () => {
  const root = scratchDir();
  try {
    mkdirSync(path.join(root, '.codelabgen'));
    const result = cli(['state', 'watch', '--course', root]);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr,
      `error: ${root} has no .codelabgen/state.json: nothing to follow\nhint: rebuild it from the event log: codelabgen state rebuild\n`,
    );
    assert.equal(result.stdout, '');
  } finally {
    removeDir(root);
  }
});
