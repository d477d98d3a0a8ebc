// A test file leaves nothing in $TMPDIR but the shared course fixtures (cli/course-cache.ts): every
// temp folder and course copy the shared helpers make (cli/testing.ts, cli/protocol-fixture.ts,
// pipeline/verify/fixtures.ts) is removed when the file ends. cli/brief.test.ts alone left ten course
// copies a run, cli/verify.test.ts nineteen folders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, scratchDir } from './testing.ts';

const helper = (file: string) => JSON.stringify(path.join(REPO_ROOT, file));

test('a test file using the shared helpers leaves only the shared fixture cache in $TMPDIR, passing or failing', {
  timeout: 180_000,
}, () => {
  const dir = scratchDir('codelabgen-temp-leaks-');
  const file = path.join(dir, 'uses-helpers.test.ts');
  writeFileSync(
    file,
    `import { test } from 'node:test';
import { copyOfCourse, initCourse, makeCourse, scratchCourse, tempDir } from ${helper('cli/testing.ts')};
import { courseAt } from ${helper('cli/protocol-fixture.ts')};
import { courseWithLessons } from ${helper('pipeline/verify/fixtures.ts')};
test('makes temp folders and course copies', async () => {
  tempDir();
  makeCourse();
  scratchCourse();
  copyOfCourse('init', (root) => initCourse(root, 'Copied'));
  courseAt('init');
  await courseWithLessons([{ id: '1.1', files: { 'a.mjs': '' } }]);
  if (process.env.FAIL === '1') throw new Error('a failing test');
});
`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_TEST_CONTEXT; // set for this file's own process: a nested `node --test` would only report to it
  for (const fail of ['0', '1']) {
    const tmp = scratchDir('codelabgen-temp-leaks-tmp-');
    const run = spawnSync(process.execPath, ['--test', file], {
      env: { ...env, TMPDIR: tmp, FAIL: fail },
      encoding: 'utf8',
      timeout: 170_000,
    });
    assert.equal(run.status, Number(fail), run.stdout + run.stderr);
    assert.deepEqual(readdirSync(tmp), [`codelabgen-fixtures-${process.getuid?.() ?? 0}`]);
  }
});
