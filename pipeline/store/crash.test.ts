// The fault seam kills the CLI (SIGKILL) at each step of a write. The next command recovers (a torn
// line moved aside and reported, missing events replayed, orphan temp files swept), no acknowledged
// event is lost, and the killed event is there exactly when its line was complete.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ackedCourse,
  cli,
  copyOfCourse,
  exists,
  initCourse,
  readEvents,
  readState,
  removeDir,
  snapshot,
} from '../../cli/testing.ts';

const made: string[] = [];
after(() => made.forEach(removeDir));

interface Step {
  step: string;
  /** The killed event's line was complete (and fsynced) before the kill. */
  present: boolean;
  /** What the next command must report on stderr. */
  notices: RegExp[];
}

const TORN = new RegExp(
  String.raw`^warning: recovered: the last line of \.codelabgen\/events\.jsonl was torn \(\d+ bytes, an interrupted ` +
    String.raw`write\); moved to \.codelabgen\/events\.jsonl\.torn-\d+$`,
  'm',
);
const REPLAYED = /^warning: recovered: replayed 1 event\(s\) missing from \.codelabgen\/state\.json \(seq 4\.\.4\)$/m;
const SWEPT = /^warning: recovered: removed 1 orphan temp file\(s\) left by an interrupted write$/m;

const STEPS: Step[] = [
  { step: 'after-lock', present: false, notices: [] },
  { step: 'mid-event', present: false, notices: [TORN] },
  { step: 'after-event-fsync', present: true, notices: [REPLAYED] },
  { step: 'after-temp-write', present: true, notices: [SWEPT, REPLAYED] },
  { step: 'after-rename', present: true, notices: [] },
  { step: 'before-unlock', present: true, notices: [] },
];

function leftovers(root: string): string[] {
  return readdirSync(path.join(root, '.codelabgen'))
    .filter((name) => name === 'lock' || name === 'lock.break' || name.endsWith('.tmp'))
    .sort();
}

for (const { step, present, notices } of STEPS) {
  for (const next of ['state log', 'state show'] as const) {
    test(`killed at ${step}: the next \`${next}\` recovers and the killed event is ${present ? 'present' : 'absent'}`, () => {
      const root = ackedCourse();

      const killed = cli(['state', 'log', 'victim'], { cwd: root, env: { CODELABGEN_TEST_FAULT: `kill@${step}` } });
      assert.equal(killed.signal, 'SIGKILL', `expected SIGKILL at ${step}, got exit ${killed.code}: ${killed.stderr}`);
      assert.equal(killed.stdout, '', 'a killed command never acknowledged');
      assert.ok(leftovers(root).includes('lock'), 'the dead process left its lock');

      const recovered =
        next === 'state log'
          ? cli(['state', 'log', 'after'], { cwd: root })
          : cli(['state', 'show', '--json'], { cwd: root });
      assert.equal(recovered.code, 0, recovered.stderr);
      const warnings = recovered.stderr.trimEnd().split('\n').filter(Boolean);
      assert.equal(warnings.length, notices.length, `stderr:\n${recovered.stderr}`);
      for (const notice of notices) assert.match(recovered.stderr, notice);

      const events = readEvents(root);
      const facts = events.slice(1).map((event) => event.fact);
      const expected = ['acked', 'acked', ...(present ? ['victim'] : []), ...(next === 'state log' ? ['after'] : [])];
      assert.deepEqual(facts, expected);
      assert.deepEqual(
        events.map((event) => event.seq),
        events.map((_, index) => index + 1),
        'seq is gapless',
      );
      assert.equal(readState(root).last_seq, events.length);
      if (step === 'mid-event') {
        const torn = readdirSync(path.join(root, '.codelabgen')).filter((name) =>
          name.startsWith('events.jsonl.torn-'),
        );
        assert.equal(torn.length, 1);
        const kept = readFileSync(path.join(root, '.codelabgen', torn[0] ?? ''), 'utf8');
        assert.ok(
          kept.length > 0 && !kept.includes('\n') && kept.startsWith('{"seq":4,'),
          `torn line kept aside: ${kept}`,
        );
      }
      if (next === 'state show' && leftovers(root).includes('lock')) {
        // A read-only command with nothing to recover does not take the lock, so the dead owner's
        // lock stays until the next write, which breaks it at once.
        assert.deepEqual(leftovers(root), ['lock']);
        assert.equal(cli(['state', 'log', 'after'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '0' } }).code, 0);
      }
      assert.deepEqual(leftovers(root), [], 'no lock or temp file left after recovery');
      const check = cli(['check'], { cwd: root });
      assert.equal(check.code, 0, `${check.stdout}${check.stderr}`);
    });
  }
}

// `new lesson` writes curriculum.yaml, the lesson's files and its spec with one event
// (staged-change.ts): killed at any step, the next command leaves all of them in place with the
// event, or none of them without it, and no staging folder. `after-change-move` is killed after the
// first of its moves (curriculum.yaml), the lesson folder and spec still staged.
/** The notice of a change the next command finished, moving in exactly `targets`. */
const finished = (targets: string) =>
  new RegExp(
    `^warning: recovered: finished moving in the files of an interrupted change \\(${targets.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`,
    'm',
  );

const CHANGE_STEPS: Array<{ step: string; committed: boolean; notice: RegExp | null }> = [
  { step: 'after-lock', committed: false, notice: null },
  {
    step: 'change-seal',
    committed: false,
    notice: /^warning: recovered: removed the staged files of an interrupted change that was never committed$/m,
  },
  { step: 'mid-event', committed: false, notice: TORN },
  {
    step: 'after-event-fsync',
    committed: true,
    notice: /^warning: recovered: finished moving in the files of an interrupted change \(/m,
  },
  {
    step: 'change-move',
    committed: true,
    notice: finished('.codelabgen/curriculum.yaml, 1-basics/1.2-second, .codelabgen/lessons/1.2'),
  },
  {
    step: 'after-change-move',
    committed: true,
    notice: finished('1-basics/1.2-second, .codelabgen/lessons/1.2'),
  },
  { step: 'after-rename', committed: true, notice: null },
];

/** A course with module 1 and its lesson 1.1 (`new module`), a copy of one made per test file. */
function lessonCourse(): string {
  const root = copyOfCourse('module 1 with a lesson', (dir) => {
    initCourse(dir, 'Test course');
    const added = cli(['new', 'module', 'Basics', '--lesson', 'First'], { cwd: dir });
    assert.equal(added.code, 0, added.stderr);
  });
  made.push(path.dirname(root));
  return root;
}

for (const { step, committed, notice } of CHANGE_STEPS) {
  test(`new lesson killed at ${step}: the next command leaves the lesson ${committed ? 'complete, with its event' : 'absent, files and event'}`, {
    timeout: 120_000,
  }, () => {
    const root = lessonCourse();
    const before = snapshot(root);
    const killed = cli(['new', 'lesson', '1', 'Second'], { cwd: root, env: { CODELABGEN_TEST_FAULT: `kill@${step}` } });
    assert.equal(killed.signal, 'SIGKILL', `expected SIGKILL at ${step}, got exit ${killed.code}: ${killed.stderr}`);
    const next = cli(['state', 'log', 'after'], { cwd: root });
    assert.equal(next.code, 0, next.stderr);
    if (notice !== null) assert.match(next.stderr, notice);
    const lesson = readEvents(root).find(
      (event) => event.kind === 'lessons.register' && JSON.stringify(event).includes('"1.2"'),
    );
    assert.equal(lesson !== undefined, committed, 'the event is there exactly when the change committed');
    const curriculum = readFileSync(path.join(root, '.codelabgen', 'curriculum.yaml'), 'utf8');
    assert.equal(/\bSecond\b/.test(curriculum), committed, 'curriculum.yaml');
    assert.equal(exists(path.join(root, '.codelabgen', 'lessons', '1.2', 'spec.yaml')), committed, 'spec');
    const files = [...snapshot(root).keys()].filter((name) => !before.has(name) && !name.startsWith('.codelabgen/'));
    assert.equal(files.length, committed ? 4 : 0, `lesson files: ${files.join(', ')}`);
    assert.deepEqual(staging(root), [], 'no staging folder left');
    const check = cli(['check'], { cwd: root });
    assert.equal(check.code, 0, `${check.stdout}${check.stderr}`);
    assert.match(check.stdout, /^ok {3}event log replays to state\.json/m);
  });
}

function staging(root: string): string[] {
  return readdirSync(path.join(root, '.codelabgen')).filter((name) => name.startsWith('change.'));
}
