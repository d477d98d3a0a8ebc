// Budget edges through the real CLI: the last allowed fix attempt, the one that blocks, unblock and
// the fresh budget; a user block keeps the budget; the last review round and the refused one.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { advance, courseAt, lessonOf, ok, refused } from './protocol-fixture.ts';
import { readEvents, removeDir } from './testing.ts';

const root = courseAt('scaffold', 'budgets: { fix_attempts: 2, review_rounds: 2, parallel: 2 }\n');
ok(root, 'register');
ok(root, 'state', 'phase', 'lessons');
after(() => removeDir(path.dirname(root)));

test('fix attempts: the last allowed one, the blocking one, unblock gives a fresh budget', () => {
  advance(root, '1.1', 'code');
  assert.match(
    ok(root, 'state', 'fail', '1.1', '--note', 'first'),
    /^lesson 1\.1: fix attempt 1 failed \(seq \d+\)\n$/,
  );
  assert.equal(lessonOf(root, '1.1').blocked, null);
  const json = JSON.parse(ok(root, 'state', 'fail', '1.1', '--note', 'second: TypeError', '--json'));
  assert.equal(json.fix_attempts_used, 2);
  assert.equal(json.blocked.by, 'fix-budget');
  assert.equal(json.blocked.reason, 'fix budget used up (2 failed attempts); last: second: TypeError');
  const failEvent = readEvents(root).at(-1);
  assert.equal(failEvent?.kind, 'lesson.fail');
  assert.equal(failEvent?.blocked, true);
  refused(root, ['state', 'fail', '1.1', '--note', 'third'], /^error: lesson 1\.1 is blocked \(fix budget used up/);
  const next = JSON.parse(ok(root, 'state', 'next'));
  assert.deepEqual(
    next.blocked.map((item: { lesson: string; by: string }) => [item.lesson, item.by]),
    [['1.1', 'fix-budget']],
  );
  assert.match(ok(root, 'state', 'unblock', '1.1'), /^lesson 1\.1: unblocked at code with a fresh fix budget/);
  assert.equal(readEvents(root).at(-1)?.fix_budget_reset, true);
  assert.equal(lessonOf(root, '1.1').fix_attempts_used, 0);
  assert.equal(lessonOf(root, '1.1').fix_budget_resets, 1);
  ok(root, 'state', 'fail', '1.1', '--note', 'after unblock');
  assert.equal(lessonOf(root, '1.1').blocked, null);
  const item = JSON.parse(ok(root, 'state', 'next')).lessons.find((work: { lesson: string }) => work.lesson === '1.1');
  assert.equal(item.role, 'code-fixer');
});

test('a user block keeps the fix budget', () => {
  ok(root, 'state', 'block', '1.1', '--reason', 'ask the user');
  ok(root, 'state', 'unblock', '1.1');
  assert.equal(readEvents(root).at(-1)?.fix_budget_reset, false);
  assert.equal(lessonOf(root, '1.1').fix_attempts_used, 1);
});

test('review rounds: the last allowed move back, then refused', () => {
  advance(root, '2.1', 'notes');
  ok(root, 'state', 'set', '2.1', 'readalong', '--note', 'round one');
  assert.equal(lessonOf(root, '2.1').review_rounds_used, 1);
  advance(root, '2.1', 'reviewed');
  ok(root, 'state', 'set', '2.1', 'spec', '--note', 'round two: wrong example');
  assert.equal(lessonOf(root, '2.1').review_rounds_used, 2);
  assert.equal(lessonOf(root, '2.1').verified, null);
  ok(root, 'state', 'set', '2.1', 'pending', '--note', 'moving back from spec uses no round');
  advance(root, '2.1', 'notes');
  refused(
    root,
    ['state', 'set', '2.1', 'readalong', '--note', 'round three'],
    /^error: lesson 2\.1: review rounds used up \(2 of 2\); it cannot move back from notes$/,
  );
  advance(root, '2.1', 'done');
  assert.equal(lessonOf(root, '2.1').stage, 'done');
});
