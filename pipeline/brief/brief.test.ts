// The pure core of the briefs: the roles and the stage each reports, the example code reference,
// the schema outline and a brief rendered from facts built here (no disk).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LessonState } from '../../content-schemas/index.ts';
import { buildBrief } from './brief.ts';
import { exampleReference } from './conventions.ts';
import type { LessonFacts } from './facts.ts';
import { briefedPhase, LESSON_ROLES, PHASE_ROLES, workerRole } from './roles.ts';
import { schemaOutline } from './schema-outline.ts';

test('each lesson role works at its stage of the stage table and reports the stage its work completes', () => {
  assert.deepEqual(
    LESSON_ROLES.map((role) => [role.role, role.stage, role.reports]),
    [
      ['example-designer', 'pending', 'spec'],
      ['code-author', 'spec', 'code'],
      ['code-fixer', 'code', 'code'],
      ['readalong-writer', 'verified', 'readalong'],
      ['notes-writer', 'readalong', 'notes'],
      ['lesson-reviewer', 'notes', 'reviewed'],
    ],
  );
  assert.equal(briefedPhase(PHASE_ROLES[0]!, 'topics'), 'topics', 'the researcher works in any briefed phase');
  assert.equal(briefedPhase(workerRole('topic-extractor') as (typeof PHASE_ROLES)[number], undefined), 'topics');
  assert.throws(() => workerRole('orchestrator'), /unknown role "orchestrator"/);
});

test('the example reference names a code file that is not a test, inside its lines, or null without code', () => {
  const files = [
    { path: 'lines.test.mjs', lines: 40 },
    { path: 'README', lines: 3 },
    { path: 'src/lines.mjs', lines: 30 },
  ];
  assert.deepEqual(exampleReference(files), {
    fence: '```js file=src/lines.mjs lines=1-12 mark=2-3\n```',
    file: 'src/lines.mjs',
    lines: 30,
  });
  assert.equal(exampleReference([{ path: 'short.py', lines: 2 }])?.fence, '```python file=short.py lines=1-2\n```');
  assert.equal(exampleReference([{ path: 'img.png', lines: null }]), null);
  assert.equal(exampleReference([]), null);
});

test("a schema's outline has one line per field, nested objects indented, required ones marked", () => {
  const outline = schemaOutline('review').split('\n');
  assert.equal(
    outline[0],
    'Schema `review` (.codelabgen/lessons/<id>/review.md (YAML front matter); whole: codelabgen schema show review):',
  );
  assert.ok(
    outline.includes(
      '- verdict (one of "pass"|"revise", required): `pass` lets the lesson move to `reviewed`; `revise` sends it back.',
    ),
  );
  assert.ok(
    outline.includes('  - severity (one of "blocker"|"major"|"minor"|"nit", required): How much the finding matters.'),
  );
});

function fixerFacts(): LessonFacts {
  const lesson = {
    id: '1.2',
    title: 'Writable streams',
    module_id: '1',
    module_title: 'Basics',
    dir: '1-basics/1.2-writable',
    stage: 'code',
    blocked: null,
    fix_attempts_used: 2,
    review_rounds_used: 0,
    review_rounds_granted: 0,
    rework: null,
    last_verify_failure: { run: 3, code_hash: 'sha256:x', note: 'drain is never awaited' },
  } as unknown as LessonState;
  return {
    kind: 'lesson',
    role: LESSON_ROLES.find((role) => role.role === 'code-fixer')!,
    courseTitle: 'Streams',
    lesson,
    curriculum: null,
    spec: null,
    specProblem: null,
    runtime: 'node',
    testCommand: { argv: ['/opt/node/bin/node', '--test'], cwd: '1-basics/1.2-writable' },
    codeFiles: [{ path: 'write-all.mjs', lines: 20 }],
    docFiles: [],
    prerequisites: [],
    sources: [],
    budgets: { fix_attempts: 3, review_rounds: 2, parallel: 3 },
    failedRun: {
      run: 3,
      argv: ['/opt/node/bin/node', '--test'],
      cause: 'writeAll buffers: maxBuffered was 50',
      evidence: 'writeAll buffers\n  expected: 3\n  actual: 50',
      tests: { passed: 4, failed: 1, total: 5 },
      timedOut: false,
      file: '.codelabgen/runs/1.2/3.json',
    },
    review: null,
    changedSinceReview: [],
    checks: null,
    task: 't9',
  };
}

test("a code-fixer's brief, from facts: the failing test, the note, the budget left, the stage to report", () => {
  const brief = buildBrief(fixerFacts(), '/courses/streams');
  assert.equal(brief.reports, 'code');
  assert.deepEqual(brief.test_command, { command: 'node --test', cwd: '1-basics/1.2-writable' });
  assert.match(brief.text, /^Run 3 \(\.codelabgen\/runs\/1\.2\/3\.json\): node --test: 1 of 5 tests failed\.$/m);
  assert.match(brief.text, /```text\nwriteAll buffers\n {2}expected: 3\n {2}actual: 50\n```/);
  assert.match(brief.text, /^The orchestrator's note: drain is never awaited$/m);
  assert.match(brief.text, /^Fix budget: 1 of 3 attempts left/m);
  assert.match(brief.text, /^A long task renews its lease: codelabgen state task heartbeat t9$/m);
  assert.match(brief.text, /"stage":"code"/);
  assert.ok(!brief.text.includes('/opt/node'), 'the machine path of node is shown as node');
});
