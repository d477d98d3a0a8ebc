// Replays test-fixtures/report-course/events.jsonl (recorded by scripts/record-report-fixture.ts
// through the real CLI, every unhappy path on purpose): the report is the committed one, byte for
// byte, from the log alone, and it tells each thing a person must see.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, scratchDir } from '../../cli/testing.ts';
import { ReportSchema } from '../../content-schemas/index.ts';
import { buildReport, renderReport } from './report.ts';
import { scanLog } from '../store/log.ts';

const FIXTURE = path.join(import.meta.dirname, 'test-fixtures', 'report-course');
const expectedMd = readFileSync(path.join(FIXTURE, 'report.md'), 'utf8');
const expectedJson = readFileSync(path.join(FIXTURE, 'report.json'), 'utf8');
const events = scanLog(path.join(FIXTURE, 'events.jsonl')).events;
const report = ReportSchema.parse(buildReport(events));
const lesson = (id: string) => report.lessons.find((l) => l.id === id)!;
const texts = (id: string) => lesson(id).story.map((entry) => entry.text);

test('the recorded log gives the committed report.md and report.json byte for byte', () => {
  assert.equal(events.length, 148);
  assert.equal(renderReport(buildReport(events)), expectedMd);
  assert.equal(`${JSON.stringify(buildReport(events), null, 2)}\n`, expectedJson);
});

test('codelabgen report regenerates the same files from events.jsonl alone', () => {
  const root = scratchDir('report-fixture');
  mkdirSync(path.join(root, '.codelabgen'));
  copyFileSync(path.join(FIXTURE, 'events.jsonl'), path.join(root, '.codelabgen', 'events.jsonl'));
  assert.equal(cli(['state', 'rebuild'], { cwd: root }).code, 0);
  const result = cli(['report'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(path.join(root, '.codelabgen', 'report.md'), 'utf8'), expectedMd);
  assert.equal(readFileSync(path.join(root, '.codelabgen', 'report.json'), 'utf8'), expectedJson);
});

test('what needs a human lists only what is open now; what people resolved is under decisions', () => {
  assert.deepEqual(
    report.needs_human.map((item) => `${item.kind} ${item.lesson}`),
    ['blocked 2.2', 'task-failed null'],
  );
  assert.deepEqual(
    report.decisions!.map((item) => `${item.kind} ${item.lesson} by ${item.by}`),
    [
      'decision 1.2 by user',
      'unblocked 1.2 by user',
      'unblocked 1.2 by user',
      'unblocked 2.2 by user',
      'reopened 2.2 by user',
    ],
  );
  // Nothing already resolved: 1.1's drift was verified again, 1.2's stale mark cleared by a move back,
  // its blocks lifted, its failed task followed by a finished one.
  assert.doesNotMatch(expectedMd, /## What needs a human\n\n[^#]*\*\*(drift|stale|was-blocked|budget-used-up)\*\*/);
  assert.match(
    expectedMd,
    /\n## Decisions\n\n- [^\n]+ \*\*decision\*\* by user: 1\.2: blank lines are not words; split on whitespace\n/,
  );
  assert.match(
    expectedMd,
    new RegExp(
      String.raw`^# Report: Streams, the hard way\n\nUp to event 148 [^\n]+\n\n## What needs a human\n\n- \*\*blocked\*\* ` +
        String.raw`2\.2 is blocked at spec: blocked for the user: which dataset now\?`,
    ),
  );
  assert.match(
    expectedMd,
    /\n- \*\*task-failed\*\* phase assembly: task t36 \(site-assembler\) failed: 2\.2's dataset page says CC BY-NC, not CC0\n/,
  );
});

test('three failing verifies keep their evidence; the third blocks; the unblock carries the user decision', () => {
  const failures = lesson('1.2').failures;
  assert.deepEqual(
    failures.map((f) => [f.run, f.blocked, f.tests?.failed]),
    [
      [1, false, 1],
      [3, false, 1],
      [4, true, 1],
    ],
    "run 2 was the fixer's read-only verify",
  );
  assert.deepEqual(
    failures[0]?.orchestrator_notes,
    ['counts words across lines fails'],
    'state fail after the verify: a note, no second count',
  );
  assert.deepEqual([lesson('1.2').fix_attempts, lesson('1.2').verify.runs, lesson('1.2').verify.read_only], [3, 6, 1]);
  assert.equal(
    failures[0]?.evidence,
    'counts words across lines\n  Expected values to be strictly equal:\n  4 !== 3\n  expected: 3\n  actual: 4',
  );
  assert.deepEqual(
    lesson('1.2').blocks.map((b) => [b.by, b.decision]),
    [
      ['fix-budget', 'blank lines are not words; split on whitespace (by user)'],
      ['user', 'one more round: fix the title case (by user)'],
    ],
  );
  assert.ok(
    texts('1.2').some((text) =>
      /^task t16 \(code-fixer\) failed after \d+s: could not tell whether blank lines count as words; gave up$/.test(
        text,
      ),
    ),
  );
  assert.ok(
    texts('1.2').some((text) => /^task t15 \(code-fixer\) done after \d+s, 1 heartbeat$/.test(text)),
    'a heartbeat is counted on its task',
  );
  assert.equal(
    lesson('1.2').story.filter((entry) => entry.kind === 'task.heartbeat').length,
    0,
    'a heartbeat is no story line',
  );
});

test('two review reworks with the findings, the refused third told by its block, the round the user granted, the pass after it', () => {
  const reviews = lesson('1.2').reviews;
  assert.deepEqual(
    reviews.map((r) => [r.verdict, r.round, r.findings.length]),
    [
      ['revise', 1, 1],
      ['revise', 2, 2],
      ['revise', 3, 1],
      ['pass', 4, 0],
      ['pass', 1, 0],
    ],
  );
  assert.deepEqual(
    texts('1.2').filter((text) => text.startsWith('moved back')),
    [
      'moved back notes → readalong (review round 1): reviewer: example 2 never shows the blank-line case',
      'moved back notes → readalong (review round 2): reviewer: notes should say why filter(Boolean) is needed',
      'moved back notes → readalong (review round 3): reviewer: title case',
      'moved back done → spec: redo from spec: 1.1 changed under it',
    ],
  );
  assert.ok(
    texts('1.2').includes(
      'blocked for the user: review rounds used up (2 of 2); the last finding is a nit: accept or rework?',
    ),
  );
  assert.ok(
    texts('1.2').includes(
      'unblocked with one more review round; decision: one more round: fix the title case (by user)',
    ),
  );
  assert.deepEqual([lesson('1.2').review_rounds, lesson('1.2').review_rounds_granted], [3, 1]);
  assert.match(
    expectedMd,
    /\n\| 1\.2 \| Counting words \| done \| 2\/2 tests passed \| 6 \(2 passed, 1 read-only\) \| 3 \| 3 \(1 granted\) \|/,
  );
  // The summary counts review rounds as the table does, and the other move back (done → spec) apart.
  assert.match(lesson('1.2').summary, /, 3 review rounds, 1 other rework,/);
});

test("a --reopen in assembly: in 2.2's story, under decisions, and as the phase the course went back to", () => {
  assert.ok(
    texts('2.2').includes(
      'reopened the course (assembly → lessons): moved back done → spec: the dataset is CC BY-NC after all: find another',
    ),
  );
  assert.equal(
    report.decisions!.at(-1)?.text,
    '2.2 reopened the course at assembly (moved back done → spec): the dataset is CC BY-NC after all: find another',
  );
  assert.deepEqual(
    report.phases.slice(-3).map((p) => [p.phase, p.reopened_from, p.ended_at === null]),
    [
      ['lessons', null, false],
      ['assembly', null, false],
      ['lessons', 'assembly', true],
    ],
  );
  assert.deepEqual(
    [report.phase, report.totals.reopens, lesson('2.2').stage, lesson('2.2').blocked],
    ['lessons', 1, 'spec', true],
  );
  assert.match(expectedMd, /\n\| lessons \(reopened from assembly\) \| [^|]+ \| \(current\) \| - \|  \|\n/);
});

test('phase tasks are counted by role and by phase, with their heartbeats, in the course events', () => {
  assert.deepEqual(
    report.tasks_by_phase.map((p) => [p.phase, p.roles, p.count, p.done, p.failed]),
    [
      ['recon', ['researcher'], 1, 1, 0],
      ['curriculum', ['curriculum-designer'], 1, 1, 0],
      ['assembly', ['site-assembler'], 1, 0, 1],
    ],
  );
  assert.deepEqual(
    report.phase_tasks.map((task) => [task.id, task.phase, task.heartbeats, task.status]),
    [
      ['t1', 'recon', 1, 'done'],
      ['t2', 'curriculum', 1, 'done'],
      ['t36', 'assembly', 1, 'failed'],
    ],
  );
  assert.ok(
    report.course_story.every((entry) => entry.kind === 'task.start'),
    'phase tasks, and no heartbeat lines',
  );
  assert.match(
    report.course_story[0]?.text ?? '',
    /^task t1 \(researcher, phase recon\) done after \d+s, 1 heartbeat: overview written$/,
  );
  assert.match(
    expectedMd,
    new RegExp(
      String.raw`## Phase tasks by phase\n\n\| phase \| roles \| tasks \| done \| failed \| reset \| running \| total ` +
        String.raw`\|\n\|[-|]+\n\| recon \| researcher \| 1 \| 1 \| 0 \| 0 \| 0 \| \d+s \|\n`,
    ),
  );
});

test('a lesson changed after its dependent was done: drift of 1.1, 1.2 stale and redone from spec', () => {
  assert.ok(
    texts('1.1').some((text) =>
      /^code changed after it was verified \([0-9a-f]{12} → [0-9a-f]{12}\); verified again$/.test(text),
    ),
  );
  assert.ok(
    texts('1.1').includes(
      'moved back done → code to verify the changed code again: code changed after verification (drift): lines() now splits \\r\\n too',
    ),
  );
  assert.equal(lesson('1.1').reworks, 0, 're-verifying after drift is no rework');
  assert.deepEqual(
    lesson('1.2').stale_marks.map((m) => m.cleared_at !== null),
    [true],
  );
  assert.equal(lesson('1.2').stage, 'done');
});

test('smooth lessons are one line; the numbers add up', () => {
  assert.deepEqual(
    report.lessons.map((l) => [l.id, l.smooth]),
    [
      ['1.1', false],
      ['1.2', false],
      ['2.1', true],
      ['2.2', false],
    ],
  );
  assert.match(
    expectedMd,
    /### Went smoothly\n\n- 2\.1 Reading CSV: done in \d+s, verified first time \(2\/2 tests passed\), 5 tasks\n\n### 1\.1/,
  );
  assert.doesNotMatch(expectedMd, /### 2\.1/);
  const t = report.totals;
  assert.deepEqual(
    [
      t.tests,
      t.verify_runs,
      t.verify_passed,
      t.verify_pass_rate,
      t.lessons_reworked,
      t.rework_rate,
      t.tasks,
      t.phase_tasks,
    ],
    [6, 10, 6, 0.6667, 2, 0.5, 36, 3],
  );
  for (const l of report.lessons) {
    const firstTask = l.tasks[0]?.started_at ?? null;
    assert.ok(
      l.started_at !== null &&
        l.started_at !== undefined &&
        firstTask !== null &&
        l.started_at <= firstTask &&
        l.started_at > l.registered_at,
      `${l.id}: wall time starts at its first task, not registration`,
    );
    assert.equal(l.wall_ms, Date.parse(l.done_at ?? report.generated_at) - Date.parse(l.started_at));
  }
  assert.deepEqual(
    report.tasks.map((r) => [r.role, r.count, r.failed]),
    [
      ['code-author', 5, 0],
      ['code-fixer', 3, 1],
      ['curriculum-designer', 1, 0],
      ['example-designer', 5, 0],
      ['lesson-reviewer', 5, 0],
      ['notes-writer', 7, 0],
      ['readalong-writer', 8, 0],
      ['researcher', 1, 0],
      ['site-assembler', 1, 1],
    ],
  );
});
