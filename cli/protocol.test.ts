// The complete happy path through the real CLI: init → every phase with its artifacts → register →
// two modules of lessons through every stage → assembly → done → report; then replay equals state.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ReportSchema, StateSchema } from '../content-schemas/index.ts';
import {
  advance,
  courseAt,
  courseWithLessons,
  lessonOf,
  ok,
  readJson,
  refused,
  simulateVerified,
  writeStageArtifact,
} from './protocol-fixture.ts';
import { cli, readEvents, readState, removeDir } from './testing.ts';

/** A real verification through `codelabgen verify`. */
function verify(root: string, id: string): void {
  const result = cli(['verify', id, '--update-state'], { cwd: root });
  assert.equal(result.code, 0, `verify ${id}: ${result.stdout}${result.stderr}`);
}

test('happy path: init → every phase → register → lessons through every stage → assembly → done → report', {
  timeout: 600_000,
}, () => {
  const root = courseAt('scaffold');
  try {
    // scaffold: register adds the lessons and makes the folders; registering again changes nothing.
    refused(
      root,
      ['state', 'phase', 'lessons'],
      /cannot leave scaffold: lesson 1\.1: in the curriculum but not registered \(run: codelabgen register\) \(and 2 more\)/,
    );
    assert.match(
      ok(root, 'register'),
      /^registered 3 lessons: 3 added, 0 updated, 0 removed \(seq \d+\)\ncreated 3 lesson folders\n$/,
    );
    for (const dir of ['1-basics/1.1-readable/docs', '1-basics/1.2-writable/docs', '2-advanced/2.1-transform/docs'])
      assert.ok(existsSync(path.join(root, dir)), dir);
    const seq = readState(root).last_seq;
    assert.match(ok(root, 'register'), /0 added, 0 updated, 0 removed \(state unchanged\)/);
    assert.equal(readState(root).last_seq, seq);
    ok(root, 'state', 'phase', 'lessons');

    // The planner offers the first lesson of each module.
    const next = JSON.parse(ok(root, 'state', 'next'));
    assert.deepEqual(
      next.lessons.map((item: { lesson: string }) => item.lesson),
      ['1.1', '2.1'],
    );
    assert.deepEqual(next.lessons[0], {
      lesson: '1.1',
      module: '1',
      stage: 'pending',
      next_stage: 'spec',
      role: 'example-designer',
      action: 'example-designer writes .codelabgen/lessons/1.1/spec.yaml, then codelabgen state set 1.1 spec',
      task: null,
      drifted: false,
    });

    for (const id of ['1.1', '1.2', '2.1']) {
      const task = ok(root, 'state', 'task', 'start', id, '--role', 'example-designer').trim();
      assert.match(task, /^t\d+$/);
      writeStageArtifact(root, id, 'spec');
      ok(root, 'state', 'task', 'done', task, '--note', 'spec written');
      advance(root, id, 'done', verify);
      assert.equal(lessonOf(root, id).stage, 'done');
    }
    assert.equal(JSON.parse(ok(root, 'state', 'next')).actions[0].done, true);
    ok(root, 'state', 'log', 'source-unreachable', '--lesson', '1.2', '--data', 'url=https://example.com');
    ok(root, 'state', 'phase', 'assembly');

    // assembly: a site build and report.md are required to leave it.
    refused(
      root,
      ['state', 'phase', 'done'],
      /cannot leave assembly: no successful site build recorded yet \(and 1 more\)/,
    );
    assert.match(
      ok(root, 'report'),
      /wrote \.codelabgen\/report\.md and \.codelabgen\/report\.json: 3 lessons, 3 done/,
    );
    const report = ReportSchema.parse(readJson(root, '.codelabgen/report.json'));
    assert.equal(report.totals.done, 3);
    assert.equal(report.lessons.find((lesson) => lesson.id === '1.2')?.pending_to_done_ms !== null, true);
    assert.equal(report.facts[0]?.kind, 'source-unreachable');
    assert.equal(report.tasks[0]?.role, 'example-designer');
    assert.equal(report.tasks[0]?.done, 3);
    assert.ok(report.totals.verify_runs >= 3);
    refused(root, ['state', 'phase', 'done'], /cannot leave assembly: no successful site build recorded yet/);
    const build = cli(['site', 'build', '--out', path.join(path.dirname(root), 'site-out')], {
      cwd: root,
      timeoutMs: 240_000,
    });
    assert.equal(build.code, 0, `site build: ${build.stdout}${build.stderr}`);
    assert.equal(readEvents(root).at(-1)?.kind, 'site.build');
    ok(root, 'report');
    assert.match(
      ok(root, 'state', 'phase', 'done'),
      /^phase assembly → done \(seq \d+\); report refreshed: \.codelabgen\/report\.md, \.codelabgen\/report\.json\n$/,
    );
    assert.equal(readState(root).phase, 'done');
    refused(root, ['state', 'phase', 'done'], /^error: the course is already at the last phase \(done\)$/);

    // Replay of the whole log equals the stored state.
    StateSchema.parse(readState(root));
    const check = cli(['check', '--json'], { cwd: root });
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.ok(readEvents(root).length > 30);
  } finally {
    removeDir(path.dirname(root));
  }
});

test('report is computed from the event log: right after events the state has not applied yet', () => {
  const root = courseWithLessons({ '1.1': 'code' });
  try {
    ok(root, 'state', 'fail', '1.1', '--note', 'boom');
    simulateVerified(root, '1.1'); // appended then replayed by the next command
    const report = JSON.parse(ok(root, 'report', '--json'));
    const lesson = report.lessons.find((item: { id: string }) => item.id === '1.1');
    assert.equal(lesson.stage, 'verified');
    assert.equal(lesson.fix_attempts, 1);
    assert.equal(lesson.failures[0].note, 'boom');
    assert.deepEqual(ReportSchema.parse(readJson(root, '.codelabgen/report.json')).lessons[0]?.failures.length, 1);
    assert.match(ok(root, 'state', 'show'), /phase: lessons/);
  } finally {
    removeDir(path.dirname(root));
  }
});
