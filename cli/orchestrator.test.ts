// The protocol as an orchestrator agent drives it: one count per failure, open tasks, reopening a
// finished course, leases, phase tasks, rework notes, prerequisites. Real CLI in temp dirs.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import {
  advance,
  courseAt,
  CURRICULUM,
  courseWithLessons,
  LESSON_DIRS,
  lessonOf,
  ok,
  refused,
  write,
} from './protocol-fixture.ts';
import { cli, readEvents, removeDir, scratchDir } from './testing.ts';

const roots: string[] = [];
after(() => roots.forEach((root) => removeDir(path.dirname(root))));
/** A registered course at phase lessons whose lessons stand at `stages` (a copy of one made per run). */
function lessonsCourse(
  stages: Record<string, string> = {},
  config = 'budgets: { fix_attempts: 3, review_rounds: 1, parallel: 3 }\n',
): string {
  const root = courseWithLessons(stages, { config, register: true });
  roots.push(root);
  return root;
}

const FAILING_TEST =
  "import test from 'node:test';\nimport assert from 'node:assert';\ntest('answer', () => assert.equal(1, 2));\n";

describe('one failure, one count', () => {
  test('state fail right after a failing verify of the same code adds its note to that failure; a changed code or a failure seen without verify counts', () => {
    const root = lessonsCourse({ '1.1': 'code' });
    write(root, `${LESSON_DIRS['1.1']}/main.test.mjs`, FAILING_TEST);
    const run = cli(['verify', '1.1', '--update-state'], { cwd: root });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(lessonOf(root, '1.1').fix_attempts_used, 1);
    const noted = cli(['state', 'fail', '1.1', '--note', 'answer() returns 42, the test expects 1'], { cwd: root });
    assert.equal(noted.code, 0, noted.stderr);
    assert.match(
      noted.stdout,
      /^lesson 1\.1: this failure is already counted by verify run 1; note added \(fix attempts 1 used\) \(seq \d+\)\n$/,
    );
    assert.equal(lessonOf(root, '1.1').fix_attempts_used, 1, 'the failure stays counted once');
    assert.deepEqual(lessonOf(root, '1.1').last_verify_failure, {
      run: 1,
      code_hash: (lessonOf(root, '1.1').last_verify_failure as { code_hash: string }).code_hash,
      note: 'answer() returns 42, the test expects 1',
    });
    const item = JSON.parse(ok(root, 'state', 'next')).lessons.find((l: { lesson: string }) => l.lesson === '1.1');
    assert.match(
      item.action,
      /orchestrator's note: answer\(\) returns 42, the test expects 1\), then codelabgen verify 1\.1 --update-state$/,
    );
    const report = JSON.parse(ok(root, 'report', '--json'));
    const reported = report.lessons.find((l: { id: string }) => l.id === '1.1');
    assert.equal(reported.fix_attempts, 1);
    assert.deepEqual(
      reported.failures.map((f: { run: number; orchestrator_notes?: string[] }) => [f.run, f.orchestrator_notes]),
      [[1, ['answer() returns 42, the test expects 1']]],
    );
    assert.ok(
      reported.story.some(
        (e: { text: string }) =>
          e.text === 'note on the failure of verify run 1 (already counted): answer() returns 42, the test expects 1',
      ),
    );
    assert.match(
      readFileSync(path.join(root, '.codelabgen', 'report.md'), 'utf8'),
      /· note on the failure of verify run 1 \(already counted\): answer\(\) returns 42, the test expects 1\n/,
    );
    write(root, `${LESSON_DIRS['1.1']}/main.mjs`, 'export const answer = 41;\n');
    ok(root, 'state', 'fail', '1.1', '--note', 'the orchestrator saw it fail');
    assert.equal(lessonOf(root, '1.1').fix_attempts_used, 2);
    ok(root, 'state', 'fail', '1.1', '--note', 'again, no verify between');
    assert.equal(lessonOf(root, '1.1').fix_attempts_used, 3);
  });
});

describe('open tasks', () => {
  test('--open lists running and failed tasks until reset or a later task finishes; --running lists running only', () => {
    const root = lessonsCourse();
    const ids = (...flags: string[]) =>
      JSON.parse(ok(root, 'state', 'task', 'list', ...flags, '--json')).tasks.map((task: { id: string }) => task.id);
    ok(root, 'state', 'task', 'start', '1.1', '--role', 'example-designer');
    ok(root, 'state', 'task', 'fail', 't1', '--note', 'worker crashed');
    ok(root, 'state', 'task', 'start', '2.1', '--role', 'example-designer');
    assert.deepEqual(ids('--open'), ['t1', 't2']);
    assert.deepEqual(ids('--running'), ['t2']);
    ok(root, 'state', 'task', 'start', '1.1', '--role', 'example-designer');
    assert.deepEqual(ids('--open'), ['t1', 't2', 't3']);
    ok(root, 'state', 'task', 'done', 't3');
    assert.deepEqual(ids('--open'), ['t2']);
    ok(root, 'state', 'task', 'fail', 't2', '--note', 'gave up');
    assert.deepEqual(ids('--running'), []);
    assert.match(ok(root, 'state', 'task', 'list', '--running'), /^no running tasks\n$/);
    ok(root, 'state', 'task', 'reset', 't2', '--note', 'user decided to skip');
    assert.match(ok(root, 'state', 'task', 'list', '--open'), /^no open tasks\n$/);
    refused(root, ['state', 'task', 'reset', 't1'], /^error: task t1 is not running \(it is failed since /);
    refused(
      root,
      ['state', 'task', 'list', '--open', '--running'],
      /^error: state task list: give --open or --running, not both$/,
    );
  });
});

describe('no finished course with an unfinished lesson', () => {
  test(
    'in assembly and done a move back is refused unless --reopen, which moves the course back to lessons in the ' +
      'same event; state next says done; task start on a done lesson is refused',
    () => {
      const root = lessonsCourse({ '1.1': 'done', '1.2': 'done', '2.1': 'done' });
      ok(root, 'state', 'phase', 'assembly');
      refused(
        root,
        ['state', 'set', '1.2', 'notes', '--note', 'typo in the notes'],
        new RegExp(
          String.raw`^error: lesson 1\.2: the course is at phase assembly, which needs every lesson done; to rework it, ` +
            String.raw`reopen the course: codelabgen state set 1\.2 notes --note "\.\.\." --reopen \(moves the phase back to ` +
            String.raw`lessons\)$`,
        ),
      );
      refused(
        root,
        ['state', 'task', 'start', '1.2', '--role', 'notes-writer'],
        /^error: lesson 1\.2 is done; no worker runs on a done lesson$/,
      );
      const assembly = JSON.parse(ok(root, 'state', 'next'));
      assert.deepEqual(
        assembly.actions.map((action: { id: string }) => action.id),
        ['assembly.site_build', 'assembly.report'],
        'the site build comes before the report',
      );
      assert.match(assembly.next_step, /site build/);
      ok(root, 'report');
      const last = readEvents(root).at(-1) as { seq: number };
      appendFileSync(
        path.join(root, '.codelabgen', 'events.jsonl'),
        JSON.stringify({
          seq: last.seq + 1,
          ts: new Date().toISOString(),
          kind: 'site.build',
          out: '/tmp/site',
          pages: 4,
          lessons: ['1.1', '1.2', '2.1'],
        }) + '\n',
      );
      assert.match(
        ok(root, 'state', 'phase', 'done'),
        /^phase assembly → done \(seq (\d+)\); report refreshed: \.codelabgen\/report\.md, \.codelabgen\/report\.json\n$/,
      );
      const refreshed = JSON.parse(readFileSync(path.join(root, '.codelabgen', 'report.json'), 'utf8'));
      assert.deepEqual(
        [refreshed.phase, refreshed.last_seq, refreshed.site_build?.pages],
        ['done', readEvents(root).length, 4],
        'the report tells the site build and the move to done',
      );
      assert.match(readFileSync(path.join(root, '.codelabgen', 'report.md'), 'utf8'), /phase `done`/);
      const finished = JSON.parse(ok(root, 'state', 'next'));
      assert.deepEqual(
        [finished.phase, finished.done, finished.ready, finished.next_step],
        ['done', true, false, 'the course is done: nothing left to do'],
      );
      refused(
        root,
        ['state', 'set', '1.2', 'notes', '--note', 'typo in the notes'],
        /^error: lesson 1\.2: the course is at phase done, which needs every lesson done; to rework it, reopen the course: /,
      );
      assert.match(
        ok(root, 'state', 'set', '1.2', 'notes', '--note', 'typo in the notes', '--reopen'),
        /^lesson 1\.2: notes; course reopened: phase lessons \(seq \d+\)\n$/,
      );
      const event = readEvents(root).at(-1);
      assert.deepEqual([event?.kind, event?.reopened, event?.to], ['lesson.stage', 'done', 'notes']);
      assert.equal(JSON.parse(ok(root, 'state', 'show', '--json')).phase, 'lessons');
      refused(
        root,
        ['state', 'set', '1.1', 'reviewed', '--note', 'x', '--reopen'],
        /^error: state set 1\.1: --reopen is only for moving a lesson back while the course is at assembly or done \(it is at lessons\)$/,
      );
      ok(root, 'state', 'rebuild');
      assert.equal(JSON.parse(ok(root, 'state', 'show', '--json')).phase, 'lessons');
    },
  );
});

describe('smaller mismatches', () => {
  test("--role defaults to the role of the lesson's stage; state next and state stages name the same role; init's next is state next's next_step", () => {
    const root = lessonsCourse({ '1.1': 'code' });
    const stages = JSON.parse(ok(root, 'state', 'stages')).stages as Array<{ stage: string; role: string }>;
    const roleOf = (stage: string) => stages.find((row) => row.stage === stage)?.role;
    const item = JSON.parse(ok(root, 'state', 'next')).lessons.find(
      (work: { lesson: string }) => work.lesson === '1.1',
    );
    assert.deepEqual([item.stage, item.role], ['code', roleOf('code')]);
    assert.equal(ok(root, 'state', 'task', 'start', '1.1', '--json').includes('"role": "code-fixer"'), true);
    assert.equal(JSON.parse(ok(root, 'state', 'task', 'start', '2.1', '--json')).task.role, roleOf('pending'));
    advance(root, '1.1', 'reviewed');
    ok(root, 'state', 'task', 'reset', 't1');
    refused(
      root,
      ['state', 'task', 'start', '1.1'],
      /^error: lesson 1\.1 is at reviewed: no worker role does the next step \(final checks\); give --role R if a worker runs anyway$/,
    );
  });

  test('init prints the next step state next gives', () => {
    const dir = scratchDir();
    const init = cli(['init', 'fresh', '--title', 'Fresh'], { cwd: dir });
    assert.equal(init.code, 0, init.stderr);
    const next = JSON.parse(ok(path.join(dir, 'fresh'), 'state', 'next'));
    assert.deepEqual([next.ready, next.done, next.next_step], [true, false, 'codelabgen state phase recon']);
    assert.equal(
      init.stdout.split('\n').find((line) => line.startsWith('next: ')),
      `next: ${next.next_step} --course ${path.join(dir, 'fresh')}`,
    );
  });
});

/** Appends a task.start event dated `agoSeconds` back with a lease, as if a worker started then (the next command applies it). */
function startTaskBackdated(
  root: string,
  lesson: string,
  role: string,
  agoSeconds: number,
  leaseSeconds: number,
): string {
  const state = JSON.parse(ok(root, 'state', 'show', '--json')) as { last_seq: number; task_counter: number };
  const id = `t${state.task_counter + 1}`;
  const event = {
    seq: state.last_seq + 1,
    ts: new Date(Date.now() - agoSeconds * 1000).toISOString(),
    kind: 'task.start',
    task: id,
    lesson,
    role,
    lease_seconds: leaseSeconds,
  };
  appendFileSync(path.join(root, '.codelabgen', 'events.jsonl'), `${JSON.stringify(event)}\n`);
  return id;
}

describe('interrupted means interrupted', () => {
  test('a task is running while its lease holds, renewed by heartbeat; once expired it is interrupted with the files changed since it started', () => {
    const root = lessonsCourse(
      { '1.1': 'spec' },
      'budgets: { fix_attempts: 3, review_rounds: 1, parallel: 3 }\ntask_lease: 30m\n',
    );
    const live = ok(root, 'state', 'task', 'start', '2.1').trim();
    let next = JSON.parse(ok(root, 'state', 'next'));
    assert.deepEqual(
      next.running.map((item: { task: string }) => item.task),
      [live],
    );
    assert.ok(
      Date.parse(next.running[0].lease_expires_at) - Date.parse(next.running[0].started_at) === 30 * 60_000,
      'the config lease (30m) applies',
    );
    const stale = startTaskBackdated(root, '1.1', 'code-author', 3600, 600);
    write(root, `${LESSON_DIRS['1.1']}/half-written.mjs`, 'export const answer =\n');
    next = JSON.parse(ok(root, 'state', 'next'));
    assert.deepEqual(
      next.running.map((item: { task: string }) => item.task),
      [live],
    );
    assert.deepEqual(
      next.interrupted.map((item: { task: string; stage: string; role: string }) => [item.task, item.stage, item.role]),
      [[stale, 'spec', 'code-author']],
    );
    assert.ok(
      next.interrupted[0].changed_files.includes(`${LESSON_DIRS['1.1']}/half-written.mjs`),
      JSON.stringify(next.interrupted[0]),
    );
    assert.match(
      next.interrupted[0].hint,
      /^code-author on lesson 1\.1 \(at spec\) stopped renewing its lease; check the \d+ files? it changed/,
    );
    assert.match(
      ok(root, 'state', 'task', 'heartbeat', stale, '--lease', '45m'),
      new RegExp(`^task ${stale} running until \\S+\\n$`),
    );
    next = JSON.parse(ok(root, 'state', 'next'));
    assert.deepEqual([next.running.map((item: { task: string }) => item.task), next.interrupted], [[live, stale], []]);
    assert.equal(readEvents(root).at(-1)?.kind, 'task.heartbeat');
    refused(
      root,
      ['state', 'task', 'heartbeat', stale, '--lease', '5 minutes'],
      /^error: --lease "5 minutes": expected a duration like "20m", "90s" or "2h"$/,
    );
    ok(root, 'state', 'task', 'done', stale);
    refused(root, ['state', 'task', 'heartbeat', stale], /^error: task t\d+ is not running \(it is done since /);
  });

  test(
    'an expired lease reads interrupted in task list (human and --json) and state show; reset --if-expired ' +
      'resets only then; the report asks a human about it',
    () => {
      const root = lessonsCourse({ '1.1': 'spec' });
      const live = ok(root, 'state', 'task', 'start', '2.1').trim();
      const stale = startTaskBackdated(root, '1.1', 'code-author', 3600, 600);
      const listed = JSON.parse(ok(root, 'state', 'task', 'list', '--open', '--json')).tasks;
      assert.deepEqual(
        listed.map((task: { id: string; status: string }) => [task.id, task.status]),
        [
          [live, 'running'],
          [stale, 'interrupted'],
        ],
      );
      const expiredAt = listed[1].lease_expires_at as string;
      assert.equal(Date.parse(expiredAt) - Date.parse(listed[1].started_at), 600_000);
      assert.match(
        ok(root, 'state', 'task', 'list', '--open'),
        new RegExp(`^${stale} +1\\.1 +code-author +interrupted +\\S+ \\(lease expired ${expiredAt}\\)$`, 'm'),
      );
      assert.deepEqual(
        JSON.parse(ok(root, 'state', 'task', 'list', '--running', '--json')).tasks.map(
          (task: { id: string }) => task.id,
        ),
        [live],
      );
      const show = ok(root, 'state', 'show');
      assert.match(show, /^open tasks: 2 \(1 interrupted\)$/m);
      assert.match(
        show,
        new RegExp(`^  ${stale} 1\\.1 code-author since \\S+, interrupted \\(lease expired ${expiredAt}\\)$`, 'm'),
      );
      ok(root, 'state', 'log', 'orchestrator-restarted'); // the report's clock is the log: an event after the lease ran out
      const report = JSON.parse(ok(root, 'report', '--json'));
      assert.deepEqual(
        report.needs_human
          .filter((item: { kind: string }) => item.kind === 'task-interrupted')
          .map((item: { lesson: string; text: string }) => [item.lesson, item.text]),
        [
          [
            '1.1',
            `1.1: task ${stale} (code-author) interrupted: its lease ran out at ` +
              `${expiredAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')} and it was never resumed or reset`,
          ],
        ],
      );
      refused(
        root,
        ['state', 'task', 'reset', live, '--if-expired'],
        new RegExp(
          `^error: task ${live} is running and its lease holds until \\S+: --if-expired resets only an interrupted task$`,
        ),
      );
      ok(root, 'state', 'task', 'reset', stale, '--if-expired', '--note', 'worker gone');
      assert.equal(
        JSON.parse(ok(root, 'state', 'task', 'list', '--json')).tasks.find((task: { id: string }) => task.id === stale)
          .status,
        'reset',
      );
      assert.equal(
        JSON.parse(ok(root, 'report', '--json')).needs_human.filter(
          (item: { kind: string }) => item.kind === 'task-interrupted',
        ).length,
        0,
        'a reset task needs no human',
      );
    },
  );
});

describe('phase tasks', () => {
  test('workers that are not about one lesson are recorded with --phase, listed, leased like lesson tasks, and counted in the report by role', () => {
    const root = courseAt('sources');
    roots.push(root);
    assert.equal(ok(root, 'state', 'task', 'start', '--phase', 'sources', '--role', 'source-researcher').trim(), 't1');
    assert.equal(ok(root, 'state', 'task', 'start', '--phase', 'sources', '--role', 'source-researcher').trim(), 't2');
    refused(
      root,
      ['state', 'task', 'start', '--phase', 'recon', '--role', 'researcher'],
      /^error: --phase recon: the course is at phase sources; a phase task is for the current phase$/,
    );
    refused(
      root,
      ['state', 'task', 'start', '--phase', 'gate_sources', '--role', 'researcher'],
      /^error: --phase "gate_sources": phase tasks are for recon, sources, topics, curriculum, scaffold, assembly$/,
    );
    refused(
      root,
      ['state', 'task', 'start', '--phase', 'sources'],
      /^error: state task start --phase sources: --role R is required for a phase task/,
    );
    refused(root, ['state', 'task', 'start'], /^error: state task start: give a lesson id or --phase P$/);
    refused(
      root,
      ['state', 'task', 'start', '1.1', '--phase', 'sources', '--role', 'researcher'],
      /^error: state task start: give a lesson id or --phase P, not both$/,
    );
    assert.match(ok(root, 'state', 'task', 'list', '--open'), /^t1 +sources +source-researcher +running /);
    const next = JSON.parse(ok(root, 'state', 'next'));
    assert.deepEqual(
      next.running.map((item: { task: string; lesson: null; phase: string }) => [item.task, item.lesson, item.phase]),
      [
        ['t1', null, 'sources'],
        ['t2', null, 'sources'],
      ],
    );
    assert.match(
      ok(root, 'state', 'task', 'done', 't1', '--note', 'found 4 sources'),
      /^task t1 done \(phase sources, source-researcher\)\n$/,
    );
    const state = JSON.parse(ok(root, 'state', 'show', '--json')) as { last_seq: number; task_counter: number };
    appendFileSync(
      path.join(root, '.codelabgen', 'events.jsonl'),
      JSON.stringify({
        seq: state.last_seq + 1,
        ts: new Date(Date.now() - 7_200_000).toISOString(),
        kind: 'task.start',
        task: 't3',
        lesson: null,
        phase: 'sources',
        role: 'source-digester',
        lease_seconds: 60,
      }) + '\n',
    );
    const interrupted = JSON.parse(ok(root, 'state', 'next')).interrupted;
    assert.deepEqual(
      interrupted.map((item: { task: string; phase: string; stage: null; changed_files: string[] }) => [
        item.task,
        item.phase,
        item.stage,
        item.changed_files,
      ]),
      [['t3', 'sources', null, []]],
    );
    assert.match(
      interrupted[0].hint,
      /^source-digester on phase sources stopped renewing its lease; no lesson file changed since it started/,
    );
    const report = JSON.parse(ok(root, 'report', '--json'));
    assert.deepEqual(
      report.tasks.map((row: { role: string; count: number }) => [row.role, row.count]),
      [
        ['source-digester', 1],
        ['source-researcher', 2],
      ],
    );
  });
});

describe('rework keeps its reason', () => {
  test("the work item carries the move-back note; reviewed needs a review of the current round; unblock --review-round records the user's decision", () => {
    const root = lessonsCourse({ '1.1': 'reviewed' });
    const review = path.join(root, '.codelabgen/lessons/1.1/review.md');
    utimesSync(review, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    ok(root, 'state', 'set', '1.1', 'readalong', '--note', 'reviewer: example 2 unclear');
    const item = JSON.parse(ok(root, 'state', 'next')).lessons.find(
      (work: { lesson: string }) => work.lesson === '1.1',
    );
    assert.deepEqual(
      [item.role, item.rework.from, item.rework.to, item.rework.note],
      ['notes-writer', 'reviewed', 'readalong', 'reviewer: example 2 unclear'],
    );
    assert.match(
      item.action,
      new RegExp(
        '^rework, moved back from reviewed to readalong: "reviewer: example 2 unclear"; the work redone now is ' +
          String.raw`notes \(to redo readalong itself: codelabgen state rework 1\.1 readalong --note "why"\); notes-writer ` +
          String.raw`writes docs\/notes\.md`,
      ),
    );
    ok(root, 'state', 'set', '1.1', 'notes');
    refused(
      root,
      ['state', 'set', '1.1', 'reviewed'],
      new RegExp(
        String.raw`^error: lesson 1\.1: cannot move to reviewed: \.codelabgen\/lessons\/1\.1\/review\.md: written before ` +
          String.raw`the move back from reviewed \(\S+\); the current review round is 2: review again \(round: 2\)$`,
      ),
    );
    write(root, '.codelabgen/lessons/1.1/review.md', '---\nlesson: "1.1"\nverdict: pass\nround: 2\n---\nClear now.\n');
    utimesSync(review, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000)); // accepted by its round alone
    ok(root, 'state', 'set', '1.1', 'reviewed');
    assert.equal(
      JSON.parse(ok(root, 'state', 'next')).lessons.find((work: { lesson: string }) => work.lesson === '1.1').rework,
      undefined,
    );
    refused(
      root,
      ['state', 'set', '1.1', 'notes', '--note', 'still unclear'],
      /^error: lesson 1\.1: review rounds used up \(1 of 1\); it cannot move back from reviewed$/,
    );
    ok(root, 'state', 'block', '1.1', '--reason', 'review rounds used up');
    refused(
      root,
      ['state', 'unblock', '1.1', '--review-round'],
      /^error: state unblock 1\.1: --review-round records the user's decision; add --note "<what the user decided>"$/,
    );
    assert.match(
      ok(root, 'state', 'unblock', '1.1', '--review-round', '--note', 'user: one more round for example 2'),
      /^lesson 1\.1: unblocked at reviewed; one more review round granted \(1 in all\) \(seq \d+\)\n$/,
    );
    const event = readEvents(root).at(-1);
    assert.deepEqual(
      [event?.kind, event?.note, event?.review_round_granted],
      ['lesson.unblock', 'user: one more round for example 2', true],
    );
    ok(root, 'state', 'set', '1.1', 'notes', '--note', 'still unclear');
    assert.equal(lessonOf(root, '1.1').review_rounds_used, 2);
  });
});

describe('state rework', () => {
  test(
    'state rework <id> <stage-to-redo> moves back to the stage before it, under the rules of a backward state ' +
      'set; state set --help and its refusals point at it',
    () => {
      const root = lessonsCourse({ '1.1': 'notes' });
      refused(
        root,
        ['state', 'rework', '1.1', 'reviewed', '--note', 'x'],
        /^error: lesson 1\.1 is at notes: reviewed is not done yet, so there is nothing to redo; the work now is reviewed$/,
      );
      refused(
        root,
        ['state', 'rework', '1.1', 'pending', '--note', 'x'],
        /^error: state rework 1\.1: pending is no work to redo; to write the spec again: codelabgen state rework 1\.1 spec --note "why"$/,
      );
      const noNote = refused(
        root,
        ['state', 'rework', '1.1', 'readalong'],
        /^error: lesson 1\.1: moving back from notes to verified needs --note "why"$/,
      );
      assert.match(
        noNote.stderr,
        /^hint: moving back to verified redoes readalong; to name the stage to redo instead: codelabgen state rework 1\.1 readalong --note "why"$/m,
      );
      assert.match(
        ok(root, 'state', 'rework', '1.1', 'readalong', '--note', 'reviewer: example 2 unclear'),
        /^lesson 1\.1: back at verified, readalong is the work now \(review rounds 1 used\) \(seq \d+\)\n$/,
      );
      const event = readEvents(root).at(-1);
      assert.deepEqual(
        [event?.kind, event?.from, event?.to, event?.note, event?.review_round_used],
        ['lesson.stage', 'notes', 'verified', 'reviewer: example 2 unclear', true],
      );
      const item = JSON.parse(ok(root, 'state', 'next')).lessons.find(
        (work: { lesson: string }) => work.lesson === '1.1',
      );
      assert.deepEqual([item.stage, item.next_stage, item.role], ['verified', 'readalong', 'readalong-writer']);
      advance(root, '1.1', 'notes');
      refused(
        root,
        ['state', 'rework', '1.1', 'notes', '--note', 'again'],
        /^error: lesson 1\.1: review rounds used up \(1 of 1\); it cannot move back from notes$/,
      );
      const already = refused(root, ['state', 'set', '1.1', 'notes'], /^error: lesson 1\.1 is already at notes$/);
      assert.match(
        already.stderr,
        /^hint: to redo notes: codelabgen state rework 1\.1 notes --note "why" \(moves it back to readalong\)$/m,
      );
      const help = ok(root, 'state', 'set', '--help');
      assert.match(help, /state rework <id> <stage-to-redo> --note "why"/);
      assert.match(ok(root, 'state', 'rework', '--help'), /^usage: codelabgen state rework <id> <stage-to-redo>/);
    },
  );
});

describe('prerequisites', () => {
  test('check and state next flag a done lesson whose prerequisite drifted or was moved back after it was done', () => {
    const root = lessonsCourse({ '1.1': 'done', '1.2': 'done' });
    assert.deepEqual(JSON.parse(ok(root, 'state', 'next')).prerequisites_changed, []);
    write(root, `${LESSON_DIRS['1.1']}/main.mjs`, 'export const answer = 43;\n');
    let next = JSON.parse(ok(root, 'state', 'next'));
    assert.deepEqual(
      next.prerequisites_changed.map((flag: { lesson: string; depends_on: string; change: string }) => [
        flag.lesson,
        flag.depends_on,
        flag.change,
      ]),
      [['1.2', '1.1', 'drifted']],
    );
    assert.equal(
      next.prerequisites_changed[0].message,
      '1.2 depends on 1.1, which changed after 1.2 was done (1.1 drifted)',
    );
    const drifted = cli(['check'], { cwd: root });
    assert.equal(drifted.code, 1, drifted.stdout + drifted.stderr);
    assert.match(
      drifted.stdout,
      new RegExp(
        String.raw`^warn done lessons whose prerequisites changed\n {5}- warning: 1\.2 depends on 1\.1, which changed ` +
          String.raw`after 1\.2 was done \(1\.1 drifted\); read 1\.2 against the change; if it relies on what changed, redo ` +
          String.raw`it: codelabgen state stale 1\.2 --reason "1\.1 changed"\. This clears when 1\.1 is verified again or ` +
          String.raw`1\.2 is marked stale \(verify 1\.2 re-runs only its own tests and clears nothing\)$`,
        'm',
      ),
    );
    ok(root, 'state', 'set', '1.1', 'code', '--note', 'code changed');
    next = JSON.parse(ok(root, 'state', 'next'));
    assert.equal(
      next.prerequisites_changed[0]?.message,
      '1.2 depends on 1.1, which changed after 1.2 was done (1.1 was moved back to code)',
    );
    const movedBack = cli(['check', '--json'], { cwd: root });
    assert.equal(movedBack.code, 0, 'warnings keep exit 0');
    assert.equal(JSON.parse(movedBack.stdout).warnings, 1);
    ok(root, 'state', 'stale', '1.2', '--reason', '1.1 changed');
    assert.deepEqual(JSON.parse(ok(root, 'state', 'next')).prerequisites_changed, []);
  });
});

describe('phase workers report', () => {
  test(
    'a recon worker returns {"phase": "recon", ...}: status check accepts it, task done --result stores it; a ' +
      'lesson status for a phase task is refused saying what was expected',
    () => {
      const root = courseAt('recon');
      roots.push(root);
      const task = ok(root, 'state', 'task', 'start', '--phase', 'recon', '--role', 'researcher').trim();
      write(
        root,
        'answer.txt',
        'Wrote the overview.\n```json\n{"phase": "recon", "status": "ok", "artifacts": ' +
          '[".codelabgen/research/overview.md"], "notes": "3 sources found"}\n```\n',
      );
      assert.equal(ok(root, 'status', 'check', 'answer.txt'), 'ok: phase recon, status ok, 1 artifact\n');
      write(root, 'lesson-answer.txt', '{"lesson": "1.1", "status": "ok", "stage": "spec"}');
      const wrongKind = refused(
        root,
        ['state', 'task', 'done', task, '--result', 'lesson-answer.txt'],
        new RegExp(
          String.raw`^error: lesson-answer\.txt: task t1 is a phase task \(phase recon\): expected a phase worker's status ` +
            String.raw`\{"phase": "recon", "status": "ok"\|"failed"\|"needs-user", "artifacts": \[\.\.\.\], "notes": ` +
            String.raw`"\.\.\."\} \(and 2 more problems\)$`,
        ),
      );
      assert.match(wrongKind.stderr, /^hint: lesson-answer\.txt: phase: missing; expected one of "recon"\|/m);
      write(root, 'other-phase.txt', '{"phase": "topics", "status": "ok"}');
      refused(
        root,
        ['state', 'task', 'done', task, '--result', 'other-phase.txt'],
        /^error: --result: phase: is "topics", but task t1 is for phase recon$/,
      );
      ok(root, 'state', 'task', 'done', task, '--result', 'answer.txt');
      const stored = JSON.parse(ok(root, 'state', 'task', 'list', '--json')).tasks[0];
      assert.deepEqual(stored.result, {
        phase: 'recon',
        status: 'ok',
        artifacts: ['.codelabgen/research/overview.md'],
        notes: '3 sources found',
      });
    },
  );
});

describe('the curriculum gate', () => {
  test('leaving curriculum checks what register checks: duplicate ids, prerequisites unknown or later, shared folders', () => {
    const root = courseAt('curriculum');
    roots.push(root);
    write(root, '.codelabgen/plan.md', '# Plan\n');
    const bad = CURRICULUM.replace('id: "2.1"', 'id: "1.1"').replace(
      'prerequisites: ["1.1"]',
      'prerequisites: ["2.9"]',
    );
    write(root, '.codelabgen/curriculum.yaml', bad);
    const next = JSON.parse(ok(root, 'state', 'next'));
    assert.deepEqual(next.actions.find((action: { id: string }) => action.id === 'curriculum.yaml').problems, [
      '.codelabgen/curriculum.yaml: modules[0].lessons[1].prerequisites[0]: unknown lesson "2.9"',
      '.codelabgen/curriculum.yaml: modules[1].lessons[0].id: duplicate lesson id "1.1" (also at modules[0].lessons[0])',
    ]);
    assert.equal(next.ready, false);
    const refusal = refused(
      root,
      ['state', 'phase', 'gate_plan'],
      /^error: cannot leave curriculum: \.codelabgen\/curriculum\.yaml: modules\[0\]\.lessons\[1\]\.prerequisites\[0\]: unknown lesson "2\.9" \(and 1 more\)$/,
    );
    assert.match(
      refusal.stderr,
      /^hint: \.codelabgen\/curriculum\.yaml: modules\[1\]\.lessons\[0\]\.id: duplicate lesson id "1\.1"/m,
    );
    write(root, '.codelabgen/curriculum.yaml', CURRICULUM.replace('prerequisites: ["1.1"]', 'prerequisites: ["2.1"]'));
    refused(
      root,
      ['state', 'phase', 'gate_plan'],
      new RegExp(
        String.raw`^error: cannot leave curriculum: \.codelabgen\/curriculum\.yaml: ` +
          String.raw`modules\[0\]\.lessons\[1\]\.prerequisites\[0\]: "2\.1" comes later in the curriculum; a prerequisite ` +
          'must be an earlier lesson$',
      ),
    );
    write(root, '.codelabgen/curriculum.yaml', CURRICULUM);
    ok(root, 'state', 'phase', 'gate_plan');
  });
});
