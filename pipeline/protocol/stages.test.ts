// Table tests of the lesson decisions (state set|fail|block|unblock|stale), called directly with
// in-memory states and facts: each rule of docs/protocol.md "Lesson stages" and its exact message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LessonState, State } from '../../content-schemas/index.ts';
import { BUDGETS, lesson, outcome, state } from './state-fixture.ts';
import {
  decideBlock,
  decideFail,
  decideSet,
  decideStale,
  decideUnblock,
  type SetRequest,
  type StageMoveFacts,
} from './stages.ts';

const CLEAN: StageMoveFacts = { forwardProblems: [], review: {} };
const BLOCKED = { reason: 'needs an API key', by: 'user' as const, at: '2026-01-01T00:00:00.000Z' };
const VERIFIED = { code_hash: 'sha256:a', at: '2026-01-01T00:00:00.000Z', run: 1 };

test('state set: which moves are refused, and why', () => {
  const cases: Array<[string, State, SetRequest, StageMoveFacts, string]> = [
    [
      'unknown lesson',
      state([lesson('1.1', 'pending')]),
      { id: '9.9', stage: 'spec', note: null },
      CLEAN,
      'unknown lesson "9.9"',
    ],
    [
      'unknown stage',
      state([lesson('1.1', 'pending')]),
      { id: '1.1', stage: 'drafted', note: null },
      CLEAN,
      'unknown stage "drafted"; stages: pending, spec, code, verified, readalong, notes, reviewed, done',
    ],
    [
      'same stage',
      state([lesson('1.1', 'pending')]),
      { id: '1.1', stage: 'pending', note: null },
      CLEAN,
      'lesson 1.1 is already at pending',
    ],
    [
      'skipping a stage',
      state([lesson('1.1', 'pending')]),
      { id: '1.1', stage: 'code', note: null },
      CLEAN,
      'lesson 1.1 is at pending: stages move forward one at a time; the next stage is spec',
    ],
    [
      'verified by hand',
      state([lesson('1.1', 'code')]),
      { id: '1.1', stage: 'verified', note: null },
      CLEAN,
      'lesson 1.1: verified is set only by "codelabgen verify 1.1 --update-state"',
    ],
    [
      'past verified',
      state([lesson('1.1', 'code')]),
      { id: '1.1', stage: 'readalong', note: null },
      CLEAN,
      'lesson 1.1 is at code: stages move forward one at a time; the next stage is verified (set by codelabgen verify 1.1 --update-state)',
    ],
    [
      'artifact problems',
      state([lesson('1.1', 'pending')]),
      { id: '1.1', stage: 'spec', note: null },
      { forwardProblems: ['a: missing', 'b: missing'], review: {} },
      'lesson 1.1: cannot move to spec: a: missing (and 1 more)',
    ],
    [
      'blocked',
      state([lesson('1.1', 'spec', { blocked: BLOCKED })]),
      { id: '1.1', stage: 'pending', note: 'x' },
      CLEAN,
      'lesson 1.1 is blocked (needs an API key); it cannot move until unblocked',
    ],
    [
      'back without a note',
      state([lesson('1.1', 'done')]),
      { id: '1.1', stage: 'notes', note: null },
      CLEAN,
      'lesson 1.1: moving back from done to notes needs --note "why"',
    ],
    [
      'back with a blank note',
      state([lesson('1.1', 'done')]),
      { id: '1.1', stage: 'notes', note: '  ' },
      CLEAN,
      'lesson 1.1: moving back from done to notes needs --note "why"',
    ],
    [
      'review rounds used up',
      state([lesson('1.1', 'notes', { review_rounds_used: 2 })]),
      { id: '1.1', stage: 'readalong', note: 'again' },
      CLEAN,
      'lesson 1.1: review rounds used up (2 of 2); it cannot move back from notes',
    ],
    [
      'back in assembly without --reopen',
      state([lesson('1.1', 'done')], [], 'assembly'),
      { id: '1.1', stage: 'notes', note: 'x' },
      CLEAN,
      'lesson 1.1: the course is at phase assembly, which needs every lesson done; to rework it, reopen the ' +
        'course: codelabgen state set 1.1 notes --note "..." --reopen (moves the phase back to lessons)',
    ],
    [
      '--reopen in lessons',
      state([lesson('1.1', 'done')]),
      { id: '1.1', stage: 'notes', note: 'x', reopen: true },
      CLEAN,
      'state set 1.1: --reopen is only for moving a lesson back while the course is at assembly or done (it is at lessons)',
    ],
    ['forward', state([lesson('1.1', 'pending')]), { id: '1.1', stage: 'spec', note: null }, CLEAN, 'accepted'],
    [
      'back from done (no round)',
      state([lesson('1.1', 'done', { review_rounds_used: 2 })]),
      { id: '1.1', stage: 'notes', note: 'x' },
      CLEAN,
      'accepted',
    ],
    [
      'back with --reopen in done',
      state([lesson('1.1', 'done')], [], 'done'),
      { id: '1.1', stage: 'code', note: 'x', reopen: true },
      CLEAN,
      'accepted',
    ],
  ];
  for (const [name, current, request, facts, expected] of cases)
    assert.equal(
      outcome(() => decideSet(current, request, facts, BUDGETS)),
      expected,
      name,
    );
});

test('state set: the event records the move, the review round and the review evidence', () => {
  const review = { review: { verdict: 'revise' as const, findings: [] } };
  const notes = state([lesson('1.1', 'notes')]);
  assert.deepEqual(
    decideSet(
      notes,
      { id: '1.1', stage: 'readalong', note: 'reviewer asked' },
      { forwardProblems: [], review },
      BUDGETS,
    ),
    {
      kind: 'lesson.stage',
      lesson: '1.1',
      from: 'notes',
      to: 'readalong',
      note: 'reviewer asked',
      review_round_used: true,
      ...review,
    },
  );
  assert.deepEqual(
    decideSet(
      state([lesson('1.1', 'done')], [], 'done'),
      { id: '1.1', stage: 'code', note: 'x', reopen: true },
      { forwardProblems: [], review },
      BUDGETS,
    ),
    {
      kind: 'lesson.stage',
      lesson: '1.1',
      from: 'done',
      to: 'code',
      note: 'x',
      review_round_used: false,
      reopened: 'done',
    },
  );
  assert.deepEqual(
    decideSet(
      state([lesson('1.1', 'spec')]),
      { id: '1.1', stage: 'code', note: null },
      { forwardProblems: [], review },
      BUDGETS,
    ),
    {
      kind: 'lesson.stage',
      lesson: '1.1',
      from: 'spec',
      to: 'code',
      note: null,
      review_round_used: false,
    },
  );
});

test('state fail: a note, stage code, not blocked; a failure verify already counted takes the note only; the last attempt blocks', () => {
  const failedByVerify: LessonState = lesson('1.1', 'code', { last_verify_failure: { run: 4, code_hash: 'sha256:a' } });
  const cases: Array<[string, LessonState, string | undefined, string | null, string]> = [
    ['no note', lesson('1.1', 'code'), undefined, null, 'state fail 1.1: --note "<one-line cause>" is required'],
    [
      'not at code',
      lesson('1.1', 'pending'),
      'x',
      null,
      'lesson 1.1 is at pending; a failure is recorded only at stage code',
    ],
    [
      'blocked',
      lesson('1.1', 'code', { blocked: BLOCKED }),
      'x',
      null,
      'lesson 1.1 is blocked (needs an API key); unblock it first',
    ],
    ['counted by verify', failedByVerify, 'x', 'sha256:a', 'accepted'],
    ['code changed since verify', failedByVerify, 'x', 'sha256:b', 'accepted'],
  ];
  for (const [name, item, note, codeHash, expected] of cases)
    assert.equal(
      outcome(() => decideFail(state([item]), '1.1', note, { codeHash }, BUDGETS)),
      expected,
      name,
    );
  assert.deepEqual(decideFail(state([failedByVerify]), '1.1', 'parser off by one', { codeHash: 'sha256:a' }, BUDGETS), {
    kind: 'lesson.fail_note',
    lesson: '1.1',
    note: 'parser off by one',
    run: 4,
  });
  const blockedByVerify = lesson('1.1', 'code', {
    last_verify_failure: { run: 4, code_hash: 'sha256:a' },
    blocked: { reason: 'fix budget used up', by: 'fix-budget', at: '2026-01-01T00:00:00.000Z' },
  });
  assert.equal(
    decideFail(state([blockedByVerify]), '1.1', 'x', { codeHash: 'sha256:a' }, BUDGETS).kind,
    'lesson.fail_note',
    'the fix-budget block of that verify takes the note too',
  );
  const last = decideFail(
    state([lesson('1.1', 'code', { fix_attempts_used: 2 })]),
    '1.1',
    'still red',
    { codeHash: null },
    BUDGETS,
  );
  assert.deepEqual(last, {
    kind: 'lesson.fail',
    lesson: '1.1',
    note: 'still red',
    fix_attempts_used: 3,
    blocked: true,
    via: 'state fail',
    run: null,
  });
});

test('state block, unblock and stale', () => {
  const cases: Array<[string, () => unknown, string]> = [
    [
      'block without a reason',
      () => decideBlock(state([lesson('1.1', 'code')]), '1.1', undefined),
      'state block 1.1: --reason "..." is required',
    ],
    [
      'block twice',
      () => decideBlock(state([lesson('1.1', 'code', { blocked: BLOCKED })]), '1.1', 'x'),
      'lesson 1.1 is already blocked (needs an API key)',
    ],
    ['block', () => decideBlock(state([lesson('1.1', 'code')]), '1.1', 'x'), 'accepted'],
    [
      'unblock a lesson not blocked',
      () => decideUnblock(state([lesson('1.1', 'code')]), '1.1'),
      'lesson 1.1 is not blocked',
    ],
    [
      '--review-round without a note',
      () => decideUnblock(state([lesson('1.1', 'code', { blocked: BLOCKED })]), '1.1', null, true),
      'state unblock 1.1: --review-round records the user\'s decision; add --note "<what the user decided>"',
    ],
    [
      'stale without a reason',
      () => decideStale(state([lesson('1.1', 'done')]), '1.1', undefined),
      'state stale 1.1: --reason "..." is required',
    ],
    [
      'stale before done',
      () => decideStale(state([lesson('1.1', 'notes')]), '1.1', 'x'),
      'lesson 1.1 is at notes: only a done lesson can be marked stale',
    ],
    [
      'stale twice',
      () =>
        decideStale(
          state([lesson('1.1', 'done', { stale: { reason: 'renamed', at: '2026-01-01T00:00:00.000Z' } })]),
          '1.1',
          'x',
        ),
      'lesson 1.1 is already stale (renamed)',
    ],
    ['stale', () => decideStale(state([lesson('1.1', 'done', { verified: VERIFIED })]), '1.1', 'x'), 'accepted'],
    ['unknown lesson', () => decideStale(state([]), '9.9', 'x'), 'unknown lesson "9.9"'],
  ];
  for (const [name, decide, expected] of cases) assert.equal(outcome(decide), expected, name);
  const fixBudget = { ...BLOCKED, by: 'fix-budget' as const };
  assert.deepEqual(decideUnblock(state([lesson('1.1', 'code', { blocked: fixBudget })]), '1.1'), {
    kind: 'lesson.unblock',
    lesson: '1.1',
    fix_budget_reset: true,
    note: null,
    review_round_granted: false,
  });
});
