// Refusals of docs/protocol.md "Phases" and "Lesson stages" (and register, tasks, status check) through
// the real CLI: exit 2, exactly one `error:` line, and every file byte-identical afterwards. At least one
// per command, and every artifact check (facts read from the course); the pure rules are tabled in
// pipeline/protocol/*.test.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  advance,
  ARTIFACTS_BY_PHASE,
  courseAt,
  CURRICULUM,
  courseWithLessons,
  LESSON_DIRS,
  ok,
  refused,
  write,
  writeStageArtifact,
} from './protocol-fixture.ts';
import { cli, makeCourse, removeDir } from './testing.ts';

const roots: string[] = [];
after(() => roots.forEach((root) => removeDir(path.dirname(root))));
function track(root: string): string {
  roots.push(root);
  return root;
}

describe('phases (section 2)', () => {
  test('only the next phase, by name', () => {
    const root = track(makeCourse());
    refused(
      root,
      ['state', 'phase', 'sources'],
      /^error: cannot move from init to sources: phases move one step at a time; the next phase is recon$/,
    );
  });

  test('leaving a phase with missing or invalid artifacts lists them', () => {
    const root = track(courseAt('recon'));
    refused(
      root,
      ['state', 'phase', 'sources'],
      /^error: cannot leave recon: \.codelabgen\/research\/overview\.md: missing$/,
    );
    write(root, '.codelabgen/research/overview.md', '');
    refused(root, ['state', 'phase', 'sources'], /overview\.md: empty$/);
    ARTIFACTS_BY_PHASE.recon?.(root);
    ok(root, 'state', 'phase', 'sources');
    refused(
      root,
      ['state', 'phase', 'gate_sources'],
      /^error: cannot leave sources: \.codelabgen\/sources\.jsonl: missing \(and 1 more\)$/,
    );
    write(
      root,
      '.codelabgen/sources.jsonl',
      '{"id":"a","title":"A","url":"ftp://x","kind":"article","status":"accepted"}\n',
    );
    refused(root, ['state', 'phase', 'gate_sources'], /sources\.jsonl: line 1: url: /);
    write(
      root,
      '.codelabgen/sources.jsonl',
      '{"id":"a","title":"A","url":"https://x.dev","kind":"article","status":"rejected"}\n',
    );
    refused(root, ['state', 'phase', 'gate_sources'], /no source has status "accepted"/);
    write(
      root,
      '.codelabgen/sources.jsonl',
      '{"id":"a","title":"A","url":"https://x.dev","kind":"article","status":"accepted"}\n',
    );
    refused(
      root,
      ['state', 'phase', 'gate_sources'],
      /^error: cannot leave sources: \.codelabgen\/sources\/a\.md: missing$/,
    );
  });

  test('gates need --approved; topics and curriculum are validated', () => {
    const root = track(courseAt('gate_sources'));
    refused(
      root,
      ['state', 'phase', 'topics'],
      /^error: leaving gate_sources needs the user's approval: codelabgen state phase topics --approved$/,
    );
    ok(root, 'state', 'phase', 'topics', '--approved');
    refused(
      root,
      ['state', 'phase', 'curriculum'],
      /^error: cannot leave topics: \.codelabgen\/topics\/node-docs\.jsonl: missing$/,
    );
    ARTIFACTS_BY_PHASE.topics?.(root);
    ok(root, 'state', 'phase', 'curriculum');
    write(root, '.codelabgen/curriculum.yaml', CURRICULUM.replace('slug: basics', 'slug: Basics!'));
    write(root, '.codelabgen/plan.md', '# Plan\n');
    refused(
      root,
      ['state', 'phase', 'gate_plan'],
      /^error: cannot leave curriculum: \.codelabgen\/curriculum\.yaml: modules\[0\]\.slug: expected a lowercase kebab-case slug/,
    );
  });
});

describe('register', () => {
  let root = '';
  before(() => {
    root = track(courseAt('scaffold'));
  });
  const cases: Array<[string, string, RegExp]> = [
    [
      'duplicate lesson id',
      CURRICULUM.replace('id: "2.1"', 'id: "1.1"'),
      /^error: \.codelabgen\/curriculum\.yaml: modules\[1\]\.lessons\[0\]\.id: duplicate lesson id "1\.1" \(also at modules\[0\]\.lessons\[0\]\)$/,
    ],
    ['duplicate module id', CURRICULUM.replace('id: "2"', 'id: "1"'), /modules\[1\]\.id: duplicate module id "1"/],
    [
      'unsafe slug',
      CURRICULUM.replace('slug: readable', 'slug: ../up'),
      /modules\[0\]\.lessons\[0\]\.slug: expected a lowercase kebab-case slug/,
    ],
    [
      'unknown prerequisite',
      CURRICULUM.replace('prerequisites: ["1.1"]', 'prerequisites: ["9.9"]'),
      /modules\[0\]\.lessons\[1\]\.prerequisites\[0\]: unknown lesson "9\.9"$/,
    ],
    [
      'later prerequisite',
      CURRICULUM.replace('prerequisites: ["1.1"]', 'prerequisites: ["2.1"]'),
      /prerequisites\[0\]: "2\.1" comes later in the curriculum/,
    ],
    [
      'two lessons sharing one folder (1.1 + slug x-y, 1.1-x + slug y)',
      CURRICULUM.replace('{ id: "1.1", slug: readable', '{ id: "1.1", slug: x-y').replace(
        '{ id: "1.2", slug: writable',
        '{ id: "1.1-x", slug: y',
      ),
      new RegExp(
        String.raw`^error: \.codelabgen\/curriculum\.yaml: modules\[0\]\.lessons\[1\]: lessons 1\.1 ` +
          String.raw`\(modules\[0\]\.lessons\[0\]\) and 1\.1-x both map to the folder 1-basics\/1\.1-x-y$`,
      ),
    ],
  ];
  for (const [name, text, pattern] of cases) {
    test(`refuses ${name}`, () => {
      write(root, '.codelabgen/curriculum.yaml', text);
      refused(root, ['register'], pattern);
    });
  }

  test('refuses to drop or move a progressed lesson unless --allow-drop', () => {
    write(root, '.codelabgen/curriculum.yaml', CURRICULUM);
    ok(root, 'register');
    ok(root, 'state', 'phase', 'lessons');
    advance(root, '2.1', 'spec');
    write(root, '.codelabgen/curriculum.yaml', CURRICULUM.split('  - id: "2"')[0] ?? '');
    refused(
      root,
      ['register'],
      /^error: lesson 2\.1 \(at spec\) is no longer in the curriculum; register refuses to drop a lesson that has progressed$/,
    );
    write(root, '.codelabgen/curriculum.yaml', CURRICULUM.replace('slug: transform', 'slug: transforms'));
    write(root, '.codelabgen/curriculum.yaml', CURRICULUM.split('  - id: "2"')[0] ?? '');
    assert.match(ok(root, 'register', '--allow-drop'), /0 added, 0 updated, 1 removed/);
  });
});

describe('lesson stages (section 3)', () => {
  let root = '';
  before(() => {
    root = track(
      courseWithLessons(
        {},
        { config: 'budgets: { fix_attempts: 3, review_rounds: 1, parallel: 3 }\n', register: true },
      ),
    );
  });

  test('an unknown lesson', () => {
    refused(root, ['state', 'set', '9.9', 'spec'], /^error: unknown lesson "9\.9"$/);
  });

  test('each forward move checks its artifact', () => {
    refused(
      root,
      ['state', 'set', '1.1', 'spec'],
      /^error: lesson 1\.1: cannot move to spec: \.codelabgen\/lessons\/1\.1\/spec\.yaml: missing$/,
    );
    write(root, '.codelabgen/lessons/1.1/spec.yaml', 'lesson: "1.1"\ntitle: T\n');
    refused(root, ['state', 'set', '1.1', 'spec'], /spec\.yaml: goal: /);
    write(root, '.codelabgen/lessons/1.1/spec.yaml', 'lesson: "1.2"\ntitle: T\ngoal: G\n');
    refused(root, ['state', 'set', '1.1', 'spec'], /spec\.yaml: lesson: is "1\.2", expected "1\.1"/);
    writeStageArtifact(root, '1.1', 'spec');
    ok(root, 'state', 'set', '1.1', 'spec');
    refused(
      root,
      ['state', 'set', '1.1', 'code'],
      /^error: lesson 1\.1: cannot move to code: 1-basics\/1\.1-readable: no code files/,
    );
    writeStageArtifact(root, '1.1', 'code');
    ok(root, 'state', 'set', '1.1', 'code');
    advance(root, '1.1', 'verified');
    write(root, `${LESSON_DIRS['1.1']}/docs/readalong.md`, '');
    refused(root, ['state', 'set', '1.1', 'readalong'], /docs\/readalong\.md: empty$/);
    advance(root, '1.1', 'readalong');
    refused(root, ['state', 'set', '1.1', 'notes'], /docs\/notes\.md: missing$/);
    advance(root, '1.1', 'notes');
    write(root, '.codelabgen/lessons/1.1/review.md', '---\nlesson: "1.1"\nverdict: revise\n---\n');
    refused(
      root,
      ['state', 'set', '1.1', 'reviewed'],
      /review\.md: verdict: is "revise"; moving to reviewed needs verdict pass/,
    );
    advance(root, '1.1', 'reviewed');
    writeFileSync(path.join(root, LESSON_DIRS['1.1'] as string, 'main.mjs'), 'export const answer = 43;\n');
    refused(
      root,
      ['state', 'set', '1.1', 'done'],
      new RegExp(
        String.raw`^error: lesson 1\.1: cannot move to done: lesson 1\.1: code changed since it was verified ` +
          String.raw`\(sha256:[0-9a-f]{64}\); move it back to code and verify again$`,
      ),
    );
    const check = cli(['check'], { cwd: root });
    assert.equal(check.code, 1, check.stdout + check.stderr);
    assert.match(
      check.stdout + check.stderr,
      /lesson 1\.1: code changed since it was verified; move it back to code and verify again/,
    );
    const item = JSON.parse(ok(root, 'state', 'next')).lessons.find(
      (work: { lesson: string }) => work.lesson === '1.1',
    );
    assert.deepEqual([item.drifted, item.role], [true, 'verify']);
    assert.match(ok(root, 'state', 'show'), /DRIFTED: code changed since verified/);
    writeStageArtifact(root, '1.1', 'code');
    ok(root, 'state', 'set', '1.1', 'done');
  });

  test('stale only for done lessons; a stale lesson keeps the course in lessons; review rounds run out', () => {
    refused(
      root,
      ['state', 'stale', '1.2', '--reason', 'x'],
      /^error: lesson 1\.2 is at pending: only a done lesson can be marked stale$/,
    );
    ok(root, 'state', 'stale', '1.1', '--reason', 'upstream renamed');
    refused(root, ['state', 'phase', 'assembly'], /lesson 1\.1: stale \(upstream renamed\)/);
    ok(root, 'state', 'set', '1.1', 'notes', '--note', 'rework after upstream change'); // from done: no review round
    ok(root, 'state', 'set', '1.1', 'readalong', '--note', 'reviewer asked'); // uses the only round
    advance(root, '1.1', 'notes');
    refused(
      root,
      ['state', 'set', '1.1', 'readalong', '--note', 'again'],
      /^error: lesson 1\.1: review rounds used up \(1 of 1\); it cannot move back from notes$/,
    );
  });

  test('fail only at code; block needs a reason; unblock needs a block', () => {
    refused(
      root,
      ['state', 'fail', '1.2', '--note', 'x'],
      /^error: lesson 1\.2 is at pending; a failure is recorded only at stage code$/,
    );
    advance(root, '1.2', 'code');
    refused(root, ['state', 'unblock', '1.2'], /^error: lesson 1\.2 is not blocked$/);
    refused(root, ['state', 'block', '1.2'], /--reason "\.\.\." is required/);
    ok(root, 'state', 'block', '1.2', '--reason', 'needs an API key');
    refused(
      root,
      ['state', 'phase', 'assembly'],
      /^error: cannot leave lessons: lesson 1\.[12]: at (notes|code), not done( \(blocked\))? \(and [12] more\)$/,
    );
  });
});

describe('tasks and worker status', () => {
  let root = '';
  before(() => {
    root = track(courseAt('scaffold'));
    ok(root, 'register');
  });

  test('one running task per lesson; finishing needs a running task; results are validated', () => {
    refused(
      root,
      ['state', 'task', 'start', '1.1', '--role', ''],
      /^error: --role "": expected a worker role in kebab-case/,
    );
    assert.equal(ok(root, 'state', 'task', 'start', '1.1', '--role', 'example-designer'), 't1\n');
    refused(
      root,
      ['state', 'task', 'start', '1.1', '--role', 'code-author'],
      /^error: lesson 1\.1 already has a running task t1 \(example-designer, started /,
    );
    refused(root, ['state', 'task', 'done', 't9'], /^error: unknown task "t9"$/);
    refused(
      root,
      ['state', 'task', 'done', 't1', '--result', '-'],
      /^error: \(stdin\): status: /,
      'done. {"lesson":"1.1","status":"great","stage":"spec"}',
    );
    refused(root, ['status', 'check', '-'], /no JSON object found/, 'I could not finish.');
    ok(root, 'state', 'task', 'reset', 't1', '--note', 'orchestrator restarted');
    refused(root, ['state', 'task', 'reset', 't1'], /is not running/);
  });
});
