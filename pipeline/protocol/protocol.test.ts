// Table tests of the other decisions (state phase, state task, state log, register, verify's verdict,
// site build), the command table, and the rule that protocol/ never reads the disk.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { RegisteredLesson, RunResult, State } from '../../content-schemas/index.ts';
import { COMMANDS } from '../../cli/commands.ts';
import { DECISIONS } from './commands.ts';
import { decideLog, parseLogRequest } from './log.ts';
import { decidePhase } from './phases.ts';
import { decideRegister } from './register.ts';
import { decideSiteBuild } from './site-build.ts';
import { BUDGETS, lesson, outcome, state, task } from './state-fixture.ts';
import { decideStart, decideTaskFinish, decideTaskHeartbeat, decideTaskReset } from './tasks.ts';
import { decideVerdict } from './verdict.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

function at(phase: State['phase']): State {
  return state([lesson('1.1', 'done')], [], phase);
}

test('state phase: one step, by name; gates need --approved; the facts list what is missing', () => {
  const none = { problems: [] };
  const cases: Array<[string, () => unknown, string]> = [
    [
      'skipping',
      () => decidePhase(at('init'), 'sources', false, none),
      'cannot move from init to sources: phases move one step at a time; the next phase is recon',
    ],
    [
      'unknown phase',
      () => decidePhase(at('init'), 'lesson', false, none),
      'unknown phase "lesson"; the next phase is recon',
    ],
    [
      'at the end',
      () => decidePhase(at('done'), 'done', false, none),
      'the course is already at the last phase (done)',
    ],
    [
      'gate',
      () => decidePhase(at('gate_plan'), 'scaffold', false, none),
      "leaving gate_plan needs the user's approval: codelabgen state phase scaffold --approved",
    ],
    [
      'missing artifacts',
      () => decidePhase(at('recon'), 'sources', false, { problems: ['overview.md: missing', 'x: empty'] }),
      'cannot leave recon: overview.md: missing (and 1 more)',
    ],
    ['approved gate', () => decidePhase(at('gate_plan'), 'scaffold', true, none), 'accepted'],
    ['next phase', () => decidePhase(at('recon'), 'sources', false, none), 'accepted'],
  ];
  for (const [name, decide, expected] of cases) assert.equal(outcome(decide), expected, name);
  assert.deepEqual(decidePhase(at('gate_plan'), 'scaffold', true, none), {
    kind: 'phase.advance',
    from: 'gate_plan',
    to: 'scaffold',
    approved: true,
  });
});

test('state task: start, heartbeat, finish and reset', () => {
  const lessons = [lesson('1.1', 'spec'), lesson('1.2', 'done'), lesson('1.3', 'reviewed')];
  const running = state(lessons, [task('t1', '1.1')], 'lessons');
  const start =
    (request: Partial<Parameters<typeof decideStart>[1]>, current = running) =>
    () =>
      decideStart(current, { lesson: undefined, phase: undefined, role: undefined, leaseSeconds: 600, ...request });
  const cases: Array<[string, () => unknown, string]> = [
    ['neither lesson nor phase', start({}), 'state task start: give a lesson id or --phase P'],
    ['both', start({ lesson: '1.1', phase: 'lessons' }), 'state task start: give a lesson id or --phase P, not both'],
    ['unknown lesson', start({ lesson: '9.9' }), 'unknown lesson "9.9"'],
    ['done lesson', start({ lesson: '1.2' }), 'lesson 1.2 is done; no worker runs on a done lesson'],
    [
      'bad role',
      start({ lesson: '1.3', role: 'Code Author' }),
      '--role "Code Author": expected a worker role in kebab-case like "code-author"',
    ],
    [
      'no role for the stage',
      start({ lesson: '1.3' }),
      'lesson 1.3 is at reviewed: no worker role does the next step (final checks); give --role R if a worker runs anyway',
    ],
    [
      'second running task',
      start({ lesson: '1.1' }),
      'lesson 1.1 already has a running task t1 (code-author, started 2026-01-01T00:00:00.000Z)',
    ],
    [
      'phase task for another phase',
      start({ phase: 'recon', role: 'researcher' }),
      '--phase recon: the course is at phase lessons; a phase task is for the current phase',
    ],
    [
      'phase without tasks',
      start({ phase: 'lessons', role: 'researcher' }),
      '--phase "lessons": phase tasks are for recon, sources, topics, curriculum, scaffold, assembly',
    ],
    [
      'phase task without a role',
      start({ phase: 'recon' }, state([], [], 'recon')),
      'state task start --phase recon: --role R is required for a phase task (e.g. --role researcher)',
    ],
    ['heartbeat of an unknown task', () => decideTaskHeartbeat(running, 't9', 60), 'unknown task "t9"'],
    [
      'finish a task id that is none',
      () => decideTaskFinish(running, 'x1', 'done', null, null),
      '"x1" is not a task id (expected one like "t12")',
    ],
    [
      'result about another lesson',
      () => decideTaskFinish(running, 't1', 'done', null, { lesson: '1.2', status: 'ok', stage: 'spec' } as never),
      '--result: lesson: is "1.2", but task t1 is for lesson 1.1',
    ],
    [
      'reset a finished task',
      () => decideTaskReset(state(lessons, [task('t1', '1.1', 'done')]), 't1', null),
      'task t1 is not running (it is done since 2026-01-01T00:00:00.000Z)',
    ],
    [
      'reset an open failed task',
      () => decideTaskReset(state(lessons, [task('t1', '1.1', 'failed')]), 't1', null),
      'accepted',
    ],
  ];
  for (const [name, decide, expected] of cases) assert.equal(outcome(decide), expected, name);
  assert.deepEqual(
    decideStart(state(lessons), { lesson: '1.1', phase: undefined, role: undefined, leaseSeconds: 600 }),
    { kind: 'task.start', task: 't1', lesson: '1.1', role: 'code-author', lease_seconds: 600 },
  );
});

test('state log: kind, data pairs and lesson', () => {
  const cases: Array<[string, () => unknown, string]> = [
    [
      'bad kind',
      () => parseLogRequest('no spaces', [], null),
      'state log: kind "no spaces" must be letters, digits, ".", "_" or "-" (at most 64), e.g. source-unreachable',
    ],
    ['no =', () => parseLogRequest('k', ['novalue'], null), '--data "novalue": expected key=value'],
    [
      'bad key',
      () => parseLogRequest('k', ['a b=1'], null),
      '--data key "a b": use letters, digits, "_", "." or "-" (at most 64)',
    ],
    [
      '__proto__',
      () => parseLogRequest('k', ['__proto__=1'], null),
      '--data key "__proto__" is reserved; choose another key',
    ],
    ['twice', () => parseLogRequest('k', ['a=1', 'a=2'], null), '--data a: given twice'],
    [
      'too long',
      () => parseLogRequest('k', [`a=${'x'.repeat(64 * 1024 + 1)}`], null),
      '--data a: value is 65537 characters; the limit is 65536',
    ],
    ['unknown lesson', () => decideLog(state([]), parseLogRequest('k', [], '9.9')), 'unknown lesson "9.9"'],
  ];
  for (const [name, decide, expected] of cases) assert.equal(outcome(decide), expected, name);
  assert.deepEqual(
    decideLog(state([]), parseLogRequest('source-unreachable', ['url=https://x.dev', 'note=a=b'], null)),
    { kind: 'log', fact: 'source-unreachable', lesson: null, data: { url: 'https://x.dev', note: 'a=b' } },
  );
});

test('register: a progressed lesson is neither dropped nor moved without --allow-drop', () => {
  const registered = (id: string, dir: string): RegisteredLesson => ({
    id,
    title: `Lesson ${id}`,
    slug: 'l',
    module_id: '1',
    module_slug: 'm1',
    module_title: 'Module 1',
    dir,
  });
  const current = state([lesson('1.1', 'spec'), lesson('1.2', 'pending')]);
  const same = [registered('1.1', '1-m1/1.1-l'), registered('1.2', '1-m1/1.2-l')];
  const cases: Array<[string, RegisteredLesson[], boolean, string]> = [
    [
      'drop a progressed lesson',
      [registered('1.2', '1-m1/1.2-l')],
      false,
      'lesson 1.1 (at spec) is no longer in the curriculum; register refuses to drop a lesson that has progressed',
    ],
    [
      'move a progressed lesson',
      [registered('1.1', '1-m1/1.1-other'), registered('1.2', '1-m1/1.2-l')],
      false,
      'lesson 1.1 (at spec) would move from 1-m1/1.1-l to 1-m1/1.1-other; register refuses to renumber or move a lesson that has progressed',
    ],
    ['drop with --allow-drop', [registered('1.2', '1-m1/1.2-l')], true, 'accepted'],
    ['drop a pending lesson', [registered('1.1', '1-m1/1.1-l')], false, 'accepted'],
  ];
  for (const [name, lessons, allowDrop, expected] of cases)
    assert.equal(
      outcome(() => decideRegister(current, lessons, allowDrop)),
      expected,
      name,
    );
  const first = state([]);
  const plan = decideRegister(first, same, false);
  assert.deepEqual([plan.added, plan.updated, plan.removed, plan.unchanged], [['1.1', '1.2'], [], [], false]);
});

test("verify's verdict: a pass verifies at the code's hash; a failure uses an attempt with its evidence", () => {
  const run = (passed: boolean): RunResult =>
    ({
      lesson: '1.1',
      passed,
      run: 2,
      code_hash: 'sha256:c',
      tests: null,
      cause: passed ? null : 'assertion failed',
    }) as unknown as RunResult;
  assert.equal(
    outcome(() => decideVerdict(state([lesson('1.1', 'spec')]), run(true), null, BUDGETS)),
    'lesson 1.1 is at spec; verify --update-state needs it at code',
  );
  assert.deepEqual(decideVerdict(state([lesson('1.1', 'code')]), run(true), null, BUDGETS), {
    kind: 'lesson.verified',
    lesson: '1.1',
    code_hash: 'sha256:c',
    run: 2,
    tests: null,
  });
  assert.deepEqual(decideVerdict(state([lesson('1.1', 'code')]), run(false), 'not ok 1 - adds', BUDGETS), {
    kind: 'lesson.fail',
    lesson: '1.1',
    note: 'assertion failed',
    fix_attempts_used: 1,
    blocked: false,
    via: 'verify',
    run: 2,
    code_hash: 'sha256:c',
    tests: null,
    evidence: 'not ok 1 - adds',
  });
});

test('site build: the record of a publish build', () => {
  assert.deepEqual(decideSiteBuild({ out: `/o/${'x'.repeat(2000)}`, pages: 3, lessons: ['1.1'] }), {
    kind: 'site.build',
    out: `/o/${'x'.repeat(1021)}`,
    pages: 3,
    lessons: ['1.1'],
  });
});

test('the command table names real commands, each with its decision', () => {
  const names = new Set(COMMANDS.map((spec) => spec.name));
  for (const [command, decide] of Object.entries(DECISIONS)) {
    assert.ok(names.has(command), `${command} is not a CLI command`);
    assert.equal(typeof decide, 'function', command);
  }
});

test('protocol/ reads no disk: its modules import no node: module and no disk-reading pipeline module', () => {
  const modules = readdirSync(HERE).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'state-fixture.ts',
  );
  const allowed =
    /^(\.\/[a-z-]+\.ts|\.\.\/\.\.\/content-schemas\/(index|fast)\.ts|\.\.\/(course\/course|course\/errors|state\/keyed)\.ts)$/;
  for (const file of modules) {
    const imports = [...readFileSync(path.join(HERE, file), 'utf8').matchAll(/from '([^']+)'/g)].map(
      (match) => match[1],
    );
    assert.deepEqual(
      imports.filter((specifier) => !allowed.test(specifier ?? '')),
      [],
      file,
    );
  }
});
