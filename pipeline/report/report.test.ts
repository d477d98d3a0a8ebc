// buildReport folds the event log alone; renderReport is markdown. Unit tests of the pure fold;
// report-fixture.test.ts replays a course log recorded by the real CLI.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Event, EventDraft } from '../../content-schemas/index.ts';
import { ReportSchema } from '../../content-schemas/index.ts';
import { buildReport, renderReport } from './report.ts';

const lessons = [
  {
    id: '1.1',
    title: 'One',
    slug: 'one',
    module_id: '1',
    module_slug: 'm',
    module_title: 'Mod | One',
    dir: '1-m/1.1-one',
  },
  {
    id: '1.2',
    title: 'Two',
    slug: 'two',
    module_id: '1',
    module_slug: 'm',
    module_title: 'Mod | One',
    dir: '1-m/1.2-two',
  },
];

/** Events one minute apart from 2026-01-01T00:00Z, seq from 1. */
function log(drafts: EventDraft[]): Event[] {
  return drafts.map(
    (draft, i) => ({ seq: i + 1, ts: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), ...draft }) as Event,
  );
}

const stage = (lesson: string, from: string, to: string, extra: Record<string, unknown> = {}) =>
  ({ kind: 'lesson.stage', lesson, from, to, note: null, review_round_used: false, ...extra }) as EventDraft;
const tests4 = { passed: 4, failed: 0, skipped: 0, total: 4 };

const EVENTS = log([
  { kind: 'course.init', title: 'C', topic: null },
  { kind: 'phase.advance', from: 'init', to: 'recon', approved: false },
  { kind: 'lessons.register', lessons, removed: [] },
  stage('1.1', 'pending', 'spec'),
  stage('1.1', 'spec', 'code'),
  {
    kind: 'lesson.fail',
    lesson: '1.1',
    note: 'adds: Expected values',
    fix_attempts_used: 1,
    blocked: true,
    via: 'verify',
    run: 1,
    tests: { passed: 1, failed: 1, skipped: 0, total: 2 },
    evidence: 'adds\n  2 !== 3',
  },
  { kind: 'log', fact: 'decision', lesson: '1.1', data: { by: 'user', decision: 'keep the example' } },
  { kind: 'lesson.unblock', lesson: '1.1', fix_budget_reset: true },
  { kind: 'lesson.verified', lesson: '1.1', code_hash: 'sha256:aaaa', run: 2, tests: tests4 },
  stage('1.1', 'verified', 'readalong'),
  stage('1.1', 'readalong', 'notes'),
  stage('1.1', 'notes', 'readalong', {
    note: 'example 2 unclear',
    review_round_used: true,
    review: {
      verdict: 'revise',
      reviewer: 'lesson-reviewer',
      round: 1,
      findings: [{ severity: 'major', where: 'docs/readalong.md', text: 'Example 2 skips a step.' }],
    },
  }),
  stage('1.1', 'readalong', 'notes'),
  stage('1.1', 'notes', 'reviewed', { review: { verdict: 'pass', round: 2, findings: [] } }),
  stage('1.1', 'reviewed', 'done'),
  { kind: 'task.start', task: 't1', lesson: '1.2', role: 'code-author' },
  {
    kind: 'task.finish',
    task: 't1',
    status: 'done',
    note: null,
    result: { lesson: '1.2', status: 'needs-user', stage: 'spec', artifacts: [], notes: 'which licence?' },
  },
  { kind: 'task.start', task: 't2', lesson: '1.2', role: 'code-author' },
  { kind: 'task.heartbeat', task: 't2', lease_seconds: 1200 },
  { kind: 'course.future', phase: 'recon', role: 'researcher' } as unknown as EventDraft,
]);

test('the story of a lesson: failure with evidence, block and decision, review rework with findings', () => {
  const report = ReportSchema.parse(buildReport(EVENTS));
  const one = report.lessons[0]!;
  assert.equal(one.stage, 'done');
  assert.equal(one.smooth, false);
  assert.deepEqual(
    one.story.map((entry) => `${entry.label}: ${entry.text}`),
    [
      'stage: pending → spec',
      'stage: spec → code',
      'failure: verify failed (run 1), 1/2 tests passed, 1 failed; fix attempt 1: adds: Expected values',
      'block: blocked: fix budget used up after 1 failed attempts',
      'decision: decision: keep the example (by user)',
      'unblock: unblocked with a fresh fix budget; decision: keep the example (by user)',
      'verify: verify passed (run 2): 4/4 tests passed',
      'stage: verified → readalong',
      'stage: readalong → notes',
      'rework: moved back notes → readalong (review round 1): example 2 unclear',
      'stage: readalong → notes',
      'review: review passed after 1 review round: notes → reviewed',
      'stage: reviewed → done',
    ],
  );
  assert.deepEqual(one.story[2]?.details, ['adds', '  2 !== 3']);
  assert.deepEqual(one.story[9]?.details, [
    'review: revise, round 1, by lesson-reviewer',
    '[major] docs/readalong.md: Example 2 skips a step.',
  ]);
  assert.deepEqual(one.blocks, [
    {
      at: '2026-01-01T00:05:00.000Z',
      reason: 'fix budget used up: adds: Expected values',
      by: 'fix-budget',
      unblocked_at: '2026-01-01T00:07:00.000Z',
      decision: 'keep the example (by user)',
    },
  ]);
  assert.equal(one.tests?.total, 4);
  assert.equal(one.wall_ms, 11 * 60_000, 'from its first event (no task), not from registration a minute before');
  assert.equal(one.pending_to_done_ms, 12 * 60_000);
});

test('what needs a human, numbers, and event kinds the report does not know', () => {
  const report = buildReport(EVENTS);
  assert.deepEqual(
    report.needs_human.map((item) => `${item.kind} ${item.lesson}`),
    ['task-needs-user 1.2'],
    'only what is open: 1.1 was unblocked',
  );
  assert.deepEqual(
    report.decisions!.map((item) => `${item.kind} ${item.lesson}`),
    ['decision 1.1', 'unblocked 1.1'],
  );
  assert.equal(report.generated_at, '2026-01-01T00:19:00.000Z', 'the clock is the last event');
  assert.deepEqual(
    [
      report.totals.verify_runs,
      report.totals.verify_passed,
      report.totals.verify_pass_rate,
      report.totals.tests,
      report.totals.rework_rate,
    ],
    [2, 1, 0.5, 4, 0.5],
  );
  const two = report.lessons[1]!;
  assert.deepEqual(
    two.story.map((entry) => entry.text),
    [
      'task t1 (code-author) done after 1m 0s, worker says needs-user: which licence?',
      'task t2 (code-author) still running (lease until 2026-01-01 00:38:00Z), 1 heartbeat',
    ],
  );
  assert.deepEqual(
    report.course_story.map((entry) => entry.text),
    ['course.future: phase=recon, role=researcher'],
  );
  assert.deepEqual(
    report.tasks.map((role) => [role.role, role.count, role.done, role.running]),
    [['code-author', 2, 1, 1]],
  );
});

test('renderReport: needs-a-human first, smooth lessons in one line, evidence kept in a block', () => {
  const smoothLog = log([
    { kind: 'course.init', title: 'C', topic: null },
    { kind: 'lessons.register', lessons, removed: [] },
    stage('1.2', 'pending', 'spec'),
  ]);
  const md = renderReport(buildReport([...EVENTS.slice(0, 15)]));
  assert.match(
    md,
    new RegExp(
      '^# Report: C\\n\\nUp to event 15 \\(2026-01-01 00:14:00Z\\), phase `recon`\\.\\n\\n## What needs a ' +
        String.raw`human\n\n[^#]+\n## Decisions\n\n- [^\n]+\*\*decision\*\* by user: 1\.1: keep the example\n- ` +
        String.raw`[^\n]+\*\*unblocked\*\* by user: 1\.1 unblocked`,
    ),
  );
  assert.match(
    md,
    new RegExp(
      String.raw`\n- 2026-01-01 00:05:00Z · verify failed \(run 1\), 1\/2 tests passed, 1 failed; fix attempt 1: adds: ` +
        'Expected values\\n\\n  ```text\\n  adds\\n    2 !== 3\\n  ```\\n',
    ),
  );
  assert.doesNotMatch(md, /### Went smoothly/, 'only a finished lesson went smoothly');
  assert.match(md, /\n### 1\.2 Two\n\n1\.2 Two: not started, not verified yet, 0 tasks\n/);
  assert.match(
    md,
    /\n\| 1\.2 \| Two \| pending \| - \| 0 \(0 passed\) \| 0 \| 0 \| 0s \|  \|\n/,
    'no wall time before its first task',
  );
  assert.match(
    renderReport(buildReport(smoothLog)),
    /## What needs a human\n\nNothing open: [^\n]+\n\n## Decisions\n\nNone: /,
  );
  assert.equal(
    renderReport(buildReport(EVENTS)),
    renderReport(buildReport(structuredClone(EVENTS))),
    'same log, same bytes',
  );
});

const PHASE_TASKS = log([
  { kind: 'course.init', title: 'C', topic: null },
  { kind: 'phase.advance', from: 'init', to: 'recon', approved: false },
  { kind: 'task.start', task: 't1', lesson: null, phase: 'recon', role: 'researcher', lease_seconds: 1200 },
  { kind: 'task.heartbeat', task: 't1', lease_seconds: 1200 },
  { kind: 'task.heartbeat', task: 't1', lease_seconds: 1200 },
  { kind: 'task.finish', task: 't1', status: 'done', note: 'overview written', result: null },
  { kind: 'phase.advance', from: 'recon', to: 'sources', approved: false },
  { kind: 'task.start', task: 't2', lesson: null, phase: 'sources', role: 'source-scout', lease_seconds: 1200 },
  { kind: 'task.finish', task: 't2', status: 'failed', note: 'the spec is paywalled', result: null },
  { kind: 'task.start', task: 't3', lesson: null, phase: 'sources', role: 'researcher', lease_seconds: 60 },
  { kind: 'task.heartbeat', task: 't3', lease_seconds: 60 },
  { kind: 'lessons.register', lessons, removed: [] },
  { kind: 'task.start', task: 't4', lesson: '1.1', role: 'researcher' },
]);

test('phase tasks are counted by role and by phase; a heartbeat is no story line and leaves the duration alone', () => {
  const report = ReportSchema.parse(buildReport(PHASE_TASKS));
  assert.deepEqual(report.tasks_by_phase, [
    { phase: 'recon', roles: ['researcher'], count: 1, done: 1, failed: 0, reset: 0, running: 0, total_ms: 3 * 60_000 },
    {
      phase: 'sources',
      roles: ['researcher', 'source-scout'],
      count: 2,
      done: 0,
      failed: 1,
      reset: 0,
      running: 1,
      total_ms: 60_000,
    },
  ]);
  assert.deepEqual(
    report.tasks.map((r) => [r.role, r.count, r.done, r.failed, r.running]),
    [
      ['researcher', 3, 1, 0, 2],
      ['source-scout', 1, 0, 1, 0],
    ],
  );
  assert.deepEqual(
    report.phase_tasks.map((task) => [task.id, task.phase, task.heartbeats, task.duration_ms]),
    [
      ['t1', 'recon', 2, 3 * 60_000],
      ['t2', 'sources', 0, 60_000],
      ['t3', 'sources', 1, null],
    ],
  );
  assert.deepEqual([report.totals.tasks, report.totals.phase_tasks], [4, 3]);
  assert.deepEqual(
    report.course_story.map((entry) => entry.text),
    [
      'task t1 (researcher, phase recon) done after 3m 0s, 2 heartbeats: overview written',
      'task t2 (source-scout, phase sources) failed after 1m 0s: the spec is paywalled',
      'task t3 (researcher, phase sources) still running (its lease ran out at 2026-01-01 00:11:00Z: interrupted?), 1 heartbeat',
    ],
  );
  assert.deepEqual(
    report.needs_human.map((item) => [item.kind, item.lesson, item.text]),
    [
      ['task-failed', null, 'phase sources: task t2 (source-scout) failed: the spec is paywalled'],
      [
        'task-interrupted',
        null,
        'phase sources: task t3 (researcher) interrupted: its lease ran out at 2026-01-01 00:11:00Z and it was never resumed or reset',
      ],
    ],
  );
  const md = renderReport(report);
  assert.match(md, /\| tasks \| 4 \(3 phase tasks\) \|/);
  assert.match(
    md,
    new RegExp(
      String.raw`## Phase tasks by phase\n\n\| phase \| roles \| tasks \| done \| failed \| reset \| running \| total ` +
        String.raw`\|\n\|---\|---\|---\|---\|---\|---\|---\|---\|\n\| recon \| researcher \| 1 \| 1 \| 0 \| 0 \| 0 \| 3m 0s ` +
        String.raw`\|\n\| sources \| researcher, source-scout \| 2 \| 0 \| 1 \| 0 \| 1 \| 1m 0s \|\n`,
    ),
  );
});

const REOPENED = log([
  { kind: 'course.init', title: 'C', topic: null },
  { kind: 'lessons.register', lessons, removed: [] },
  { kind: 'phase.advance', from: 'init', to: 'lessons', approved: false },
  stage('1.1', 'pending', 'spec'),
  { kind: 'lesson.block', lesson: '1.1', reason: 'review rounds used up' },
  { kind: 'log', fact: 'decision', lesson: '1.1', data: { by: 'user', decision: 'logged, then overridden' } },
  {
    kind: 'lesson.unblock',
    lesson: '1.1',
    fix_budget_reset: false,
    note: 'one more round for example 2',
    review_round_granted: true,
  },
  stage('1.1', 'spec', 'done'),
  { kind: 'phase.advance', from: 'lessons', to: 'assembly', approved: false },
  stage('1.1', 'done', 'code', { note: 'the user found a bug in the example', reopened: 'assembly' }),
]);

test('a --reopen is in the story, under decisions and in the phases; an unblock note is the decision, a granted round is counted', () => {
  const report = ReportSchema.parse(buildReport(REOPENED));
  assert.equal(report.phase, 'lessons');
  assert.deepEqual(
    report.phases.map((p) => [p.phase, p.ended_at, p.reopened_from]),
    [
      ['init', '2026-01-01T00:02:00.000Z', null],
      ['lessons', '2026-01-01T00:08:00.000Z', null],
      ['assembly', '2026-01-01T00:09:00.000Z', null],
      ['lessons', null, 'assembly'],
    ],
  );
  assert.equal(report.totals.reopens, 1);
  const one = report.lessons[0]!;
  assert.deepEqual(
    one.story.filter((e) => e.label === 'reopen' || e.label === 'unblock').map((e) => `${e.label}: ${e.text}`),
    [
      'unblock: unblocked with one more review round; decision: one more round for example 2 (by user)',
      'reopen: reopened the course (assembly → lessons): moved back done → code: the user found a bug in the example',
    ],
  );
  assert.deepEqual(
    [one.review_rounds_granted, one.blocks[0]?.decision, one.smooth],
    [1, 'one more round for example 2 (by user)', false],
  );
  assert.deepEqual(
    report.decisions!.map((item) => [item.kind, item.text]),
    [
      ['decision', '1.1: logged, then overridden'],
      ['unblocked', '1.1 unblocked (blocked for the user: review rounds used up): one more round for example 2'],
      ['reopened', '1.1 reopened the course at assembly (moved back done → code): the user found a bug in the example'],
    ],
  );
  assert.deepEqual(report.needs_human, [], 'nothing open: the reopen and the unblock were decided');
  assert.match(one.summary, /, 1 other rework, blocked once, reopened the course, 0 tasks$/);
  const md = renderReport(report);
  assert.match(md, /\| lessons \(reopened from assembly\) \| 2026-01-01 00:09:00Z \| \(current\) \| - \|  \|/);
  assert.match(md, /\| 1\.1 \| One \| code \| - \| 0 \(0 passed\) \| 0 \| 0 \(1 granted\) \|/);
  assert.match(md, /\| course reopened \| once \|/);
});
