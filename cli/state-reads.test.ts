// The state reads the same everywhere: one definition of an open task (state show and state task
// list --open), a running task whose worker went quiet is marked, a reset names the files its worker
// may have half-written, and the report's "What needs a human" holds only what is open now.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { advance, courseWithLessons, LESSON_DIRS, ok, write } from './protocol-fixture.ts';
import { readState, removeDir } from './testing.ts';

describe('tasks and human items read the same everywhere', () => {
  let root: string;
  before(() => {
    root = courseWithLessons({}, { register: true });
  });
  after(() => removeDir(path.dirname(root)));

  test('a failed task is open in state show as in state task list --open', () => {
    assert.equal(ok(root, 'state', 'task', 'start', '1.1', '--role', 'code-author').trim(), 't1');
    ok(root, 'state', 'task', 'fail', 't1', '--note', 'tests would not run');
    assert.match(ok(root, 'state', 'task', 'list', '--open'), /^t1 +1\.1 +code-author +failed /m);
    const show = ok(root, 'state', 'show');
    assert.match(show, /^open tasks: 1 \(1 failed\)$/m);
    assert.match(show, /^ {2}t1 1\.1 code-author since \S+, failed: tests would not run \(open until/m);
  });

  test('a running task says when its worker was last heard from, and that it is quiet after 10 minutes', () => {
    // A worker that started 25 minutes ago with a 2-hour lease and never sent a heartbeat (crashed).
    const state = readState(root) as { last_seq: number };
    const started = new Date(Date.now() - 25 * 60_000).toISOString();
    const event = {
      seq: state.last_seq + 1,
      ts: started,
      kind: 'task.start',
      task: 't2',
      lesson: '1.2',
      role: 'code-author',
      lease_seconds: 7200,
    };
    appendFileSync(path.join(root, '.codelabgen', 'events.jsonl'), `${JSON.stringify(event)}\n`);
    const show = ok(root, 'state', 'show');
    assert.match(
      show,
      /^ {2}t2 1\.2 code-author since \S+, running until \S+; started, no heartbeat since 2[45]m ago: quiet for over 10m, its worker may have crashed/m,
    );
    assert.match(
      ok(root, 'state', 'task', 'list', '--running'),
      /^t2 .*\(started, no heartbeat since 2[45]m ago: quiet/m,
    );
  });

  test('resetting a task names the lesson files changed since it started', () => {
    ok(root, 'state', 'task', 'reset', 't2');
    ok(root, 'state', 'task', 'start', '1.2', '--role', 'code-author');
    write(root, `${LESSON_DIRS['1.2']}/src/half.mjs`, 'export const half =');
    const reset = ok(root, 'state', 'task', 'reset', 't3');
    assert.match(reset, /^task t3 reset \(lesson 1\.2, code-author\)$/m);
    assert.match(
      reset,
      /^changed since t3 started, maybe half-written by its worker .*: 1-basics\/1\.2-writable\/src\/half\.mjs$/m,
    );
  });

  test("the report's What needs a human drops a block once it is lifted; the decision moves to Decisions", () => {
    advance(root, '2.1', 'spec');
    ok(root, 'state', 'block', '2.1', '--reason', 'which dataset may the example use?');
    ok(root, 'report');
    const blocked = readFileSync(path.join(root, '.codelabgen', 'report.md'), 'utf8');
    assert.match(blocked, /## What needs a human\n\n(- [^\n]+\n)*- \*\*blocked\*\* 2\.1 is blocked at spec/);
    ok(root, 'state', 'unblock', '2.1', '--note', 'use the CC0 counter data');
    ok(root, 'report');
    const report = readFileSync(path.join(root, '.codelabgen', 'report.md'), 'utf8');
    const open = report.slice(report.indexOf('## What needs a human'), report.indexOf('## Decisions'));
    assert.doesNotMatch(open, /2\.1/, 'the lifted block is not open');
    assert.match(
      report,
      new RegExp(
        String.raw`## Decisions\n\n- [^\n]+ \*\*unblocked\*\* by user: 2\.1 unblocked \(blocked for the user: which ` +
          String.raw`dataset may the example use\?\): use the CC0 counter data\n`,
      ),
    );
  });
});
