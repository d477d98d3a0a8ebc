// checkCourse starts the checks in STARTED_FIRST (the doc checks, which start the diagram parser's
// child process) before the others and awaits each in CHECKS order: the parser runs beside every
// later check, and the report keeps CHECKS order.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { removeDir, tempDir } from '../../cli/testing.ts';
import { courseAt } from '../course/course.ts';
import { CHECKS, checkCourse, STARTED_FIRST, type CourseCheck } from './check.ts';

const root = tempDir('codelabgen-check-order-');
after(() => removeDir(root));

test('a check started first goes on while the others run, and is reported in its place', {
  timeout: 60_000,
}, async () => {
  const calls: string[] = [];
  const sync =
    (name: string): CourseCheck =>
    () => {
      calls.push(name);
      return { name, problems: [] };
    };
  const parse: CourseCheck = () => {
    calls.push('parse started');
    return new Promise((resolve) =>
      setImmediate(() => {
        calls.push('parse finished');
        resolve({ name: 'parse', problems: [] });
      }),
    );
  };
  const saved = CHECKS.splice(0, CHECKS.length, sync('replay'), sync('drift'), parse, sync('downloads'));
  STARTED_FIRST.add(parse);
  try {
    const report = await checkCourse(courseAt(root), 'codelabgen check'); // no state: a "state loads" problem first
    assert.deepEqual(calls, ['parse started', 'replay', 'drift', 'downloads', 'parse finished']);
    assert.deepEqual(
      report.checks.map((section) => section.name),
      ['state loads', 'replay', 'drift', 'parse', 'downloads'],
    );
  } finally {
    CHECKS.splice(0, CHECKS.length, ...saved);
    STARTED_FIRST.delete(parse);
  }
});
