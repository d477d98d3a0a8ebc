// `install_scripts: false` (the default) also switches off source builds, end to end through the
// built CLI: a python-uv lesson's step gets `uv run --no-build`, UV_NO_BUILD and PIP_ONLY_BINARY
// (a source distribution's build runs its code); with `install_scripts: true` it gets none of them.
// uv is a stand-in on PATH that prints what it was given (the real uv is not needed to see that).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { cli } from '../../cli/testing.ts';
import { courseWithLessons } from './fixtures.ts';

const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding a `uv` that prints its arguments and the build settings it got, then a pytest summary. */
function standInUv(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-uv-'));
  scratch.push(dir);
  const uv = path.join(dir, 'uv');
  writeFileSync(
    uv,
    '#!/bin/sh\necho "args: $*"\necho "UV_NO_BUILD=$UV_NO_BUILD PIP_ONLY_BINARY=$PIP_ONLY_BINARY"\necho "1 passed in 0.01s"\n',
  );
  chmodSync(uv, 0o755);
  return dir;
}

async function verifyUvLesson(specExtra: string): Promise<Record<string, any>> {
  const made = await courseWithLessons(
    [
      {
        id: '1.1',
        files: { 'test_a.py': 'def test_a():\n    pass\n' },
        spec: `lesson: "1.1"\ntitle: T\ngoal: G\nruntime: python-uv\n${specExtra}`,
      },
    ],
    'verify:\n  sandbox: auto\n',
  );
  scratch.push(path.dirname(made.root));
  const result = cli(['verify', '1.1', '--json', '--course', made.root], {
    timeoutMs: 60_000,
    env: { PATH: `${standInUv()}${path.delimiter}${process.env.PATH}` },
  });
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, any>;
}

test('without install_scripts, uv runs with --no-build and UV_NO_BUILD, and pip would take wheels only', {
  timeout: 90_000,
}, async () => {
  const run = await verifyUvLesson('');
  assert.deepEqual(run.argv.slice(0, 4), ['uv', 'run', '--no-build', 'pytest']);
  assert.match(run.output_tail, /^args: run --no-build pytest /m);
  assert.match(run.output_tail, /^UV_NO_BUILD=1 PIP_ONLY_BINARY=:all:$/m);
});

test('with install_scripts: true, uv may build source distributions (in the sandbox)', {
  timeout: 90_000,
}, async () => {
  const run = await verifyUvLesson('install_scripts: true\n');
  assert.deepEqual(run.argv.slice(0, 3), ['uv', 'run', 'pytest']);
  assert.match(run.output_tail, /^UV_NO_BUILD= PIP_ONLY_BINARY=$/m);
});
