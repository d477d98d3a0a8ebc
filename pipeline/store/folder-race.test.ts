// makeCourseFolder runs outside the store's lock (a verify makes its run folder while other verifies
// do), so another process can make the same folder between its look and its mkdir. The fs calls are
// wrapped to put that other process exactly there: a folder made meanwhile is what was wanted (a CI
// run saw two verifies refuse with EEXIST), while a file or a link made meanwhile is still refused.
// runs.test.ts races real processes on the same folders; this is the race every time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** What "another process" puts at the path just before this process's mkdir of it, once. */
let meanwhile: { at: string; make: (target: string) => void } | null = null;
const realMkdir = fs.mkdirSync;
fs.mkdirSync = ((target: fs.PathLike, ...rest: unknown[]) => {
  if (meanwhile && path.resolve(String(target)) === meanwhile.at) {
    const { make } = meanwhile;
    meanwhile = null;
    make(String(target));
  }
  return (realMkdir as (...args: unknown[]) => string | undefined)(target, ...rest);
}) as typeof fs.mkdirSync;
syncBuiltinESMExports(); // staged-change.ts's `import { mkdirSync } from 'node:fs'` follows

const { makeCourseFolder } = await import('./staged-change.ts');
const { courseAt } = await import('../course/course.ts');

function freshCourse() {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'codelabgen-folder-race-'));
  realMkdir(path.join(root, '.codelabgen'));
  return courseAt(root);
}

test('a folder another process made between the look and the mkdir is taken, at every depth', () => {
  for (const depth of ['.codelabgen/runs', '.codelabgen/runs/1.1']) {
    const course = freshCourse();
    meanwhile = { at: path.join(course.root, depth), make: (target) => realMkdir(target) };
    assert.equal(makeCourseFolder(course, '.codelabgen/runs/1.1', 'run-results folder'), true, depth);
    assert.equal(meanwhile, null, `${depth}: the race was staged`);
    assert.ok(fs.statSync(path.join(course.root, '.codelabgen/runs/1.1')).isDirectory(), depth);
    fs.rmSync(course.root, { recursive: true });
  }
});

test('a file or a link made meanwhile is refused, naming the folder, and nothing is made under it', () => {
  const outside = fs.mkdtempSync(path.join(tmpdir(), 'codelabgen-folder-race-outside-'));
  const others: Array<[string, (target: string) => void]> = [
    ['a file', (target) => fs.writeFileSync(target, 'not a folder')],
    ['a link', (target) => fs.symlinkSync(outside, target)],
  ];
  for (const [what, make] of others) {
    const course = freshCourse();
    meanwhile = { at: path.join(course.root, '.codelabgen/runs'), make };
    assert.throws(
      () => makeCourseFolder(course, '.codelabgen/runs/1.1', 'run-results folder'),
      (error: Error) => /cannot write \.codelabgen\/runs: EEXIST/.test(error.message),
      what,
    );
    assert.deepEqual(fs.readdirSync(outside), [], `${what}: nothing made through it`);
    fs.rmSync(course.root, { recursive: true });
  }
  fs.rmSync(outside, { recursive: true });
});
