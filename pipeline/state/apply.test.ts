// apply(state, event) is pure and covers every event kind: a table of cases, one or more per kind,
// each checked against the state schema; plus ids that would poison a plain object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Event, EventDraft, EventKind, RegisteredLesson, State } from '../../content-schemas/index.ts';
import { EventSchema, StateSchema } from '../../content-schemas/index.ts';
import { apply, ReplayError } from './apply.ts';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

function at(seq: number): string {
  return new Date(T0 + seq * 1000).toISOString();
}

function event(seq: number, draft: EventDraft): Event {
  return EventSchema.parse({ seq, ts: at(seq), ...draft });
}

function registered(id: string, moduleId = '1'): RegisteredLesson {
  return {
    id,
    title: `Lesson ${id}`,
    slug: `lesson-${id.replace(/\W/g, '-').toLowerCase()}`,
    module_id: moduleId,
    module_slug: 'basics',
    module_title: 'Basics',
    dir: `${moduleId}-basics/${id}`,
  };
}

/** Applies drafts in order from an empty course; returns the final state. */
function run(...drafts: EventDraft[]): State {
  let state: State | null = null;
  drafts.forEach((draft, index) => {
    state = apply(state, event(index + 1, draft));
  });
  assert.ok(state);
  return state;
}

const INIT: EventDraft = { kind: 'course.init', title: 'Streams', topic: 'node streams' };
const REGISTER: EventDraft = { kind: 'lessons.register', lessons: [registered('1.1'), registered('1.2')], removed: [] };
const toCode = (lesson: string): EventDraft[] => [
  { kind: 'lesson.stage', lesson, from: 'pending', to: 'spec', note: null, review_round_used: false },
  { kind: 'lesson.stage', lesson, from: 'spec', to: 'code', note: null, review_round_used: false },
];
const fail = (lesson: string, used: number, blocked = false): EventDraft => ({
  kind: 'lesson.fail',
  lesson,
  note: `boom ${used}`,
  fix_attempts_used: used,
  blocked,
  via: 'state fail',
  run: null,
});
const verified = (lesson: string): EventDraft => ({ kind: 'lesson.verified', lesson, code_hash: 'sha256:abc', run: 1 });
const stage = (
  lesson: string,
  from: State['lessons'][string]['stage'],
  to: State['lessons'][string]['stage'],
  roundUsed = false,
): EventDraft => ({
  kind: 'lesson.stage',
  lesson,
  from,
  to,
  note: roundUsed ? 'rework' : null,
  review_round_used: roundUsed,
});
const forwardToDone = (lesson: string): EventDraft[] => [
  ...toCode(lesson),
  verified(lesson),
  stage(lesson, 'verified', 'readalong'),
  stage(lesson, 'readalong', 'notes'),
  stage(lesson, 'notes', 'reviewed'),
  stage(lesson, 'reviewed', 'done'),
];

interface Case {
  kind: EventKind;
  name: string;
  drafts: EventDraft[];
  expect: (state: State) => void;
}

const lessonOf = (state: State, id: string) => {
  assert.ok(Object.hasOwn(state.lessons, id), `lesson ${id} missing`);
  return state.lessons[id]!;
};

const CASES: Case[] = [
  {
    kind: 'course.init',
    name: 'creates the initial state',
    drafts: [INIT],
    expect: (s) => {
      assert.deepEqual(
        {
          title: s.title,
          topic: s.topic,
          phase: s.phase,
          last_seq: s.last_seq,
          created_at: s.created_at,
          lessons: s.lessons,
          tasks: s.tasks,
        },
        {
          title: 'Streams',
          topic: 'node streams',
          phase: 'init',
          last_seq: 1,
          created_at: at(1),
          lessons: {},
          tasks: {},
        },
      );
      assert.deepEqual(s.phase_history, [{ phase: 'init', entered_at: at(1), seq: 1 }]);
    },
  },
  {
    kind: 'phase.advance',
    name: 'moves the phase and records it in the history',
    drafts: [INIT, { kind: 'phase.advance', from: 'init', to: 'recon', approved: false }],
    expect: (s) => {
      assert.equal(s.phase, 'recon');
      assert.deepEqual(s.phase_history.at(-1), { phase: 'recon', entered_at: at(2), seq: 2 });
    },
  },
  {
    kind: 'lessons.register',
    name: 'adds pending lessons in curriculum order',
    drafts: [INIT, REGISTER],
    expect: (s) => {
      assert.deepEqual(s.lesson_order, ['1.1', '1.2']);
      const lesson = lessonOf(s, '1.2');
      assert.deepEqual(
        [lesson.stage, lesson.blocked, lesson.stale, lesson.fix_attempts_used, lesson.verified, lesson.updated_at],
        ['pending', null, null, 0, null, at(2)],
      );
    },
  },
  {
    kind: 'lessons.register',
    name: 'keeps the progress of lessons already registered and drops removed ones',
    drafts: [
      INIT,
      REGISTER,
      ...toCode('1.1'),
      fail('1.1', 1),
      {
        kind: 'lessons.register',
        lessons: [{ ...registered('1.1'), title: 'Renamed' }, registered('1.3')],
        removed: ['1.2'],
      },
    ],
    expect: (s) => {
      assert.deepEqual(s.lesson_order, ['1.1', '1.3']);
      const kept = lessonOf(s, '1.1');
      assert.deepEqual(
        [kept.title, kept.stage, kept.fix_attempts_used, kept.last_failure],
        ['Renamed', 'code', 1, 'boom 1'],
      );
      assert.equal(lessonOf(s, '1.3').stage, 'pending');
      assert.equal(Object.hasOwn(s.lessons, '1.2'), false);
    },
  },
  {
    kind: 'lesson.stage',
    name: 'moves a lesson forward',
    drafts: [INIT, REGISTER, ...toCode('1.1')],
    expect: (s) => {
      assert.equal(lessonOf(s, '1.1').stage, 'code');
      assert.equal(lessonOf(s, '1.2').stage, 'pending');
    },
  },
  {
    kind: 'lesson.stage',
    name: 'a move back uses a review round, clears stale and the verification below verified',
    drafts: [
      INIT,
      REGISTER,
      ...forwardToDone('1.1'),
      { kind: 'lesson.stale', lesson: '1.1', reason: 'upstream changed' },
      stage('1.1', 'done', 'code', true),
    ],
    expect: (s) => {
      const lesson = lessonOf(s, '1.1');
      assert.deepEqual(
        [lesson.stage, lesson.stale, lesson.verified, lesson.review_rounds_used],
        ['code', null, null, 1],
      );
    },
  },
  {
    kind: 'lesson.stage',
    name: 'a move back to a stage after verified keeps the verification',
    drafts: [INIT, REGISTER, ...forwardToDone('1.1'), stage('1.1', 'done', 'readalong', true)],
    expect: (s) => {
      const lesson = lessonOf(s, '1.1');
      assert.equal(lesson.stage, 'readalong');
      assert.deepEqual(lesson.verified, { code_hash: 'sha256:abc', at: at(5), run: 1 });
    },
  },
  {
    kind: 'lesson.verified',
    name: 'moves to verified with the code hash and clears the last failure',
    drafts: [INIT, REGISTER, ...toCode('1.1'), fail('1.1', 1), verified('1.1')],
    expect: (s) => {
      const lesson = lessonOf(s, '1.1');
      assert.deepEqual(
        [lesson.stage, lesson.verified, lesson.last_failure, lesson.fix_attempts_used],
        ['verified', { code_hash: 'sha256:abc', at: at(6), run: 1 }, null, 1],
      );
    },
  },
  {
    kind: 'lesson.fail',
    name: 'counts a fix attempt without blocking',
    drafts: [INIT, REGISTER, ...toCode('1.1'), fail('1.1', 1)],
    expect: (s) => {
      const lesson = lessonOf(s, '1.1');
      assert.deepEqual([lesson.fix_attempts_used, lesson.blocked, lesson.last_failure], [1, null, 'boom 1']);
    },
  },
  {
    kind: 'lesson.fail',
    name: 'the failure that uses up the budget blocks the lesson (outcome taken from the event)',
    drafts: [INIT, REGISTER, ...toCode('1.1'), fail('1.1', 1), fail('1.1', 2, true)],
    expect: (s) => {
      assert.deepEqual(lessonOf(s, '1.1').blocked, {
        reason: 'fix budget used up (2 failed attempts); last: boom 2',
        by: 'fix-budget',
        at: at(6),
      });
    },
  },
  {
    kind: 'lesson.fail_note',
    name: 'a note on a failure verify counted attaches to it and uses no attempt',
    drafts: [
      INIT,
      REGISTER,
      ...toCode('1.1'),
      {
        kind: 'lesson.fail',
        lesson: '1.1',
        note: 'boom',
        fix_attempts_used: 1,
        blocked: false,
        via: 'verify',
        run: 3,
        code_hash: 'sha256:abc',
      },
      { kind: 'lesson.fail_note', lesson: '1.1', note: 'off by one in parse', run: 3 },
    ],
    expect: (s) => {
      const lesson = lessonOf(s, '1.1');
      assert.deepEqual(
        [lesson.fix_attempts_used, lesson.last_failure, lesson.last_verify_failure],
        [1, 'boom', { run: 3, code_hash: 'sha256:abc', note: 'off by one in parse' }],
      );
    },
  },
  {
    kind: 'lesson.block',
    name: 'blocks for the user',
    drafts: [INIT, REGISTER, { kind: 'lesson.block', lesson: '1.2', reason: 'needs a licence decision' }],
    expect: (s) => {
      assert.deepEqual(lessonOf(s, '1.2').blocked, { reason: 'needs a licence decision', by: 'user', at: at(3) });
    },
  },
  {
    kind: 'lesson.unblock',
    name: 'unblocking a fix-budget block resets the budget and counts the reset',
    drafts: [
      INIT,
      REGISTER,
      ...toCode('1.1'),
      fail('1.1', 1),
      fail('1.1', 2, true),
      { kind: 'lesson.unblock', lesson: '1.1', fix_budget_reset: true },
    ],
    expect: (s) => {
      const lesson = lessonOf(s, '1.1');
      assert.deepEqual(
        [lesson.blocked, lesson.fix_attempts_used, lesson.fix_budget_resets, lesson.last_failure],
        [null, 0, 1, 'boom 2'],
      );
    },
  },
  {
    kind: 'lesson.unblock',
    name: 'unblocking a user block keeps the fix attempts',
    drafts: [
      INIT,
      REGISTER,
      ...toCode('1.1'),
      fail('1.1', 1),
      { kind: 'lesson.block', lesson: '1.1', reason: 'ask' },
      { kind: 'lesson.unblock', lesson: '1.1', fix_budget_reset: false },
    ],
    expect: (s) => {
      const lesson = lessonOf(s, '1.1');
      assert.deepEqual([lesson.blocked, lesson.fix_attempts_used, lesson.fix_budget_resets], [null, 1, 0]);
    },
  },
  {
    kind: 'lesson.stale',
    name: 'marks a done lesson stale',
    drafts: [
      INIT,
      REGISTER,
      ...forwardToDone('1.1'),
      { kind: 'lesson.stale', lesson: '1.1', reason: 'source updated' },
    ],
    expect: (s) => {
      assert.deepEqual(lessonOf(s, '1.1').stale, { reason: 'source updated', at: at(10) });
      assert.equal(lessonOf(s, '1.1').stage, 'done');
    },
  },
  {
    kind: 'task.start',
    name: 'records a running task and advances the counter',
    drafts: [INIT, REGISTER, { kind: 'task.start', task: 't7', lesson: '1.1', role: 'code-author' }],
    expect: (s) => {
      assert.deepEqual(s.tasks.t7, {
        id: 't7',
        lesson: '1.1',
        role: 'code-author',
        status: 'running',
        started_at: at(3),
        finished_at: null,
        note: null,
        result: null,
      });
      assert.equal(s.task_counter, 7);
    },
  },
  {
    kind: 'task.finish',
    name: 'finishes a task with its result',
    drafts: [
      INIT,
      REGISTER,
      { kind: 'task.start', task: 't1', lesson: '1.1', role: 'code-author' },
      {
        kind: 'task.finish',
        task: 't1',
        status: 'done',
        note: 'ok',
        result: { lesson: '1.1', status: 'ok', stage: 'code', artifacts: [] },
      },
    ],
    expect: (s) => {
      assert.deepEqual(
        [s.tasks.t1?.status, s.tasks.t1?.finished_at, s.tasks.t1?.note, s.tasks.t1?.result?.status],
        ['done', at(4), 'ok', 'ok'],
      );
    },
  },
  {
    kind: 'task.reset',
    name: 'resets a task',
    drafts: [
      INIT,
      REGISTER,
      { kind: 'task.start', task: 't1', lesson: '1.1', role: 'code-author' },
      { kind: 'task.reset', task: 't1', note: 'worker died' },
    ],
    expect: (s) => {
      assert.deepEqual(
        [s.tasks.t1?.status, s.tasks.t1?.finished_at, s.tasks.t1?.note],
        ['reset', at(4), 'worker died'],
      );
    },
  },
  {
    kind: 'task.heartbeat',
    name: 'renews the lease from the heartbeat',
    drafts: [
      INIT,
      REGISTER,
      { kind: 'task.start', task: 't1', lesson: '1.1', role: 'code-author', lease_seconds: 60 },
      { kind: 'task.heartbeat', task: 't1', lease_seconds: 120 },
    ],
    expect: (s) => {
      assert.deepEqual(
        [s.tasks.t1?.status, s.tasks.t1?.heartbeat_at, s.tasks.t1?.lease_expires_at],
        ['running', at(4), new Date(Date.parse(at(4)) + 120_000).toISOString()],
      );
    },
  },
  {
    kind: 'lesson.stage',
    name: '--reopen moves the course back to lessons in the same event',
    drafts: [
      INIT,
      REGISTER,
      { kind: 'phase.advance', from: 'init', to: 'recon', approved: false },
      { kind: 'lesson.stage', lesson: '1.1', from: 'pending', to: 'spec', note: null, review_round_used: false },
      {
        kind: 'lesson.stage',
        lesson: '1.1',
        from: 'spec',
        to: 'pending',
        note: 'redo',
        review_round_used: false,
        reopened: 'done',
      },
    ],
    expect: (s) => {
      assert.deepEqual([s.phase, s.phase_history.at(-1)], ['lessons', { phase: 'lessons', entered_at: at(5), seq: 5 }]);
    },
  },
  {
    kind: 'log',
    name: 'changes nothing but last_seq',
    drafts: [INIT, { kind: 'log', fact: 'source-unreachable', lesson: null, data: { url: 'x' } }],
    expect: (s) => {
      assert.deepEqual({ ...s, last_seq: 1 }, run(INIT));
      assert.equal(s.last_seq, 2);
    },
  },
  {
    kind: 'site.build',
    name: 'records the last publish build',
    drafts: [INIT, { kind: 'site.build', out: 'dist', pages: 12, lessons: ['1.1'] }],
    expect: (s) => {
      assert.deepEqual(s.last_site_build, { at: at(2), seq: 2, out: 'dist', pages: 12, lessons: ['1.1'] });
    },
  },
];

const KINDS = EventSchema.options.map((option) => option.shape.kind.value);

test('the table covers every event kind of content-schemas/event.ts', () => {
  assert.deepEqual([...new Set(CASES.map((c) => c.kind))].sort(), [...KINDS].sort());
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

for (const c of CASES) {
  test(`${c.kind}: ${c.name}`, () => {
    let state: State | null = null;
    c.drafts.forEach((draft, index) => {
      const before = deepFreeze(structuredClone(state));
      const next = apply(before, deepFreeze(event(index + 1, draft))); // frozen: apply must not mutate
      assert.equal(next.last_seq, index + 1);
      assert.deepEqual(apply(before, event(index + 1, draft)), next, 'apply is deterministic');
      state = next;
    });
    assert.ok(state);
    StateSchema.parse(JSON.parse(JSON.stringify(state)));
    c.expect(state);
  });
}

test('replay refuses events that do not fit, naming the seq', () => {
  const base = run(INIT, REGISTER);
  const refusals: Array<[State | null, Event, RegExp]> = [
    [null, event(1, REGISTER), /^event seq 1: the first event must be course\.init/],
    [base, event(4, { kind: 'log', fact: 'x', lesson: null, data: {} }), /^event seq 4: expected seq 3$/],
    [base, event(2, { kind: 'log', fact: 'x', lesson: null, data: {} }), /^event seq 2: expected seq 3$/],
    [base, event(3, INIT), /course\.init after the course was created/],
    [base, event(3, stage('9.9', 'pending', 'spec')), /^event seq 3: unknown lesson "9\.9"$/],
    [base, event(3, { kind: 'task.start', task: 't1', lesson: '9.9', role: 'code-author' }), /unknown lesson "9\.9"/],
    [base, event(3, { kind: 'task.reset', task: 't4', note: null }), /^event seq 3: unknown task "t4"$/],
  ];
  for (const [state, e, message] of refusals)
    assert.throws(
      () => apply(state, e),
      (error: Error) => error instanceof ReplayError && message.test(error.message),
    );
});

test('ids like constructor, toString and hasOwnProperty are ordinary lessons, never prototype members', () => {
  const ids = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'];
  const base = run(INIT, REGISTER);
  for (const id of ids) {
    assert.throws(
      () => apply(base, event(3, stage(id, 'pending', 'spec'))),
      /unknown lesson/,
      `${id} must be unknown before it is registered`,
    );
  }
  const state = run(
    INIT,
    { kind: 'lessons.register', lessons: ids.map((id) => registered(id)), removed: [] },
    stage('constructor', 'pending', 'spec'),
    { kind: 'task.start', task: 't1', lesson: 'toString', role: 'code-author' },
  );
  assert.equal(lessonOf(state, 'constructor').stage, 'spec');
  assert.equal(lessonOf(state, 'toString').stage, 'pending');
  assert.equal(Object.getPrototypeOf(state.lessons), Object.prototype);
  assert.deepEqual(Object.keys(state.lessons).sort(), [...ids].sort());
  const roundTripped = StateSchema.parse(JSON.parse(JSON.stringify(state)));
  assert.deepEqual(roundTripped, state);
  const removed = run(
    INIT,
    { kind: 'lessons.register', lessons: ids.map((id) => registered(id)), removed: [] },
    {
      kind: 'lessons.register',
      lessons: [registered('toString')],
      removed: ['constructor', 'hasOwnProperty', 'valueOf'],
    },
  );
  assert.deepEqual(Object.keys(removed.lessons), ['toString']);
  assert.equal(typeof removed.lessons.constructor, 'function', 'the prototype is untouched');
});
