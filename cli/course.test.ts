// courseOf() resolves a command's course once: the command and notifyAfter get the same Course.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { Context } from './context.ts';
import { courseOf } from './course.ts';
import { scratchDir } from './testing.ts';

test('courseOf resolves once per command context, and again for another', () => {
  const root = path.join(scratchDir('codelabgen-course-of-'), 'course');
  mkdirSync(path.join(root, '.codelabgen'), { recursive: true });
  const context = () =>
    ({ string: (name: string) => (name === 'course' ? root : undefined), env: {}, cwd: root }) as unknown as Context;
  const ctx = context();
  const first = courseOf(ctx);
  renameSync(root, `${root}-moved`); // resolving again would refuse: no course there now
  assert.equal(courseOf(ctx), first, 'the same Course, not a second resolution');
  assert.throws(() => courseOf(context()), /not a course directory/, 'another command resolves for itself');
});
