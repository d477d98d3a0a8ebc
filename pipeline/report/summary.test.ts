// state show's summary stays readable at 300 lessons: counts and the lessons needing attention.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LessonState, Stage, State } from '../../content-schemas/index.ts';
import { buildSummary } from './summary.ts';

const T0 = '2026-01-01T00:00:00.000Z';

function lesson(m: number, n: number, stage: Stage): LessonState {
  return {
    id: `${m}.${n}`,
    title: `Lesson ${m}.${n}`,
    slug: 'l',
    module_id: String(m),
    module_slug: 'm',
    module_title: `Module ${m}`,
    dir: `${m}-m/${m}.${n}-l`,
    stage,
    blocked: null,
    stale: null,
    fix_attempts_used: 0,
    fix_budget_resets: 0,
    review_rounds_used: 0,
    verified: null,
    last_failure: null,
    updated_at: T0,
  };
}

function course(): State {
  const lessons: LessonState[] = [];
  for (let m = 1; m <= 10; m += 1)
    for (let n = 1; n <= 30; n += 1)
      lessons.push(lesson(m, n, m <= 3 ? 'done' : n === 1 && m <= 6 ? 'code' : 'pending'));
  const blocked = lessons[100] as LessonState;
  blocked.blocked = { reason: 'needs a key', by: 'user', at: T0 };
  return {
    schema_version: 1,
    title: 'Big course',
    topic: null,
    created_at: T0,
    phase: 'lessons',
    phase_history: [],
    last_seq: 900,
    log_bytes: 0,
    lesson_order: lessons.map((item) => item.id),
    lessons: Object.fromEntries(lessons.map((item) => [item.id, item])),
    tasks: {
      t1: {
        id: 't1',
        lesson: '5.1',
        role: 'code-fixer',
        status: 'running',
        started_at: T0,
        finished_at: null,
        note: null,
        result: null,
      },
    },
    task_counter: 1,
    last_site_build: null,
  };
}

const input = {
  state: course(),
  budgets: { fix_attempts: 3, review_rounds: 2, parallel: 3 },
  actions: [],
  drifted: new Set(['2.5']),
  now: new Date('2026-01-01T00:30:00.000Z'),
};

test('summary at 300 lessons: counts, one line per module, only lessons needing attention', () => {
  const lines = buildSummary({ ...input, all: false });
  assert.ok(lines.length < 55, `${lines.length} lines`);
  assert.equal(lines[3], 'lessons: 300 (pending 207, code 3, done 90; blocked 1, drifted 1)');
  assert.ok(lines.includes('module 4 Module 4: 0/30 done (pending 29, code 1; blocked 1)'), lines.join('\n'));
  assert.ok(
    lines.some((line) => line.startsWith('  4.11   pending') && line.includes('[BLOCKED (user): needs a key]')),
  );
  assert.ok(lines.some((line) => line.startsWith('  2.5    done') && line.includes('DRIFTED')));
  assert.ok(lines.some((line) => line.startsWith('  5.1    code') && line.includes('task t1 code-fixer')));
  assert.ok(
    lines.includes('  t1 5.1 code-fixer since 2026-01-01T00:00:00.000Z, interrupted (started without a lease)'),
    lines.join('\n'),
  );
  assert.ok(lines.includes('open tasks: 1 (1 interrupted)'));
});

test('summary says how many lessons of each module it left out, also when it left out all of them', () => {
  const lines = buildSummary({ ...input, all: false });
  const shown = lines.filter((line) => /^ {2}\d+\.\d+ /.test(line)).length;
  const leftOut = lines
    .map((line) => /^ {2}\((?:all )?(\d+)(?: more)? pending or done, not listed; --all lists them\)$/.exec(line))
    .filter((match) => match !== null)
    .reduce((sum, match) => sum + Number(match[1]), 0);
  assert.equal(shown + leftOut, 300);
  assert.ok(lines.includes('  (all 30 pending or done, not listed; --all lists them)'), lines.join('\n'));
});

test('summary --all lists every lesson', () => {
  const lines = buildSummary({ ...input, all: true });
  assert.equal(lines.filter((line) => /^ {2}\d+\.\d+ /.test(line)).length, 300);
});
