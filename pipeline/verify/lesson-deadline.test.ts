// One deadline for all of a lesson's steps, end to end through the built CLI: `--timeout S` bounds
// npm ci and the tests together (not S each), and the verdict names the step that ran out.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { cli } from '../../cli/testing.ts';
import type { Course } from '../course/course.ts';
import { courseWithLessons } from './fixtures.ts';

const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A node lesson whose postinstall sleeps `installSeconds` and whose one test sleeps `testSeconds`. */
async function slowLesson(installSeconds: number, testSeconds: number): Promise<Course> {
  const manifest = {
    name: 'slow',
    version: '1.0.0',
    private: true,
    scripts: { test: 'node --test', postinstall: `node -e "setTimeout(() => {}, ${installSeconds * 1000})"` },
  };
  const lock = {
    name: 'slow',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'slow', version: '1.0.0', hasInstallScript: true } },
  };
  const made = await courseWithLessons(
    [
      {
        id: '1.1',
        files: {
          'package.json': JSON.stringify(manifest),
          'package-lock.json': JSON.stringify(lock),
          'slow.test.mjs': `import test from 'node:test';\ntest('slow', () => new Promise((done) => setTimeout(done, ${testSeconds * 1000})));\n`,
        },
        spec: 'lesson: "1.1"\ntitle: T\ngoal: G\ninstall_scripts: true\n',
      },
    ],
    'verify:\n  sandbox: auto\n',
  );
  scratch.push(path.dirname(made.root));
  return made;
}

async function verify(made: Course, timeoutSeconds: number): Promise<Record<string, any>> {
  const result = cli(['verify', '1.1', '--json', '--timeout', String(timeoutSeconds), '--course', made.root]);
  assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, any>;
}

// 6 s of install under --timeout 30: npm ci itself (npm starting, the postinstall's node) leaves the
// tests their share on a loaded machine too, where npm took 3-4 s just to start (10 s, with 3 s of
// install and 8 of tests, left npm ci 7 s).
test('npm ci and the tests share one deadline: 6 s of install and 60 s of tests under --timeout 30 time out in the tests', {
  timeout: 180_000,
}, async () => {
  const run = await verify(await slowLesson(6, 60), 30);
  assert.equal(run.timed_out, true);
  assert.equal(run.passed, false);
  assert.deepEqual(run.argv, ['npm', 'test']);
  assert.match(run.cause, /^timed out after 30s \(the lesson's time, all its steps together\), in the tests/);
  // the tests got what npm ci left of the 30 s (at most 24 s), not 30 s of their own
  assert.ok(run.duration_ms < 27_000, `the tests ran ${run.duration_ms} ms`);
});

test("the verdict names npm ci when the install step uses up the lesson's time", { timeout: 90_000 }, async () => {
  const run = await verify(await slowLesson(20, 0), 4);
  assert.equal(run.timed_out, true);
  assert.deepEqual(run.argv.slice(0, 2), ['npm', 'ci']);
  assert.match(
    run.cause,
    /^npm ci failed: timed out after 4s \(the lesson's time, all its steps together\), in npm ci/,
  );
});
