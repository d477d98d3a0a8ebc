// `verify --update-state` writes its run-result in the same all-or-nothing change as the verdict's
// event, end to end through the built CLI with the store's fault seam (CODELABGEN_TEST_FAULT): a
// write that fails, or a process killed before the event is durable, leaves no run-result claiming
// a verdict that state does not hold; killed after it, the next command finishes both.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { cli } from '../../cli/testing.ts';
import type { Course } from '../course/course.ts';
import { courseWithLessons } from './fixtures.ts';

const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

async function passingLesson(): Promise<Course> {
  const made = await courseWithLessons(
    [{ id: '1.1', files: { 'a.test.mjs': "import test from 'node:test';\ntest('passes', () => {});\n" } }],
    'verify:\n  sandbox: auto\n',
  );
  scratch.push(path.dirname(made.root));
  return made;
}

const store = (made: Course) => ['state.json', 'events.jsonl'].map((name) => readFileSync(path.join(made.dir, name)));
const runFiles = (made: Course) => {
  const dir = path.join(made.dir, 'runs', '1.1');
  return existsSync(dir) ? readdirSync(dir) : [];
};
// Unsandboxed, as before, by the machine's setting (a course's verify.sandbox: off is not honoured).
const verify = (made: Course, fault?: string) =>
  cli(['verify', '1.1', '--update-state', '--course', made.root], {
    timeoutMs: 60_000,
    env: { CODELABGEN_SANDBOX: 'off', ...(fault === undefined ? {} : { CODELABGEN_TEST_FAULT: fault }) },
  });
const stageOf = (made: Course) => {
  const shown = cli(['state', 'show', '--json', '--course', made.root]);
  assert.equal(shown.code, 0, shown.stderr);
  return (JSON.parse(shown.stdout) as { lessons: Record<string, { stage: string }> }).lessons['1.1']?.stage;
};

for (const fault of ['enospc@event-write', 'eio@event-fsync', 'eio@change-move', 'enospc@change-seal']) {
  test(`${fault}: exit 2, no run-result and no verdict (state and the log unchanged)`, {
    timeout: 90_000,
  }, async () => {
    const made = await passingLesson();
    const before = store(made);
    const result = verify(made, fault);
    assert.equal(result.code, 2, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stderr, /^error: cannot write .*nothing was changed/m);
    assert.deepEqual(runFiles(made), [], 'a run-result was left without its verdict');
    assert.deepEqual(store(made), before);
    assert.equal(stageOf(made), 'code');
  });
}

test('killed (SIGKILL) before the event is written: no run-result, no verdict', { timeout: 90_000 }, async () => {
  const made = await passingLesson();
  const result = verify(made, 'kill@event-write');
  assert.equal(result.signal, 'SIGKILL', result.stderr);
  assert.equal(stageOf(made), 'code');
  assert.deepEqual(runFiles(made), []);
});

test('killed after the event is durable: the next command finishes the change, run-result and verdict both', {
  timeout: 90_000,
}, async () => {
  const made = await passingLesson();
  const result = verify(made, 'kill@change-move');
  assert.equal(result.signal, 'SIGKILL', result.stderr);
  assert.equal(stageOf(made), 'verified');
  assert.deepEqual(runFiles(made), ['1.json']);
  const run = JSON.parse(readFileSync(path.join(made.dir, 'runs', '1.1', '1.json'), 'utf8')) as { passed: boolean };
  assert.equal(run.passed, true);
});

test('without a fault: the run-result and the verdict are both recorded, the run number in the event', {
  timeout: 90_000,
}, async () => {
  const made = await passingLesson();
  const result = verify(made);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^run 1: \.codelabgen\/runs\/1\.1\/1\.json; state: verified$/m);
  assert.deepEqual(runFiles(made), ['1.json']);
  const events = readFileSync(path.join(made.dir, 'events.jsonl'), 'utf8').trim().split('\n');
  assert.match(events.at(-1) ?? '', /"kind":"lesson\.verified".*"run":1/);
});
