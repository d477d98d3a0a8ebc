// buildReport folds the event log (replayed with apply) and run-results; renderReport is markdown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Event, EventDraft, RunResult, State } from '../content-schemas/index.ts';
import { ReportSchema } from '../content-schemas/index.ts';
import { buildReport, renderReport } from './report.ts';
import { apply } from './state/apply.ts';

const lessons = [
  { id: '1.1', title: 'One', slug: 'one', module_id: '1', module_slug: 'm', module_title: 'Mod | One', dir: '1-m/1.1-one' },
  { id: '1.2', title: 'Two', slug: 'two', module_id: '1', module_slug: 'm', module_title: 'Mod | One', dir: '1-m/1.2-two' },
];

function log(drafts: EventDraft[]): { state: State; events: Event[] } {
  let state: State | null = null;
  const events: Event[] = [];
  drafts.forEach((draft, i) => {
    const event = { seq: i + 1, ts: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), ...draft } as Event;
    state = apply(state, event);
    events.push(event);
  });
  return { state: state as unknown as State, events };
}

const stage = (lesson: string, from: string, to: string, round = false) => ({ kind: 'lesson.stage', lesson, from, to, note: null, review_round_used: round }) as EventDraft;

test('buildReport: phases, lesson history, tasks by role, facts', () => {
  const { state, events } = log([
    { kind: 'course.init', title: 'C', topic: null },
    { kind: 'phase.advance', from: 'init', to: 'recon', approved: false },
    { kind: 'lessons.register', lessons, removed: [] },
    stage('1.1', 'pending', 'spec'),
    stage('1.1', 'spec', 'code'),
    { kind: 'lesson.fail', lesson: '1.1', note: 'boom', fix_attempts_used: 1, blocked: true, via: 'state fail', run: null },
    { kind: 'lesson.unblock', lesson: '1.1', fix_budget_reset: true },
    { kind: 'lesson.verified', lesson: '1.1', code_hash: 'sha256:x', run: 2 },
    stage('1.1', 'verified', 'readalong'),
    stage('1.1', 'readalong', 'notes'),
    stage('1.1', 'notes', 'readalong', true),
    stage('1.1', 'readalong', 'notes'),
    stage('1.1', 'notes', 'reviewed'),
    stage('1.1', 'reviewed', 'done'),
    { kind: 'lesson.stale', lesson: '1.1', reason: 'upstream' },
    { kind: 'task.start', task: 't1', lesson: '1.2', role: 'code-author' },
    { kind: 'task.finish', task: 't1', status: 'done', note: null, result: null },
    { kind: 'task.start', task: 't2', lesson: '1.2', role: 'code-author' },
    { kind: 'log', fact: 'slow-test', lesson: '1.1', data: { seconds: '12' } },
  ]);
  const run = { run: 2, passed: true, tests: { passed: 4, failed: 0, skipped: 0, total: 4 }, started_at: '2026-01-01T00:06:00.000Z' } as RunResult;
  const failed = { run: 1, passed: false, tests: null, started_at: '2026-01-01T00:05:00.000Z' } as RunResult;
  const report = ReportSchema.parse(buildReport({ state, events, runs: new Map([['1.1', [failed, run]]]), now: new Date('2026-01-02T00:00:00.000Z') }));
  assert.deepEqual(report.phases.map((p) => [p.phase, p.duration_ms]), [['init', 60_000], ['recon', null]]);
  const one = report.lessons[0];
  assert.equal(one?.stage, 'done');
  assert.equal(one?.fix_attempts, 1);
  assert.equal(one?.review_rounds, 1);
  assert.equal(one?.reworks, 1);
  assert.deepEqual(one?.blocks.map((b) => [b.by, b.unblocked_at]), [['fix-budget', '2026-01-01T00:06:00.000Z']]);
  assert.deepEqual(one?.stale_marks.map((s) => [s.reason, s.cleared_at]), [['upstream', null]]);
  assert.equal(one?.pending_to_done_ms, 11 * 60_000);
  assert.deepEqual(one?.verify, { runs: 2, passed: 1, failed: 1, last_run: 2, last_passed: true, last_tests: run.tests, last_at: run.started_at });
  assert.equal(report.lessons[1]?.pending_to_done_ms, null);
  assert.deepEqual(report.tasks, [{ role: 'code-author', count: 2, done: 1, failed: 0, reset: 0, running: 1, total_ms: 60_000, mean_ms: 60_000, max_ms: 60_000 }]);
  assert.deepEqual(report.facts, [{ kind: 'slow-test', count: 1, entries: [{ at: '2026-01-01T00:18:00.000Z', lesson: '1.1', data: { seconds: '12' } }] }]);
  assert.equal(report.totals.stale, 1);
  const md = renderReport(report);
  assert.match(md, /^# Report: C\n/);
  assert.match(md, /\| 1\.1 \| One \| done \| 1 \| 1 \| 2 \(1 passed\) \| 4\/4 passed \| 11m 0s \| stale \|/);
  assert.match(md, /- 1\.1 blocked \(fix-budget\) 2026-01-01T00:05:00\.000Z until 2026-01-01T00:06:00\.000Z: fix budget used up: boom/);
  assert.match(md, /### slow-test \(1\)/);
});
