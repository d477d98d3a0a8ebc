// state next, tasks, status check, state stages and state show through the real CLI: the JSON
// shapes an orchestrator reads, and interrupted tasks after a restart.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { advance, courseAt, ok, write } from './protocol-fixture.ts';
import { cli, readState, removeDir } from './testing.ts';

const root = courseAt('scaffold', 'budgets: { fix_attempts: 3, review_rounds: 2, parallel: 1 }\n');
ok(root, 'register');
ok(root, 'state', 'phase', 'lessons');
after(() => removeDir(path.dirname(root)));

test('state stages prints the stage table as JSON', () => {
  const { stages } = JSON.parse(ok(root, 'state', 'stages'));
  assert.deepEqual(
    stages.map((row: { stage: string; role: string }) => `${row.stage}:${row.role}`),
    [
      'pending:example-designer',
      'spec:code-author',
      'code:code-fixer',
      'verified:readalong-writer',
      'readalong:notes-writer',
      'notes:lesson-reviewer',
      'reviewed:orchestrator',
      'done:orchestrator',
    ],
  );
});

test('tasks: start prints the id, done stores the validated result, list and next show them', () => {
  advance(root, '2.1', 'spec'); // module 2 is under way: with parallel 1 it comes first
  const t1 = ok(root, 'state', 'task', 'start', '2.1', '--role', 'code-author').trim();
  assert.equal(t1, 't1');
  const next = JSON.parse(ok(root, 'state', 'next'));
  assert.deepEqual(Object.keys(next), [
    'phase',
    'next_phase',
    'approval_needed',
    'ready',
    'done',
    'next_step',
    'next_command',
    'actions',
    'lessons',
    'blocked',
    'running',
    'interrupted',
    'prerequisites_changed',
    'budgets',
    'budget_used_up',
  ]);
  assert.equal(next.lessons.length, 1);
  assert.equal(next.lessons[0].lesson, '2.1');
  assert.equal(next.lessons[0].task.id, 't1');
  assert.equal(next.running[0].task, 't1'); // a fresh lease: running, not interrupted
  assert.equal(typeof next.running[0].age_seconds, 'number');
  assert.deepEqual(next.interrupted, []);
  assert.match(ok(root, 'state', 'show'), /open tasks: 1\n {2}t1 2\.1 code-author since /);
  const open = JSON.parse(ok(root, 'state', 'task', 'list', '--open', '--json'));
  assert.deepEqual(
    open.tasks.map((task: { id: string }) => task.id),
    ['t1'],
  );
  write(
    root,
    'answer.txt',
    'Wrote the code.\n```json\n{"lesson": "2.1", "status": "ok", "stage": "code", "artifacts": ["2-advanced/2.1-transform/main.mjs"]}\n```\n',
  );
  assert.equal(ok(root, 'status', 'check', 'answer.txt'), 'ok: lesson 2.1, status ok, stage code, 1 artifact\n');
  assert.match(
    ok(root, 'state', 'task', 'done', 't1', '--result', 'answer.txt'),
    /^task t1 done \(lesson 2\.1, code-author\)\n$/,
  );
  const task = (readState(root).tasks as Record<string, { status: string; result: { stage: string } }>).t1;
  assert.equal(task?.status, 'done');
  assert.equal(task?.result.stage, 'code');
  assert.equal(JSON.parse(ok(root, 'state', 'task', 'list', '--open', '--json')).tasks.length, 0);
  assert.match(ok(root, 'state', 'task', 'list'), /^t1 +2\.1 +code-author +done /);
});

test('after a restart: a task whose lease holds is running, not interrupted; reset frees the lesson', () => {
  const t2 = ok(root, 'state', 'task', 'start', '2.1', '--role', 'code-author').trim();
  const next = JSON.parse(cli(['state', 'next', '--course', root]).stdout);
  assert.deepEqual(
    next.running.map((item: { task: string; lesson: string }) => [item.task, item.lesson]),
    [[t2, '2.1']],
  );
  assert.deepEqual(next.interrupted, []);
  ok(root, 'state', 'task', 'reset', t2, '--note', 'orchestrator restarted');
  assert.deepEqual(JSON.parse(ok(root, 'state', 'next')).interrupted, []);
  assert.equal(ok(root, 'state', 'task', 'start', '2.1', '--role', 'code-author').trim(), 't3');
});
