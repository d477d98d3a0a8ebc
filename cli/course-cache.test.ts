// The shared course fixtures of cli/course-cache.ts: six test files asking at once for the same fixture
// get one made once, complete, at one path; a maker that throws leaves nothing behind for the next.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fixtureInputFiles } from './course-cache.ts';
import { REPO_ROOT, scratchDir } from './testing.ts';

const CACHE_MODULE = path.join(REPO_ROOT, 'cli', 'course-cache.ts');

/** A test file's process: asks for fixture `key` (its maker counts itself and takes `makeMs`) and prints its folder. */
function requester(
  tmp: string,
  key: string,
  fail: boolean,
): Promise<{ code: number | null; out: string; err: string }> {
  const script = `
    import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
    import { cachedCourse } from ${JSON.stringify(CACHE_MODULE)};
    const folder = cachedCourse(${JSON.stringify(key)}, (root) => {
      appendFileSync(process.env.MADE_LOG, process.pid + '\\n');
      mkdirSync(root);
      writeFileSync(root + '/half', 'x');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); // the others ask meanwhile
      if (${fail}) throw new Error('maker failed');
      writeFileSync(root + '/whole', 'x');
    });
    console.log(folder);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, TMPDIR: tmp, MADE_LOG: path.join(tmp, 'made.log') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000); // a hang guard, not a budget
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: out.trim(), err });
    }),
  );
}

const madeBy = (tmp: string) => readFileSync(path.join(tmp, 'made.log'), 'utf8').trim().split('\n');

test('six test files asking at once for one fixture: it is made once, and all six get the same whole copy', {
  timeout: 180_000,
}, async () => {
  const tmp = scratchDir('codelabgen-course-cache-');
  const results = await Promise.all(Array.from({ length: 6 }, () => requester(tmp, 'six at once', false)));
  for (const result of results) assert.equal(result.code, 0, result.err);
  assert.equal(madeBy(tmp).length, 1, 'one maker ran');
  const folders = new Set(results.map((result) => result.out));
  assert.equal(folders.size, 1, `one folder: ${[...folders].join(', ')}`);
  const [folder] = folders as Set<string>;
  assert.deepEqual(readdirSync(path.join(folder ?? '', 'course')).sort(), ['half', 'whole']);
  assert.deepEqual(
    readdirSync(path.dirname(folder ?? '')).filter((name) => name.endsWith('.lock') || name.endsWith('.tmp')),
    [],
    'no lock or half-made folder left',
  );
});

test('a maker that throws fails its test file and leaves no fixture: the next asks the maker again', {
  timeout: 180_000,
}, async () => {
  const tmp = scratchDir('codelabgen-course-cache-');
  const failed = await requester(tmp, 'fails', true);
  assert.notEqual(failed.code, 0);
  assert.match(failed.err, /maker failed/);
  const again = await requester(tmp, 'fails', true);
  assert.notEqual(again.code, 0);
  assert.equal(madeBy(tmp).length, 2, 'the failed fixture was not kept');
  const cache = readdirSync(tmp).find((name) => name.startsWith('codelabgen-fixtures-')) ?? '';
  const [build] = readdirSync(path.join(tmp, cache));
  assert.deepEqual(readdirSync(path.join(tmp, cache, build ?? '')), [], 'no fixture, lock or half-made folder');
  assert.ok(existsSync(path.join(tmp, 'made.log')));
});

test("a fixture's inputs include the project's modules the fixture makers import, followed through their imports", () => {
  const inputs = fixtureInputFiles();
  for (const module of [
    'cli/protocol-fixture.ts',
    'content-schemas/names.ts', // imported by cli/protocol-fixture.ts
    'pipeline/artifacts/code-hash.ts', // imported by cli/protocol-fixture.ts
    'pipeline/artifacts/lesson-walk.ts', // imported by pipeline/artifacts/code-hash.ts
  ])
    assert.ok(inputs.includes(module), `${module} is not among the fixture inputs`);
  for (const file of inputs) assert.ok(existsSync(path.join(REPO_ROOT, file)), `${file} does not exist`);
});
