// Content caches live outside the course, per user (pipeline/site/cache-root.ts): a build
// removes the caches of courses whose folder is gone, and those unused for a week.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../../cli/testing.ts';
import { sweepCaches } from './cache-sweep.ts';

test('a build removes the caches of deleted courses and old ones; it keeps the others and records its own course', () => {
  const root = scratchDir('codelabgen-cache-sweep-');
  const course = path.join(root, 'course');
  mkdirSync(course);
  const cache = (name: string, record?: string, daysOld = 0) => {
    const dir = path.join(root, 'caches', name);
    mkdirSync(path.join(dir, 'vite'), { recursive: true });
    if (record !== undefined) writeFileSync(path.join(dir, 'course'), record);
    const when = new Date(Date.now() - daysOld * 86_400_000);
    utimesSync(dir, when, when);
    return dir;
  };
  cache('content-gone', path.join(root, 'deleted-course'));
  cache('content-live', course);
  cache('content-unrecorded');
  cache('content-stale', course, 8);
  cache('run-killed', undefined, 8);
  cache('run-busy');
  cache('other', path.join(root, 'deleted-course'));
  const current = path.join(root, 'caches', 'content-current');
  sweepCaches(current, course);
  assert.deepEqual(readdirSync(path.join(root, 'caches')).sort(), [
    'content-current',
    'content-live',
    'content-unrecorded',
    'other',
    'run-busy',
  ]);
  assert.equal(readFileSync(path.join(current, 'course'), 'utf8'), course);
  assert.ok(existsSync(path.join(root, 'caches', 'content-live', 'vite')));
});
