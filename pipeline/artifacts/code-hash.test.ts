// The lesson code hash: values unchanged for normal lessons (recorded hashes must still match),
// files streamed, and a huge, deep or crowded tree refused naming the path instead of crashing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoForOtherUsers } from '../../cli/testing.ts';
import { hashLessonCode, listLessonCodeFiles } from './code-hash.ts';
import { LessonLimitError, walkFiles } from './lesson-walk.ts';

const root = mkdtempSync(path.join(tmpdir(), 'codelabgen-code-hash-'));
after(() => rmSync(root, { recursive: true, force: true }));

function lesson(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

test('the hash of a normal lesson is the one the whole-file hash gave (pinned from it) (path order, symlink by target, docs and deps skipped)', () => {
  const dir = lesson('normal', {
    'a.mjs': 'export const a = 1;\n',
    'sub/b.txt': 'x',
    'sub/deep/empty': '',
    'docs/readalong.md': 'doc\n',
    'node_modules/x.js': 'nm\n',
    'a-b/c.txt': 'c',
    'a/c.txt': 'd',
  });
  symlinkSync('../a.mjs', path.join(dir, 'sub/link'));
  assert.deepEqual(listLessonCodeFiles(dir), [
    'a-b/c.txt',
    'a.mjs',
    'a/c.txt',
    'sub/b.txt',
    'sub/deep/empty',
    'sub/link',
  ]);
  assert.equal(hashLessonCode(dir), 'sha256:6693c342a61ce814a6d30a4ae9a72ac0879b7f8872937a4fe692ddd2406e0251');
});

test('a 3 GiB sparse file is refused naming it (no whole-file read)', () => {
  const dir = lesson('sparse', { 'a.py': '' });
  writeFileSync(path.join(dir, 'big.bin'), '');
  truncateSync(path.join(dir, 'big.bin'), 3 * 1024 ** 3);
  assert.throws(
    () => hashLessonCode(dir, '1-basics/1.1-a'),
    (error: unknown) =>
      error instanceof LessonLimitError &&
      error.message === '1-basics/1.1-a/big.bin is 3.0 GiB, over the 100 MiB limit for one lesson file',
  );
});

test('folders nested deeper than 32 are refused naming the path (no ENAMETOOLONG)', () => {
  const deep = Array.from({ length: 40 }, () => 'd').join('/');
  const dir = lesson('deep', { [`${deep}/x.py`]: '' });
  assert.throws(
    () => hashLessonCode(dir, 'L'),
    (error: unknown) =>
      error instanceof LessonLimitError &&
      error.message === `L/${Array.from({ length: 33 }, () => 'd').join('/')} is nested more than 32 folders deep`,
  );
});

test('walkFiles stops at its file count and depth limits', () => {
  const dir = lesson('count', { a: '', b: '', 'x/y/z': '' });
  const limits = { maxDepth: 5, maxFiles: 3, maxFileBytes: 10 };
  assert.throws(() => walkFiles(dir, 'L', limits), /^LessonLimitError: L holds more than 3 files and folders$/);
  assert.throws(
    () => walkFiles(dir, 'L', { ...limits, maxFiles: 10, maxDepth: 1 }),
    /^LessonLimitError: L\/x\/y is nested more than 1 folders deep$/,
  );
  assert.equal(
    walkFiles(dir, 'L', { ...limits, maxFiles: 5 }).length,
    3,
    'a, b, x, x/y, x/y/z: five entries, three files',
  );
});

test('a path longer than the system allows is refused naming it, not an ENAMETOOLONG crash', () => {
  const dir = lesson('long', { 'a.py': '' });
  const name = 'n'.repeat(200);
  const cwd = process.cwd();
  try {
    process.chdir(dir);
    for (let level = 0; level < 25; level += 1) {
      mkdirSync(name);
      process.chdir(name);
    }
  } finally {
    process.chdir(cwd);
  }
  assert.throws(
    () => walkFiles(dir, 'L', { maxDepth: 64, maxFiles: 100, maxFileBytes: 1 }),
    (error: unknown) =>
      error instanceof LessonLimitError &&
      /^L\/(n{200}\/){19,20}n{200} has a path longer than the system allows$/.test(error.message),
  );
  // rmSync cannot remove it either (ENAMETOOLONG): go down, then remove one level at a time on the way up.
  try {
    process.chdir(dir);
    for (let level = 0; level < 24; level += 1) process.chdir(name);
    for (let level = 0; level < 25; level += 1) {
      rmdirSync(name);
      process.chdir('..');
    }
  } finally {
    process.chdir(cwd);
  }
});

test('a file or folder name that is not valid UTF-8 (a test can write one) is refused naming it, not an ENOENT crash; a real U+FFFD name is hashed', () => {
  const dir = lesson('not-utf8', { 'a.js': '', 'ok-\uFFFD.js': 'x' });
  const latin1 = Buffer.concat([Buffer.from(`${dir}/src-`), Buffer.from([0xff, 0xfe]), Buffer.from('.js')]);
  mkdirSync(path.join(dir, 'src'));
  writeFileSync(latin1, 'y');
  assert.throws(
    () => hashLessonCode(dir, 'L'),
    (error: unknown) =>
      error instanceof LessonLimitError && error.message === 'L/src-\uFFFD\uFFFD.js has a name that is not valid UTF-8',
  );
  assert.throws(() => listLessonCodeFiles(dir, 'L'), /L\/src-\uFFFD\uFFFD\.js has a name that is not valid UTF-8/);
  rmSync(latin1);
  mkdirSync(Buffer.concat([Buffer.from(`${dir}/src/`), Buffer.from([0xc3, 0x28])]));
  assert.throws(() => hashLessonCode(dir, 'L'), /L\/src\/\uFFFD\( has a name that is not valid UTF-8/);
  rmSync(path.join(dir, 'src'), { recursive: true });
  assert.match(hashLessonCode(dir, 'L'), /^sha256:/);
});

test('a folder the user cannot read (a test chmod-ed it to 000) is refused naming it, not an EACCES internal error', {
  skip: process.getuid?.() === 0 ? false : 'runs the walk as another user (needs root)',
}, (t) => {
  const repo = repoForOtherUsers();
  if (repo === null) return t.skip('the checkout cannot be read by another user, nor copied beside it');
  const dir = lesson('locked', { 'a.js': '', 'locked/inner/f.txt': 'x' });
  chmodSync(path.join(root), 0o755);
  chmodSync(path.join(dir, 'locked'), 0);
  const script = `import { hashLessonCode } from ${JSON.stringify(pathToFileURL(path.join(repo.root, 'pipeline', 'artifacts', 'code-hash.ts')).href)};
try { hashLessonCode(${JSON.stringify(dir)}, 'L'); console.log('hashed'); } catch (error) { console.log(error.name + ': ' + error.message); }`;
  const result = spawnSync(repo.node, ['--input-type=module', '-e', script], {
    uid: 65534,
    gid: 65534,
    encoding: 'utf8',
    cwd: '/',
  });
  assert.equal(result.stdout.trim(), 'LessonLimitError: L/locked cannot be read (permission denied)', result.stderr);
});
