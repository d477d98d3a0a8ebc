// Table-driven tests of the pure planner behind `state next`: module order, the parallel budget,
// blocked modules, stale and drifted lessons, running and interrupted tasks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LessonState, Stage, State, Task } from '../../content-schemas/index.ts';
import { commandLine } from './next-command.ts';
import { planNext, type PlanInput } from './planner.ts';

const T0 = '2026-01-01T00:00:00.000Z';

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

function task(id: string, lessonId: string, role: string, status: Task['status'] = 'running'): Task {
  return {
    id,
    lesson: lessonId,
    role,
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

function input(s: State, parallel = 3, drifted: string[] = []): PlanInput {
  return {
    state: s,
    budgets: { fix_attempts: 3, review_rounds: 2, parallel },
    next_phase: 'assembly',
    actions: [],
    drifted: new Set(drifted),
    now: new Date('2026-01-01T00:10:00.000Z'),
  };
}

const cases: Array<{ name: string; input: PlanInput; items: Array<[string, string, string]> }> = [
  {
    name: 'first unfinished lesson of each module, in module order',
    input: input(
      state([lesson('1.1', 'done'), lesson('1.2', 'spec'), lesson('1.3', 'pending'), lesson('2.1', 'pending')]),
    ),
    items: [
      ['1.2', 'code', 'code-author'],
      ['2.1', 'spec', 'example-designer'],
    ],
  },
  {
    name: 'parallel budget limits modules',
    input: input(state([lesson('1.1', 'pending'), lesson('2.1', 'pending'), lesson('3.1', 'pending')]), 2),
    items: [
      ['1.1', 'spec', 'example-designer'],
      ['2.1', 'spec', 'example-designer'],
    ],
  },
  {
    name: 'modules under way come first',
    input: input(state([lesson('1.1', 'pending'), lesson('2.1', 'pending'), lesson('3.1', 'readalong')]), 2),
    items: [
      ['3.1', 'notes', 'notes-writer'],
      ['1.1', 'spec', 'example-designer'],
    ],
  },
  {
    name: 'a blocked module takes no slot and holds its later lessons',
    input: input(
      state([
        lesson('1.1', 'code', { blocked: { reason: 'r', by: 'user', at: T0 } }),
        lesson('1.2', 'pending'),
        lesson('2.1', 'pending'),
      ]),
      1,
    ),
    items: [['2.1', 'spec', 'example-designer']],
  },
  {
    name: "code: the stage's role code-fixer, before and after a failure (as state stages says)",
    input: input(state([lesson('1.1', 'code'), lesson('2.1', 'code', { fix_attempts_used: 1, last_failure: 'boom' })])),
    items: [
      ['1.1', 'verified', 'code-fixer'],
      ['2.1', 'verified', 'code-fixer'],
    ],
  },
  {
    name: 'reviewed → orchestrator final checks; notes → reviewer',
    input: input(state([lesson('1.1', 'reviewed'), lesson('2.1', 'notes'), lesson('3.1', 'verified')])),
    items: [
      ['1.1', 'done', 'orchestrator'],
      ['2.1', 'reviewed', 'lesson-reviewer'],
      ['3.1', 'readalong', 'readalong-writer'],
    ],
  },
  {
    name: "a stale done lesson is the module's work item",
    input: input(state([lesson('1.1', 'done', { stale: { reason: 'x', at: T0 } }), lesson('1.2', 'pending')])),
    items: [['1.1', 'null', 'orchestrator']],
  },
  {
    name: 'a drifted lesson is sent back to verify',
    input: input(state([lesson('1.1', 'readalong')]), 3, ['1.1']),
    items: [['1.1', 'notes', 'verify']],
  },
  {
    name: "a drifted done lesson is its module's work item again",
    input: input(state([lesson('1.1', 'done'), lesson('1.2', 'pending')]), 3, ['1.1']),
    items: [['1.1', 'null', 'verify']],
  },
  { name: 'all done: no work items', input: input(state([lesson('1.1', 'done'), lesson('2.1', 'done')])), items: [] },
  {
    name: 'outside the lessons phase: no work items',
    input: input(state([lesson('1.1', 'pending')], [], 'scaffold')),
    items: [],
  },
];

for (const item of cases) {
  test(`planner: ${item.name}`, () => {
    const plan = planNext(item.input);
    assert.deepEqual(
      plan.lessons.map((work) => [work.lesson, String(work.next_stage), work.role]),
      item.items,
    );
  });
}

test('planner: running tasks are attached to work items and listed as interrupted with their age', () => {
  const plan = planNext(
    input(
      state(
        [lesson('1.1', 'spec'), lesson('2.1', 'pending')],
        [task('t1', '1.1', 'code-author'), task('t2', '2.1', 'example-designer', 'done')],
      ),
    ),
  );
  assert.deepEqual(plan.lessons[0]?.task, { id: 't1', role: 'code-author', started_at: T0, age_seconds: 600 });
  assert.equal(plan.lessons[1]?.task, null);
  // A task without a lease (started before leases existed) counts as interrupted.
  assert.deepEqual(
    plan.interrupted.map(({ task, lesson, role, started_at, age_seconds, lease_expired_at, stage }) => ({
      task,
      lesson,
      role,
      started_at,
      age_seconds,
      lease_expired_at,
      stage,
    })),
    [
      {
        task: 't1',
        lesson: '1.1',
        role: 'code-author',
        started_at: T0,
        age_seconds: 600,
        lease_expired_at: null,
        stage: 'spec',
      },
    ],
  );
});

test('planner: blocked lessons, gates and readiness', () => {
  const s = state(
    [lesson('1.1', 'code', { blocked: { reason: 'fix budget used up', by: 'fix-budget', at: T0 } })],
    [],
    'gate_plan',
  );
  const plan = planNext({ ...input(s), next_phase: 'scaffold', actions: [] });
  assert.deepEqual(plan.blocked, [
    { lesson: '1.1', module: '1', stage: 'code', reason: 'fix budget used up', by: 'fix-budget' },
  ]);
  assert.equal(plan.approval_needed, true);
  assert.equal(plan.ready, true);
  const notReady = planNext({
    ...input(s),
    actions: [{ id: 'a', description: 'd', path: null, done: false, problems: ['p'] }],
  });
  assert.equal(notReady.ready, false);
});

const T1 = '2026-01-01T00:05:00.000Z';
const RUNNING = { ...task('t1', '1.1', 'code-author'), lease_expires_at: '2026-01-01T01:00:00.000Z' };
const missing = (id: string) => ({ id, description: 'd', path: null, done: false, problems: ['p'] });
const answered = (stage: Stage, status: 'ok' | 'failed' = 'ok'): Task => ({
  ...task('t1', '1.1', 'a-worker', 'done'),
  finished_at: T1,
  result: { lesson: '1.1', status, stage, artifacts: [] },
});

/** Each case: the plan's input, and its next_command as a command line (null: a worker's job or a decision). */
const commandCases: Array<{ name: string; input: PlanInput; command: string | null }> = [
  {
    name: 'a lesson at code with no failure yet: verify, no worker',
    input: input(state([lesson('1.1', 'code')])),
    command: 'codelabgen verify 1.1 --update-state',
  },
  {
    name: 'a lesson at code after a failure: a code-fixer',
    input: input(state([lesson('1.1', 'code', { fix_attempts_used: 1 })])),
    command: 'codelabgen state task start 1.1',
  },
  {
    name: 'a lesson at code whose code-fixer answered after the failure: verify again',
    input: input(state([lesson('1.1', 'code', { fix_attempts_used: 1 })], [answered('code')])),
    command: 'codelabgen verify 1.1 --update-state',
  },
  {
    name: 'a lesson at reviewed: no worker, the orchestrator moves it to done',
    input: input(state([lesson('1.1', 'reviewed')])),
    command: 'codelabgen state set 1.1 done',
  },
  {
    name: 'a pending lesson: its worker',
    input: input(state([lesson('1.1', 'pending')])),
    command: 'codelabgen state task start 1.1',
  },
  {
    name: 'a worker answered ok with the next stage: record it',
    input: input(state([lesson('1.1', 'pending')], [answered('spec')])),
    command: 'codelabgen state set 1.1 spec',
  },
  {
    name: 'a worker answered something else: the orchestrator judges it',
    input: input(state([lesson('1.1', 'pending')], [answered('spec', 'failed')])),
    command: null,
  },
  {
    name: "an answer older than the lesson's last change is not this stage's",
    input: input(state([lesson('1.1', 'pending', { updated_at: '2026-01-01T00:06:00.000Z' })], [answered('spec')])),
    command: 'codelabgen state task start 1.1',
  },
  {
    name: 'a worker is on the first lesson: the next lesson',
    input: input(state([lesson('1.1', 'spec'), lesson('2.1', 'verified')], [RUNNING])),
    command: 'codelabgen state task start 2.1',
  },
  {
    name: 'workers are on every lesson: null',
    input: input(state([lesson('1.1', 'spec')], [RUNNING])),
    command: null,
  },
  {
    name: 'drifted code: back to code, with a note',
    input: input(state([lesson('1.1', 'done')]), 3, ['1.1']),
    command: 'codelabgen state set 1.1 code --note "code changed since it was verified"',
  },
  {
    name: 'a stale lesson: the stage to go back to is a decision',
    input: input(state([lesson('1.1', 'done', { stale: { reason: 'r', at: T0 } })])),
    command: null,
  },
  {
    name: 'an interrupted task comes first',
    input: input(state([lesson('1.1', 'spec'), lesson('2.1', 'pending')], [task('t1', '1.1', 'code-author')])),
    command: null,
  },
  {
    name: 'scaffold: register',
    input: { ...input(state([], [], 'scaffold')), next_phase: 'lessons', actions: [missing('scaffold.registered')] },
    command: 'codelabgen register',
  },
  {
    name: 'assembly: the site build, then the report',
    input: {
      ...input(state([], [], 'assembly')),
      next_phase: 'done',
      actions: [missing('assembly.site_build'), missing('assembly.report')],
    },
    command: 'codelabgen site build',
  },
  {
    name: 'a phase with work missing and no worker: a phase task',
    input: { ...input(state([], [], 'recon')), next_phase: 'sources', actions: [missing('recon.overview')] },
    command: 'codelabgen state task start --phase recon --role researcher',
  },
  {
    name: 'a phase with its worker running: null',
    input: {
      ...input(state([], [{ ...RUNNING, lesson: null, phase: 'recon', role: 'researcher' }], 'recon')),
      next_phase: 'sources',
      actions: [missing('recon.overview')],
    },
    command: null,
  },
  {
    name: 'a ready gate: the move, approved (once the user approved)',
    input: { ...input(state([], [], 'gate_plan')), next_phase: 'scaffold' },
    command: 'codelabgen state phase scaffold --approved',
  },
  {
    name: 'the course is done: null',
    input: { ...input(state([], [], 'done')), next_phase: null },
    command: null,
  },
];

test('next_command: the one command that takes the next step, or null for work and decisions', () => {
  for (const { name, input: given, command } of commandCases) {
    const planned = planNext(given).next_command;
    assert.equal(planned === null ? null : commandLine(planned), command, name);
  }
});
