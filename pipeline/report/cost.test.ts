// The report's cost section, folded from a small log: totals, groups, cache hits, the cost per done
// lesson, and which tasks count as rework and as fixing a failed verification.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Event, EventDraft, WorkerUsage } from '../../content-schemas/index.ts';
import { ReportSchema } from '../../content-schemas/index.ts';
import { costOf } from './cost.ts';
import { buildReport, renderReport } from './report.ts';

const registered = (id: string) => ({
  id,
  title: `L${id}`,
  slug: `l${id.replace('.', '-')}`,
  module_id: '1',
  module_slug: 'm',
  module_title: 'M',
  dir: `1-m/${id}-l`,
});

function log(drafts: EventDraft[]): Event[] {
  return drafts.map(
    (draft, i) => ({ seq: i + 1, ts: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), ...draft }) as Event,
  );
}
const stage = (lesson: string, from: string, to: string, extra: Record<string, unknown> = {}) =>
  ({ kind: 'lesson.stage', lesson, from, to, note: null, review_round_used: false, ...extra }) as EventDraft;
const start = (task: string, lesson: string | null, role: string, phase?: string) =>
  ({ kind: 'task.start', task, lesson, role, ...(phase ? { phase } : {}) }) as EventDraft;
const finish = (task: string, lesson: string | null, usage: WorkerUsage | undefined) =>
  ({
    kind: 'task.finish',
    task,
    status: 'done',
    note: null,
    result:
      lesson === null
        ? { phase: 'recon', status: 'ok', artifacts: [], ...(usage ? { usage } : {}) }
        : { lesson, status: 'ok', stage: 'code', artifacts: [], ...(usage ? { usage } : {}) },
  }) as EventDraft;
const fail = (lesson: string) =>
  ({
    kind: 'lesson.fail',
    lesson,
    note: 'boom',
    fix_attempts_used: 1,
    blocked: false,
    via: 'verify',
    run: 1,
    tests: null,
  }) as EventDraft;

const EVENTS = log([
  { kind: 'course.init', title: 'C', topic: null },
  { kind: 'phase.advance', from: 'init', to: 'recon', approved: false },
  start('t1', null, 'researcher', 'recon'),
  finish('t1', null, {
    model: 'm',
    input_tokens: 1000,
    output_tokens: 200,
    cache_read_tokens: 3000,
    cost_usd: 0.5,
    seconds: 60,
  }),
  { kind: 'phase.advance', from: 'recon', to: 'lessons', approved: false },
  { kind: 'lessons.register', lessons: [registered('1.1'), registered('1.2')], removed: [] },
  start('t2', '1.1', 'code-author'),
  finish('t2', '1.1', { input_tokens: 500, output_tokens: 500, cost_usd: 1 }),
  stage('1.1', 'pending', 'code'),
  fail('1.1'),
  start('t3', '1.1', 'code-fixer'), // fixing the failed verification
  finish('t3', '1.1', { input_tokens: 100, cache_write_tokens: 900, cost_usd: 0.25 }),
  { kind: 'lesson.verified', lesson: '1.1', code_hash: 'sha256:a', run: 2, tests: null },
  stage('1.1', 'verified', 'done'),
  stage('1.1', 'done', 'code', { note: 'redo' }),
  start('t4', '1.1', 'code-author'), // rework: 1.1 had been done
  finish('t4', '1.1', { output_tokens: 100, cost_usd: 0.75 }),
  stage('1.1', 'code', 'done'),
  start('t5', '1.2', 'code-author'),
  finish('t5', '1.2', undefined), // no usage given
]);

test('the cost in total, per phase, role and lesson, with cache hits, per done lesson, rework and fix shares', () => {
  const cost = costOf(EVENTS, ['1.1', '1.2'], 1);
  assert.deepEqual(
    [cost.tasks, cost.tasks_with_usage, cost.tokens, cost.cost_usd, cost.seconds],
    [5, 4, 6300, 2.5, 60],
  );
  // 3000 cache reads of 1600 input + 3000 read + 900 written.
  assert.equal(cost.cache_hit_rate, 0.5455);
  assert.equal(cost.cost_per_done_lesson_usd, 2.5);
  assert.deepEqual([cost.rework.tasks, cost.rework.cost_usd, cost.rework.share], [1, 0.75, 0.3]);
  assert.deepEqual([cost.failed_verify.tasks, cost.failed_verify.cost_usd, cost.failed_verify.share], [1, 0.25, 0.1]);
  assert.deepEqual(
    cost.by_phase.map((row) => [row.phase, row.tasks, row.cost_usd]),
    [
      ['recon', 1, 0.5],
      ['lessons', 4, 2],
    ],
  );
  assert.deepEqual(
    cost.by_role.map((row) => [row.role, row.tasks, row.cost_usd]),
    [
      ['code-author', 3, 1.75],
      ['code-fixer', 1, 0.25],
      ['researcher', 1, 0.5],
    ],
  );
  assert.deepEqual(
    cost.by_lesson.map((row) => [row.lesson, row.tasks, row.tasks_with_usage, row.cost_usd]),
    [
      ['1.1', 3, 3, 2],
      ['1.2', 1, 0, 0],
    ],
  );
});

test('report.json carries the cost section and report.md tells it', () => {
  const report = ReportSchema.parse(buildReport(EVENTS));
  assert.equal(report.cost?.cost_usd, 2.5);
  const md = renderReport(report);
  assert.match(
    md,
    new RegExp(
      String.raw`## Cost\n\n\$2\.50 and 6,300 tokens in all \(4 of 5 tasks recorded a usage\); cache hits 55% of the ` +
        String.raw`input; \$2\.50 per done lesson\.\nRework \(lessons back at a stage they had passed\): \$0\.75, 30%; ` +
        String.raw`fixing failed verifications: \$0\.25, 10%\.`,
    ),
  );
  assert.match(md, /\| code-fixer \| 1\/1 \| 100 \| 0 \| 0 \| 900 \| \$0\.25 \| /);
  const none = renderReport(buildReport(EVENTS.filter((event) => event.kind !== 'task.finish')));
  assert.match(none, /## Cost\n\nNo task recorded a usage/);
});
