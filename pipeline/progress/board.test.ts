// The live board's model: columns and cards, leases split into running and interrupted, what needs
// a human with its command and tool call, the feed in the report's words, and the pace.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Event, State } from '../../content-schemas/index.ts';
import { BUDGETS, T0, lesson, state, task } from '../protocol/state-fixture.ts';
import { buildBoard, emptyLog, FEED_LENGTH, followLog } from './board.ts';

const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const NOW = new Date(at(120));

function midGeneration(): State {
  const s = state(
    [
      lesson('1.1', 'done', { done_at: at(60) }),
      lesson('1.2', 'code', {
        fix_attempts_used: 3,
        last_failure: 'TypeError: graph is undefined',
        blocked: { reason: 'fix budget used up (3 failed attempts); last: TypeError', by: 'fix-budget', at: at(90) },
        updated_at: at(90),
      }),
      lesson('2.1', 'notes', { review_rounds_used: 2, review_rounds_granted: 1, updated_at: at(110) }),
      lesson('2.2', 'done', { stale: { reason: '2.1 changed', at: at(100) }, done_at: at(80) }),
      lesson('3.1', 'pending'),
    ],
    [
      task('t1', '2.1', 'running', { role: 'notes-writer', started_at: at(110), lease_expires_at: at(130) }),
      task('t2', '3.1', 'running', { role: 'example-designer', started_at: at(50), lease_expires_at: at(70) }),
      task('t3', null, 'done', { phase: 'scaffold' }),
    ],
  );
  s.phase_history = [
    { phase: 'init', entered_at: T0, seq: 1 },
    { phase: 'gate_plan', entered_at: at(5), seq: 8 },
    { phase: 'scaffold', entered_at: at(10), seq: 9 },
    { phase: 'lessons', entered_at: at(20), seq: 12 },
  ];
  s.last_seq = 40;
  return s;
}

const base = (events: Event[] = []) => ({
  state: midGeneration(),
  budgets: BUDGETS,
  log: followLog(emptyLog(), { events, reset: false }),
  drifted: new Set(['1.1']),
  now: NOW,
});

test('one column per stage, pending to done, a card per lesson with flags, budgets and its running task', () => {
  const board = buildBoard(base());
  assert.deepEqual(
    board.columns.map((c) => `${c.stage}:${c.cards.map((card) => card.id).join(',')}`),
    ['pending:3.1', 'spec:', 'code:1.2', 'verified:', 'readalong:', 'notes:2.1', 'reviewed:', 'done:1.1,2.2'],
  );
  const [notes] = board.columns.find((c) => c.stage === 'notes')!.cards;
  assert.deepEqual(notes, {
    id: '2.1',
    slug: 'l2-1',
    title: 'Lesson 2.1',
    module: { id: '2', title: 'Module 2' },
    stage: 'notes',
    blocked: null,
    failed: null,
    stale: null,
    drifted: false,
    fix: { used: 0, budget: 3 },
    review: { used: 2, budget: 3 },
    task: { id: 't1', role: 'notes-writer', age_seconds: 600, interrupted: false },
  });
  const [blocked] = board.columns.find((c) => c.stage === 'code')!.cards;
  assert.deepEqual(
    [blocked!.blocked?.by, blocked!.fix, blocked!.failed],
    ['fix-budget', { used: 3, budget: 3 }, 'TypeError: graph is undefined'],
  );
  const done = board.columns.find((c) => c.stage === 'done')!.cards;
  assert.deepEqual(
    done.map((c) => [c.drifted, c.stale]),
    [
      [true, null],
      [false, '2.1 changed'],
    ],
  );
  assert.deepEqual(board.lessons, { total: 5, done: 2, blocked: 1, stale: 1, drifted: 1 });
});

test('a task whose lease holds is running with the seconds left; one past it is interrupted with the hint', () => {
  const board = buildBoard(base());
  assert.deepEqual(
    board.running.map((t) => [t.id, t.lesson, t.role, t.age_seconds, t.lease_seconds]),
    [['t1', '2.1', 'notes-writer', 600, 600]],
  );
  assert.deepEqual(
    board.interrupted.map((t) => [t.id, t.age_seconds, t.lease_seconds]),
    [['t2', 4200, 3000]],
  );
  assert.match(
    board.interrupted[0]!.hint,
    /stopped renewing its lease: record its answer \(codelabgen state task done\|fail t2\) or reset it \(codelabgen state task reset t2\)/,
  );
});

test('needs a human: each item with the command and the MCP tool call that resolve it', () => {
  const board = buildBoard(base());
  assert.deepEqual(
    board.needs_human.map((item) => [item.kind, item.command, item.tool]),
    [
      [
        'blocked',
        'codelabgen state unblock 1.2 --note "your decision"',
        { name: 'state_unblock', arguments: { id: '1.2', note: 'your decision' } },
      ],
      ['interrupted', 'codelabgen state task reset t2', { name: 'state_task_reset', arguments: { task: 't2' } }],
      [
        'drifted',
        'codelabgen state set 1.1 code --note "code changed after verification"',
        { name: 'state_set', arguments: { id: '1.1', stage: 'code', note: 'code changed after verification' } },
      ],
      [
        'stale',
        'codelabgen state set 2.2 notes --note "redo: 2.1 changed"',
        { name: 'state_set', arguments: { id: '2.2', stage: 'notes', note: 'redo: 2.1 changed' } },
      ],
    ],
  );
  const atGate = { ...base(), state: { ...midGeneration(), phase: 'gate_plan' as const } };
  assert.deepEqual(buildBoard(atGate).needs_human[0], {
    kind: 'gate',
    key: 'gate:gate_plan:8',
    subject: 'gate_plan',
    text: 'gate gate_plan: the user approves what came before, then the course moves on to scaffold',
    command: 'codelabgen state phase scaffold --approved',
    tool: { name: 'state_phase', arguments: { next: 'scaffold', approved: true } },
    review: [
      { slug: 'curriculum', label: 'curriculum', path: '.codelabgen/curriculum.yaml' },
      { slug: 'plan', label: 'plan', path: '.codelabgen/plan.md' },
    ],
  });
  assert.deepEqual(
    board.needs_human.map((item) => item.key),
    [`blocked:1.2:${at(90)}`, `interrupted:t2:${at(70)}`, 'drifted:1.1:', `stale:2.2:${at(100)}`],
  );
});

test('a spending budget used up is what needs a human first after a gate, with how to raise it', () => {
  const spending = midGeneration();
  const usage = { model: 'm', input_tokens: 1000, output_tokens: 500, cache_read_tokens: 8000, cost_usd: 2.5 };
  spending.tasks.t3 = { ...spending.tasks.t3!, result: { phase: 'scaffold', status: 'ok', artifacts: [], usage } };
  const board = buildBoard({ ...base(), state: spending, budgets: { ...BUDGETS, cost_usd: 2.5 } });
  assert.deepEqual(board.needs_human[0], {
    kind: 'budget',
    key: 'budget:cost_usd:2.5',
    subject: 'budgets.cost_usd',
    text:
      'budgets.cost_usd is used up: $2.50 spent of $2.50: no new task starts; raise it in ' +
      '.codelabgen/config.yaml (budgets: cost_usd: 3.75, for instance) if the user agrees to spend more',
    command: 'codelabgen state show',
    tool: { name: 'state_show', arguments: {} },
  });
  // 21 of 35 stage moves made for $2.50: $4.17 at completion.
  assert.deepEqual(board.cost, {
    spent: { cost_usd: 2.5, tokens: 9500, tasks_with_usage: 1 },
    projected_usd: 4.17,
    budget_usd: 2.5,
    budget_tokens: null,
  });
  const roomy = buildBoard({ ...base(), state: spending, budgets: { ...BUDGETS, cost_usd: 2.51, tokens: 9501 } });
  assert.equal(roomy.needs_human[0]?.kind, 'blocked');
  const tokens = buildBoard({ ...base(), state: spending, budgets: { ...BUDGETS, tokens: 9500 } });
  assert.match(tokens.needs_human[0]?.text ?? '', /^budgets\.tokens is used up: 9,500 tokens spent of 9,500 tokens/);
});

test('phases as a timeline: done ones, the current one, gates with who approved them', () => {
  const approve: Event = {
    seq: 9,
    ts: at(10),
    kind: 'phase.advance',
    from: 'gate_plan',
    to: 'scaffold',
    approved: true,
    command: 'codelabgen state phase scaffold --approved',
  };
  const board = buildBoard(base([approve]));
  const byName = new Map(board.phases.map((p) => [p.phase, p]));
  assert.equal(board.phases.length, 11);
  assert.deepEqual(
    board.phases.filter((p) => p.status === 'current').map((p) => p.phase),
    ['lessons'],
  );
  assert.deepEqual(byName.get('gate_plan'), {
    phase: 'gate_plan',
    status: 'done',
    gate: true,
    entered_at: at(5),
    approval: { gate: 'gate_plan', at: at(10), command: 'codelabgen state phase scaffold --approved', seq: 9 },
  });
  assert.deepEqual([byName.get('gate_sources')?.approval, byName.get('assembly')?.status], [null, 'ahead']);
});

test("the feed: the last events, newest first, in the report stories' words", () => {
  const events: Event[] = [
    { seq: 37, ts: at(100), kind: 'lesson.stale', lesson: '2.2', reason: '2.1 changed' },
    {
      seq: 38,
      ts: at(105),
      kind: 'lesson.stage',
      lesson: '2.1',
      from: 'reviewed',
      to: 'readalong',
      note: 'example 2 unclear',
      review_round_used: true,
    },
    { seq: 39, ts: at(110), kind: 'task.start', task: 't1', lesson: '2.1', role: 'notes-writer', lease_seconds: 1200 },
    {
      seq: 40,
      ts: at(111),
      kind: 'lesson.fail',
      lesson: '1.2',
      note: 'TypeError',
      via: 'verify',
      run: 4,
      fix_attempts_used: 3,
      blocked: true,
      code_hash: 'sha256:ab',
    },
  ];
  const board = buildBoard(base(events));
  assert.deepEqual(
    board.feed.map((line) => [line.seq, line.lesson, line.label, line.text]),
    [
      [
        40,
        '1.2',
        'failure',
        'verify failed (run 4); fix attempt 3: TypeError; blocked: fix budget used up after 3 failed attempts',
      ],
      [39, '2.1', 'task', 'task t1 (notes-writer) still running (lease until 2026-01-01 02:10:00Z)'],
      [38, '2.1', 'rework', 'moved back reviewed → readalong (review round 2): example 2 unclear'],
      [37, '2.2', 'stale', 'marked stale: 2.1 changed'],
    ],
  );
});

test('followLog keeps the last events and every gate approval; a reset starts again', () => {
  const many: Event[] = Array.from(
    { length: 50 },
    (_, i) => ({ seq: i + 1, ts: at(i), kind: 'log', fact: 'f', data: {} }) as Event,
  );
  const approve: Event = {
    seq: 51,
    ts: at(51),
    kind: 'phase.advance',
    from: 'gate_sources',
    to: 'topics',
    approved: true,
  };
  let log = followLog(emptyLog(), { events: many.slice(0, 30), reset: false });
  log = followLog(log, { events: [...many.slice(30), approve], reset: false });
  assert.deepEqual(
    [log.recent.length, log.recent[0]?.seq, log.recent.at(-1)?.seq, log.approvals.map((a) => a.gate)],
    [FEED_LENGTH, 32, 51, ['gate_sources']],
  );
  log = followLog(log, { events: many.slice(0, 2), reset: true });
  assert.deepEqual([log.recent.map((e) => e.seq), log.approvals], [[1, 2], []]);
});

test('throughput: lessons done per hour and the time left at the pace of the stage moves so far', () => {
  const { throughput } = buildBoard(base());
  // 100 minutes in the lessons phase; stages reached: 7 + 2 + 5 + 7 + 0 = 21 of 35, the last
  // lesson change at 110 min: 90 minutes for 21 moves, so 14 moves left take 60 minutes.
  assert.deepEqual(throughput, {
    since: at(20),
    done: 2,
    done_per_hour: 1.2,
    stages_done: 21,
    stages_total: 35,
    stages_left: 14,
    last_moved_at: at(110),
    eta_seconds: 3600,
    stalled: false,
  });
  const before = buildBoard({
    ...base(),
    state: { ...midGeneration(), phase_history: [{ phase: 'init', entered_at: T0, seq: 1 }] },
  }).throughput;
  assert.deepEqual([before.done_per_hour, before.eta_seconds], [null, null]);
});

test('the estimate keeps the pace of the moves made while nothing moves, and says stalled after a while', () => {
  const later = (minutes: number) => buildBoard({ ...base(), now: new Date(at(minutes)) }).throughput;
  // 257 s per stage move: stalled past 3 × 257 s = 771 s (more than STALL_SECONDS) without a change.
  assert.deepEqual([later(122).eta_seconds, later(122).stalled], [3600, false]);
  assert.deepEqual([later(123).eta_seconds, later(123).stalled], [3600, true]);
  assert.deepEqual([later(600).eta_seconds, later(600).stalled], [3600, true]);
  const quick = midGeneration();
  for (const id of ['1.2', '2.1']) quick.lessons[id]!.updated_at = at(21); // 21 moves in a minute: STALL_SECONDS is the floor
  const fast = (minutes: number) => buildBoard({ ...base(), state: quick, now: new Date(at(minutes)) }).throughput;
  assert.deepEqual([fast(30).stalled, fast(32).stalled], [false, true]);
  const finished = state([lesson('1.1', 'done', { updated_at: at(30) })]);
  finished.phase_history = midGeneration().phase_history;
  assert.equal(buildBoard({ ...base(), state: finished, now: new Date(at(900)) }).throughput.stalled, false);
});
