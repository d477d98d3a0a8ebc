// `codelabgen report` end to end: what verify and state set put into the log (failure evidence,
// test counts, the review in force) reaches report.json, and a refusal leaves the report alone.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { LESSON_DIRS, advance, courseWithLessons, ok, refused, write } from './protocol-fixture.ts';
import { cli, readEvents, removeDir } from './testing.ts';

const FAILING =
  "import test from 'node:test';\nimport assert from 'node:assert/strict';\ntest('answers', () => assert.equal(41, 42));\n";

test('a failing verify keeps its evidence and counts; a move back keeps the review findings', () => {
  const root = courseWithLessons({ '1.1': 'code' }, { config: 'budgets:\n  review_rounds: 1\n' });
  try {
    write(root, `${LESSON_DIRS['1.1']}/main.test.mjs`, FAILING);
    assert.equal(cli(['verify', '1.1', '--update-state'], { cwd: root }).code, 1);
    const fail = readEvents(root).at(-1) as Record<string, unknown>;
    assert.equal(fail.kind, 'lesson.fail');
    assert.equal(fail.note, 'answers: Expected values to be strictly equal: 41 !== 42');
    assert.equal(
      fail.evidence,
      'answers\n  Expected values to be strictly equal:\n  41 !== 42\n  expected: 42\n  actual: 41',
    );
    assert.deepEqual(fail.tests, { passed: 0, failed: 1, skipped: 0, total: 1 });

    write(root, `${LESSON_DIRS['1.1']}/main.test.mjs`, FAILING.replace('41', '42'));
    ok(root, 'verify', '1.1', '--update-state');
    advance(root, '1.1', 'notes');
    write(
      root,
      '.codelabgen/lessons/1.1/review.md',
      '---\nlesson: "1.1"\nverdict: revise\nround: 1\nfindings:\n  - { severity: major, where: docs/notes.md, text: Too short. }\n---\n',
    );
    ok(root, 'state', 'set', '1.1', 'readalong', '--note', 'reviewer: notes too short');
    advance(root, '1.1', 'notes');
    refused(root, ['state', 'set', '1.1', 'readalong', '--note', 'again'], /review rounds used up \(1 of 1\)/);

    const report = JSON.parse(ok(root, 'report', '--json'));
    const lesson = report.lessons.find((l: { id: string }) => l.id === '1.1');
    assert.equal(lesson.failures[0].evidence, fail.evidence);
    assert.deepEqual(lesson.tests, { passed: 1, failed: 0, skipped: 0, total: 1 });
    assert.deepEqual(
      lesson.reviews.map((r: { verdict: string; findings: unknown[] }) => [r.verdict, r.findings]),
      [['revise', [{ severity: 'major', where: 'docs/notes.md', text: 'Too short.' }]]],
    );
    assert.ok(
      lesson.story.some(
        (e: { text: string }) => e.text === 'moved back notes → readalong (review round 1): reviewer: notes too short',
      ),
    );
    assert.equal(report.needs_human.map((i: { kind: string }) => i.kind).join(','), '');
    assert.equal(report.last_seq, readEvents(root).length);
  } finally {
    removeDir(path.dirname(root));
  }
});

test(
  "the report's numbers are true: a re-verify after drift is no rework, read-only runs count, wall time starts " +
    'at the first task, only finished lessons went smoothly',
  () => {
    const root = courseWithLessons({ '1.1': 'done' });
    try {
      write(root, `${LESSON_DIRS['1.1']}/main.mjs`, 'export const answer = 42; // changed after verification\n');
      ok(root, 'state', 'set', '1.1', 'code', '--note', 'code changed');
      const back = readEvents(root).at(-1) as Record<string, unknown>;
      assert.deepEqual(
        [back.kind, back.to, back.drifted],
        ['lesson.stage', 'code', true],
        'the move back records the drift',
      );
      ok(root, 'verify', '1.1', '--update-state');
      advance(root, '1.1', 'done');
      const task = ok(root, 'state', 'task', 'start', '1.2').trim();
      ok(root, 'state', 'task', 'done', task);
      advance(root, '1.2', 'code');
      ok(root, 'verify', '1.2');
      ok(root, 'verify', '1.2');
      ok(root, 'verify', '1.2', '--update-state');
      ok(root, 'verify', '1.2'); // after the last verdict: only its run file tells of it
      const report = JSON.parse(ok(root, 'report', '--json'));
      const lesson = (id: string) => report.lessons.find((l: { id: string }) => l.id === id);
      assert.deepEqual(
        [lesson('1.1').reworks, lesson('1.1').review_rounds],
        [0, 0],
        're-verifying after drift is no rework',
      );
      assert.ok(
        lesson('1.1').story.some(
          (e: { label: string; text: string }) =>
            e.label === 'drift' && e.text === 'moved back done → code to verify the changed code again: code changed',
        ),
      );
      assert.equal(report.totals.lessons_reworked, 0);
      assert.deepEqual(
        [lesson('1.2').verify.runs, lesson('1.2').verify.passed, lesson('1.2').verify.read_only],
        [4, 1, 3],
        'read-only runs are runs, also those after the last verdict',
      );
      assert.equal(lesson('1.2').started_at, lesson('1.2').tasks[0].started_at, 'wall time starts at the first task');
      assert.ok(lesson('1.2').started_at > lesson('1.2').registered_at);
      assert.equal(lesson('1.2').wall_ms, Date.parse(report.generated_at) - Date.parse(lesson('1.2').started_at));
      assert.deepEqual(
        report.lessons.map((l: { id: string; smooth: boolean }) => [l.id, l.smooth]),
        [
          ['1.1', false],
          ['1.2', false],
          ['2.1', false],
        ],
        '1.2 and 2.1 are not finished; 1.1 drifted',
      );
      assert.equal(report.needs_human.length, 0, 'the drift was verified again: nothing open');
      const md = readFileSync(path.join(root, '.codelabgen', 'report.md'), 'utf8');
      assert.doesNotMatch(md, /### Went smoothly/);
      assert.match(
        md,
        /\n\| 1\.2 \| Writable streams \| verified \| 1\/1 tests passed \| 4 \(1 passed, 3 read-only\) \|/,
      );
    } finally {
      removeDir(path.dirname(root));
    }
  },
);
