// Pure decisions of the orchestrator protocol: one count per failure, open tasks, leases,
// reopening, rework, prerequisites. Table-driven where the rule is a table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LessonState, Stage, State, Task } from '../../content-schemas/index.ts';
import { countedByVerify } from './fix-budget.ts';
import { decidePhaseTaskStart, decideTaskStart, isOpen, listTasks, parseLease } from './tasks.ts';
import { activeRework, planNext } from './planner.ts';
import { changedPrerequisites } from './prerequisites.ts';
import { decideSet, decideUnblock, reviewRounds, staleReview, type StageMoveFacts } from './stages.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const NOW = new Date('2026-01-01T00:10:00.000Z');
const NO_FACTS: StageMoveFacts = { forwardProblems: [], review: {} };
const BUDGETS = { fix_attempts: 3, review_rounds: 2, parallel: 3 };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

function lesson(id: string, stage: Stage, extra: Partial<LessonState> = {}): LessonState {
  const module = id.split('.')[0] as string;
  return {
    id,
    title: `Lesson ${id}`,
    slug: `l${id.replace('.', '-')}`,
    module_id: module,
    module_slug: `m${module}`,
    module_title: `Module ${module}`,
    dir: `${module}-m${module}/${id}-l`,
    stage,
    blocked: null,
    stale: null,
    fix_attempts_used: 0,
    fix_budget_resets: 0,
    review_rounds_used: 0,
    verified: null,
    last_failure: null,
    updated_at: T0,
    ...extra,
  };
}

function task(id: string, lessonId: string, status: Task['status'] = 'running'): Task {
  return {
    id,
    lesson: lessonId,
    role: 'code-author',
    status,
    started_at: T0,
    finished_at: status === 'running' ? null : T0,
    note: null,
    result: null,
  };
}

function state(lessons: LessonState[], tasks: Task[] = [], phase: State['phase'] = 'lessons'): State {
  return {
    schema_version: 1,
    title: 'C',
    topic: null,
    created_at: T0,
    phase,
    phase_history: [{ phase: 'init', entered_at: T0, seq: 1 }],
    last_seq: 1,
    log_bytes: 0,
    lesson_order: lessons.map((item) => item.id),
    lessons: Object.fromEntries(lessons.map((item) => [item.id, item])),
    tasks: Object.fromEntries(tasks.map((item) => [item.id, item])),
    task_counter: tasks.length,
    last_site_build: null,
  };
}

test('countedByVerify: only the failing verify run of the same code counts the failure', () => {
  const failed = lesson('1.1', 'code', { last_verify_failure: { run: 4, code_hash: 'sha256:a' } });
  const cases: Array<[string, LessonState, string | null, number | null]> = [
    ['same code', failed, 'sha256:a', 4],
    ['code changed', failed, 'sha256:b', null],
    ['code missing', failed, null, null],
    ['no verify failure', lesson('1.1', 'code'), 'sha256:a', null],
    ['cleared by a state fail', lesson('1.1', 'code', { last_verify_failure: null }), 'sha256:a', null],
  ];
  for (const [name, item, hash, expected] of cases) assert.equal(countedByVerify(item, hash), expected, name);
});

test('open tasks: a failed task stays open until reset or a later task on its lesson finishes', () => {
  const cases: Array<[string, Task[], string[]]> = [
    ['running and failed are open', [task('t1', '1.1', 'failed'), task('t2', '1.2')], ['t1', 't2']],
    ['a later running task does not close it', [task('t1', '1.1', 'failed'), task('t2', '1.1')], ['t1', 't2']],
    ['a later done task closes it', [task('t1', '1.1', 'failed'), task('t2', '1.1', 'done')], []],
    ['a later failed task replaces it', [task('t1', '1.1', 'failed'), task('t2', '1.1', 'failed')], ['t2']],
    ['another lesson does not close it', [task('t1', '1.1', 'failed'), task('t2', '1.2', 'done')], ['t1']],
    ['reset and done are closed', [task('t1', '1.1', 'reset'), task('t2', '1.2', 'done')], []],
  ];
  for (const [name, tasks, expected] of cases) {
    const current = state([lesson('1.1', 'spec'), lesson('1.2', 'spec')], tasks);
    assert.deepEqual(
      listTasks(current, 'open', NOW).map((item) => item.id),
      expected,
      name,
    );
    assert.equal(isOpen(current, tasks[0] as Task), expected.includes('t1'), name);
  }
  const leased = { ...task('t2', '1.1'), lease_expires_at: new Date(NOW.getTime() + 60_000).toISOString() };
  const mixed = state([lesson('1.1', 'spec')], [leased, task('t1', '1.1', 'failed'), task('t3', '1.2')]);
  assert.deepEqual(
    listTasks(mixed, 'running', NOW).map((item) => item.id),
    ['t2'],
    'running: the lease holds',
  );
  assert.deepEqual(
    listTasks(mixed, 'all', NOW).map((item) => [item.id, item.status]),
    [
      ['t1', 'failed'],
      ['t2', 'running'],
      ['t3', 'interrupted'],
    ],
  );
  assert.deepEqual(
    listTasks(mixed, 'open', new Date(NOW.getTime() + 120_000)).map((item) => [
      item.id,
      item.status,
      item.lease_expires_at,
    ]),
    [
      ['t1', 'failed', undefined],
      ['t2', 'interrupted', leased.lease_expires_at],
      ['t3', 'interrupted', undefined],
    ],
    'an expired lease lists as interrupted',
  );
});

test('reopen: a move back in assembly or done needs --reopen, which carries the phase left; elsewhere --reopen is refused', () => {
  const cases: Array<[State['phase'], boolean, string]> = [
    ['lessons', false, 'ok'],
    ['lessons', true, '--reopen is only'],
    ['assembly', false, 'reopen the course'],
    ['assembly', true, 'reopened assembly'],
    ['done', false, 'reopen the course'],
    ['done', true, 'reopened done'],
  ];
  for (const [phase, reopen, expected] of cases) {
    const current = state([lesson('1.1', 'done', { verified: { code_hash: 'sha256:a', at: T0, run: 1 } })], [], phase);
    let outcome = '';
    try {
      const draft = decideSet(current, { id: '1.1', stage: 'notes', note: 'typo', reopen }, NO_FACTS, BUDGETS);
      outcome = draft.kind === 'lesson.stage' && draft.reopened ? `reopened ${draft.reopened}` : 'ok';
    } catch (error) {
      outcome = `refused: ${(error as Error).message}`;
    }
    assert.ok(outcome.includes(expected), `${phase} reopen=${reopen}: ${outcome}`);
  }
});

test('task start on a done lesson is refused', () => {
  assert.match(
    refusal(() => decideTaskStart(state([lesson('1.1', 'done')]), '1.1', 'notes-writer', 1200)),
    /^lesson 1\.1 is done; no worker runs on a done lesson$/,
  );
  assert.equal(
    refusal(() => decideTaskStart(state([lesson('1.1', 'notes')]), '1.1', 'lesson-reviewer', 1200)),
    'accepted',
  );
});

test("task start: --role defaults to the stage's worker; stages without a worker need --role", () => {
  const cases: Array<[Stage, string | undefined, string]> = [
    ['pending', undefined, 'example-designer'],
    ['spec', undefined, 'code-author'],
    ['code', undefined, 'code-fixer'],
    ['notes', undefined, 'lesson-reviewer'],
    ['reviewed', undefined, 'refused'],
    ['reviewed', 'fact-checker', 'fact-checker'],
  ];
  for (const [stage, role, expected] of cases) {
    let outcome = 'refused';
    try {
      const draft = decideTaskStart(state([lesson('1.1', stage)]), '1.1', role, 1200);
      if (draft.kind === 'task.start') outcome = draft.role;
    } catch {
      outcome = 'refused';
    }
    assert.equal(outcome, expected, `${stage} ${role}`);
  }
});

test('next_step: one line that says what to do, and that the course is done in phase done', () => {
  const plan = (phase: State['phase'], nextPhase: State['phase'] | null, done: boolean[]) =>
    planNext({
      state: state([lesson('1.1', 'done')], [], phase),
      budgets: BUDGETS,
      next_phase: nextPhase,
      drifted: new Set(),
      now: new Date(T0),
      actions: done.map((item, index) => ({
        id: `a${index}`,
        description: `action ${index}`,
        path: index === 0 ? 'x.md' : null,
        done: item,
        problems: item ? [] : ['missing'],
      })),
    });
  const cases: Array<[string, ReturnType<typeof plan>, string, boolean, boolean]> = [
    ['init', plan('init', 'recon', []), 'codelabgen state phase recon', true, false],
    [
      'missing action',
      plan('recon', 'sources', [false]),
      'action 0 (x.md), then: codelabgen state phase sources',
      false,
      false,
    ],
    [
      'gate',
      plan('gate_plan', 'scaffold', []),
      'ask the user to approve, then: codelabgen state phase scaffold --approved',
      true,
      false,
    ],
    ['done', plan('done', null, []), 'the course is done: nothing left to do', false, true],
  ];
  for (const [name, next, step, ready, done] of cases)
    assert.deepEqual([next.next_step, next.ready, next.done], [step, ready, done], name);
});

test('leases: a running task is running while its lease holds and interrupted after, with a resume hint', () => {
  const leased = (id: string, expires: string): Task => ({
    ...task(id, id === 't1' ? '1.1' : '1.2'),
    lease_expires_at: expires,
  });
  const current = state(
    [lesson('1.1', 'spec'), lesson('1.2', 'code')],
    [leased('t1', '2026-01-01T00:20:00.000Z'), leased('t2', '2026-01-01T00:05:00.000Z')],
  );
  const cases: Array<[string, string[], string[]]> = [
    ['2026-01-01T00:04:59.000Z', ['t1', 't2'], []],
    ['2026-01-01T00:05:00.000Z', ['t1'], ['t2']],
    ['2026-01-01T00:20:00.001Z', [], ['t1', 't2']],
  ];
  for (const [now, running, interrupted] of cases) {
    const plan = planNext({
      state: current,
      budgets: BUDGETS,
      next_phase: 'assembly',
      actions: [],
      drifted: new Set(),
      now: new Date(now),
      changedFiles: new Map([['t2', ['1-m1/1.2-l/src/half.ts']]]),
    });
    assert.deepEqual(
      [plan.running.map((item) => item.task), plan.interrupted.map((item) => item.task)],
      [running, interrupted],
      now,
    );
  }
  const plan = planNext({
    state: current,
    budgets: BUDGETS,
    next_phase: 'assembly',
    actions: [],
    drifted: new Set(),
    now: new Date('2026-01-01T00:06:00.000Z'),
    changedFiles: new Map([['t2', ['1-m1/1.2-l/src/half.ts']]]),
  });
  assert.deepEqual(plan.interrupted[0], {
    task: 't2',
    lesson: '1.2',
    phase: null,
    role: 'code-author',
    started_at: T0,
    age_seconds: 360,
    lease_expired_at: '2026-01-01T00:05:00.000Z',
    stage: 'code',
    changed_files: ['1-m1/1.2-l/src/half.ts'],
    hint:
      'code-author on lesson 1.2 (at code) stopped renewing its lease; check the 1 file it changed ' +
      '(changed_files), then record its answer (codelabgen state task done|fail t2) or reset it (codelabgen ' +
      'state task reset t2) and start the work again',
  });
  assert.equal(plan.next_step, 'resume or reset the interrupted tasks first: t2');
});

test('parseLease: seconds, minutes, hours; anything else is refused', () => {
  assert.deepEqual(
    ['90s', '20m', '2h'].map((text) => parseLease(text, '--lease')),
    [90, 1200, 7200],
  );
  for (const bad of ['0m', '20', '1d', '-5m', '20 m', ''])
    assert.match(
      refusal(() => parseLease(bad, '--lease')),
      /^--lease ".*": expected a duration like "20m", "90s" or "2h"$/,
    );
});

test('phase tasks: only for the current worker phase, with a role; a later finished task of the same phase closes a failed one', () => {
  const cases: Array<[State['phase'], string, string | undefined, string]> = [
    ['sources', 'sources', 'source-researcher', 'accepted'],
    ['assembly', 'assembly', 'site-assembler', 'accepted'],
    ['sources', 'recon', 'researcher', 'the course is at phase sources'],
    ['gate_plan', 'gate_plan', 'researcher', 'phase tasks are for'],
    ['lessons', 'lessons', 'code-author', 'phase tasks are for'],
    ['sources', 'sources', undefined, '--role R is required'],
    ['sources', 'sources', 'Source Researcher', 'expected a worker role'],
  ];
  for (const [phase, target, role, expected] of cases)
    assert.ok(
      refusal(() => decidePhaseTaskStart(state([], [], phase), target, role, 60)).includes(expected),
      `${phase} ${target} ${role}`,
    );
  const phaseTask = (id: string, phase: State['phase'], status: Task['status']): Task => ({
    ...task(id, '', status),
    lesson: null,
    phase,
  });
  const tasks = [
    phaseTask('t1', 'sources', 'failed'),
    phaseTask('t2', 'recon', 'done'),
    phaseTask('t3', 'topics', 'failed'),
    phaseTask('t4', 'topics', 'done'),
  ];
  assert.deepEqual(
    listTasks(state([], tasks), 'open', NOW).map((item) => item.id),
    ['t1'],
  );
});

test('rework: shown until the lesson is back at the stage it left; a review must belong to the current round', () => {
  const rework = {
    from: 'reviewed' as const,
    to: 'readalong' as const,
    note: 'example 2 unclear',
    at: '2026-01-01T01:00:00.000Z',
  };
  const cases: Array<[Stage, boolean]> = [
    ['readalong', true],
    ['notes', true],
    ['reviewed', false],
    ['done', false],
  ];
  for (const [stage, shown] of cases)
    assert.equal(activeRework(lesson('1.1', stage, { rework })) !== null, shown, stage);
  assert.equal(activeRework(lesson('1.1', 'notes')), null);
  const reworked = lesson('1.1', 'notes', { rework, review_rounds_used: 1 });
  const before = Date.parse(rework.at) - 1;
  const reviews: Array<[string, LessonState, number | undefined, number, boolean]> = [
    ['never moved back', lesson('1.1', 'notes'), undefined, before, true],
    ['old file, no round', reworked, undefined, before, false],
    ['old file, old round', reworked, 1, before, false],
    ['old file, current round', reworked, 2, before, true],
    ['written after the move back', reworked, undefined, Date.parse(rework.at) + 1, true],
  ];
  for (const [name, item, round, mtime, accepted] of reviews)
    assert.equal(staleReview(item, round, mtime) === null, accepted, name);
  assert.match(
    staleReview(reworked, 1, before) ?? '',
    /^written before the move back from reviewed \(2026-01-01T01:00:00\.000Z\) for round 1; the current review round is 2: review again \(round: 2\)$/,
  );
});

test("unblock: --note is the user's decision; --review-round needs it and adds one round to the budget", () => {
  const blocked = lesson('1.1', 'reviewed', {
    blocked: { reason: 'rounds used up', by: 'user', at: T0 },
    review_rounds_used: 2,
  });
  assert.deepEqual(decideUnblock(state([blocked]), '1.1', 'user: go on', true), {
    kind: 'lesson.unblock',
    lesson: '1.1',
    fix_budget_reset: false,
    note: 'user: go on',
    review_round_granted: true,
  });
  assert.match(
    refusal(() => decideUnblock(state([blocked]), '1.1', null, true)),
    /--review-round records the user's decision/,
  );
  assert.deepEqual(
    [reviewRounds(blocked, BUDGETS), reviewRounds({ ...blocked, review_rounds_granted: 2 }, BUDGETS)],
    [2, 4],
  );
  assert.match(
    refusal(() =>
      decideSet(
        state([{ ...blocked, blocked: null }]),
        { id: '1.1', stage: 'notes', note: 'again' },
        NO_FACTS,
        BUDGETS,
      ),
    ),
    /review rounds used up \(2 of 2\)/,
  );
  assert.equal(
    refusal(() =>
      decideSet(
        state([{ ...blocked, blocked: null, review_rounds_granted: 1 }]),
        { id: '1.1', stage: 'notes', note: 'again' },
        NO_FACTS,
        BUDGETS,
      ),
    ),
    'accepted',
  );
});

test('prerequisites: a done lesson is flagged when a prerequisite drifted, or was moved back or marked stale after it was done', () => {
  const DONE = '2026-01-01T01:00:00.000Z';
  const before = '2026-01-01T00:30:00.000Z';
  const later = '2026-01-01T02:00:00.000Z';
  const prerequisites = new Map([['1.2', ['1.1']]]);
  const cases: Array<[string, LessonState, Partial<LessonState>, string[], string | null]> = [
    ['unchanged', lesson('1.1', 'done'), {}, [], null],
    ['drifted', lesson('1.1', 'done'), {}, ['1.1'], 'drifted'],
    [
      'moved back after',
      lesson('1.1', 'code', { rework: { from: 'done', to: 'code', note: 'x', at: later } }),
      {},
      [],
      'moved back',
    ],
    [
      'moved back before (1.2 was done later)',
      lesson('1.1', 'code', { rework: { from: 'done', to: 'code', note: 'x', at: before } }),
      {},
      [],
      null,
    ],
    ['stale after', lesson('1.1', 'done', { stale: { reason: 'x', at: later } }), {}, [], 'stale'],
    ['dependent not done', lesson('1.1', 'done'), { stage: 'notes' }, ['1.1'], null],
    ['dependent already stale', lesson('1.1', 'done'), { stale: { reason: 'y', at: later } }, ['1.1'], null],
  ];
  for (const [name, prerequisite, dependent, drifted, change] of cases) {
    const current = state([prerequisite, lesson('1.2', 'done', { done_at: DONE, ...dependent })]);
    assert.deepEqual(
      changedPrerequisites(current, prerequisites, new Set(drifted)).map((flag) => flag.change),
      change ? [change] : [],
      name,
    );
  }
});
