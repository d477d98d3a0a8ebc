// Run-result files: exclusive numbering under concurrent writers, reading back, last run; drift.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../../content-schemas/index.ts';
import { ARTIFACTS, abs } from '../course/course.ts';
import { codeDrift } from '../artifacts/drift.ts';
import { lastRun, readRuns, writeRunResult } from './runs.ts';
import { loadState } from '../store/index.ts';
import { courseWithLessons, registeredLesson } from './fixtures.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

function sampleRun(lesson: string): Omit<RunResult, 'run'> {
  return {
    schema_version: 1,
    lesson,
    runtime: 'node',
    argv: ['node', '--test'],
    cwd: '1-basics/x',
    started_at: new Date().toISOString(),
    duration_ms: 12.5,
    exit_code: 0,
    signal: null,
    timed_out: false,
    passed: true,
    tests: { passed: 1, failed: 0, skipped: 0, total: 1 },
    output_tail: 'ok\n',
    output_bytes: 3,
    output_truncated: false,
    code_hash: `sha256:${'0'.repeat(64)}`,
    cause: null,
  };
}

test('run numbers go 1, 2, 3; readRuns and lastRun read them back', async () => {
  const course = await courseWithLessons([{ id: '1.1', files: {} }]);
  assert.equal(lastRun(course, '1.1'), null);
  assert.deepEqual(readRuns(course, '1.1'), []);
  for (let n = 1; n <= 3; n += 1) assert.equal(writeRunResult(course, { ...sampleRun('1.1'), duration_ms: n }).run, n);
  assert.deepEqual(
    readRuns(course, '1.1').map((run) => [run.run, run.duration_ms]),
    [
      [1, 1],
      [2, 2],
      [3, 3],
    ],
  );
  assert.equal(lastRun(course, '1.1')?.run, 3);
  writeFileSync(abs(course, `${ARTIFACTS.runsDir('1.1')}/notes.txt`), 'ignored');
  assert.equal(readRuns(course, '1.1').length, 3);
});

test('a corrupt run file is an error naming it, not a silent skip', async () => {
  const course = await courseWithLessons([{ id: '1.1', files: {} }]);
  writeRunResult(course, sampleRun('1.1'));
  writeFileSync(abs(course, `${ARTIFACTS.runsDir('1.1')}/2.json`), '{"lesson": "1.1"}');
  assert.throws(() => lastRun(course, '1.1'), /\.codelabgen\/runs\/1\.1\/2\.json/);
});

test('concurrent writers never share a run number, and none is refused for a folder another made', async () => {
  // Four processes, each taking fifteen new lessons in turn four times: every run folder (and the
  // runs folder above them) is first made by several at once, outside the store's lock.
  const lessons = Array.from({ length: 15 }, (_, index) => `1.${index + 1}`);
  const course = await courseWithLessons([{ id: '1.1', files: {} }]);
  const writer = `
    import { writeRunResult } from ${JSON.stringify(path.join(here, 'runs.ts'))};
    import { courseAt } from ${JSON.stringify(path.join(here, '..', 'course', 'course.ts'))};
    const run = ${JSON.stringify(sampleRun('1.1'))};
    const course = courseAt(${JSON.stringify(course.root)});
    process.stdout.write('ready\\n');
    process.stdin.once('data', () => {
      for (let round = 0; round < 4; round++)
        for (const lesson of ${JSON.stringify(lessons)}) writeRunResult(course, { ...run, lesson });
      process.exit(0);
    });`;
  const children = Array.from({ length: 4 }, () =>
    spawn(process.execPath, ['--input-type=module', '-e', writer], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const codes = Promise.all(children.map((child) => new Promise((resolve) => child.on('close', resolve))));
  // All four loaded before any writes: otherwise the first to load makes every folder alone.
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          child.stdout.once('data', resolve);
          child.once('close', resolve); // a writer that fails to load fails the check of the codes
        }),
    ),
  );
  for (const child of children) child.stdin.write('go\n');
  assert.deepEqual(await codes, [0, 0, 0, 0]);
  for (const lesson of lessons) {
    const runs = readRuns(course, lesson).map((run) => run.run);
    assert.deepEqual(
      runs,
      Array.from({ length: 16 }, (_, index) => index + 1),
      lesson,
    );
    assert.deepEqual(
      readdirSync(abs(course, ARTIFACTS.runsDir(lesson))).filter((name) => !/^\d+\.json$/.test(name)),
      [],
      `no temp files left in ${lesson}`,
    );
  }
});

test('drift: a code change after verification drifts; a docs/ change does not', async () => {
  const course = await courseWithLessons([
    { id: '1.1', files: { 'src/a.mjs': 'export const a = 1;\n', 'docs/notes.md': '# Notes\n' }, stage: 'verified' },
  ]);
  const dir = path.join(course.root, registeredLesson('1.1').dir);
  const lesson = async () => (await loadState(course, 'test')).state.lessons['1.1']!;
  const clean = codeDrift(course, await lesson());
  assert.equal(clean.drifted, false);
  assert.equal(clean.current_hash, clean.verified_hash);
  writeFileSync(path.join(dir, 'docs/notes.md'), '# Notes, rewritten\n');
  assert.equal(codeDrift(course, await lesson()).drifted, false);
  writeFileSync(path.join(dir, 'src/a.mjs'), 'export const a = 2;\n');
  const drifted = codeDrift(course, await lesson());
  assert.equal(drifted.drifted, true);
  assert.notEqual(drifted.current_hash, drifted.verified_hash);
  assert.match(drifted.current_hash ?? '', /^sha256:[0-9a-f]{64}$/);
});

test('drift: an unverified lesson has none', async () => {
  const course = await courseWithLessons([{ id: '1.1', files: { 'a.mjs': '' } }]);
  assert.deepEqual(codeDrift(course, (await loadState(course, 'test')).state.lessons['1.1']!), {
    drifted: false,
    verified_hash: null,
    current_hash: null,
  });
});
