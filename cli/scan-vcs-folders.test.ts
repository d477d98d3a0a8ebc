// Which folders hold version control (history, remotes, credentials: `.git/config` with a remote's
// token, `.hg/hgrc` with `[auth]`, hooks) is decided in one place, pipeline/course/vcs.ts: the sandbox
// hides them again, the site refuses to publish from them, code hashes and file listings skip them, a
// lesson run that writes one fails. Each of those places had a `.git` of its own, and none knew `.hg`.
// A scan of every production file fails when another names one of these folders in code.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VCS_FOLDERS } from '../pipeline/course/vcs.ts';
import { productionSources, withoutComments } from './source-scan.ts';

const HOME = 'pipeline/course/vcs.ts';
const NAMES = VCS_FOLDERS.map((name) => name.replace('.', '\\.')).join('|');
/** A string literal with a path component that is a version-control folder: '.git', ".hg/hgrc", `${x}/.svn`. */
const IN_STRING = new RegExp(`(['"\`])(?:[^'"\`\\n]*/)?(?:${NAMES})(?:/[^'"\`\\n]*)?\\1`, 'g');
/** The same name in a regular expression: /\.git\b/, /(^|\/)\.hg\//. */
const IN_PATTERN = new RegExp(`\\\\(?:${NAMES.replaceAll('\\.', '.')})(?![\\w-])`, 'g');

export function vcsNamesIn(code: string): string[] {
  const text = withoutComments(code);
  return [...text.matchAll(IN_STRING), ...text.matchAll(IN_PATTERN)].map((match) => match[0]);
}

test('no production file but pipeline/course/vcs.ts names a version-control folder in code', () => {
  const sources = productionSources();
  assert.ok(sources.size > 300, `the scan read ${sources.size} files: the file list is wrong`);
  const found = [...sources]
    .filter(([file]) => file !== HOME)
    .flatMap(([file, code]) => vcsNamesIn(code).map((name) => `${file}: ${name}`));
  assert.deepEqual(found, [], 'use VCS_FOLDERS or isVcsFolder() from pipeline/course/vcs.ts');
  assert.deepEqual(vcsNamesIn(sources.get(HOME)!).length, VCS_FOLDERS.length, 'the scan finds the one list');
});

test('the scan finds a folder name however it is quoted or matched, and leaves longer names and comments alone', () => {
  assert.deepEqual(vcsNamesIn("path.join(root, '.git')"), ["'.git'"]);
  assert.deepEqual(vcsNamesIn('exists(".hg/hgrc")'), ['".hg/hgrc"']);
  assert.deepEqual(vcsNamesIn('const x = `${root}/.svn`;'), ['`${root}/.svn`']);
  assert.deepEqual(vcsNamesIn("parts.indexOf('_darcs')"), ["'_darcs'"]);
  assert.deepEqual(vcsNamesIn('if (/(^|\\/)\\.git\\//.test(file)) skip();'), ['\\.git']);
  assert.deepEqual(vcsNamesIn("const a = '.gitignore', b = '.git-credentials', c = /\\.git-credentials/;"), []);
  assert.deepEqual(vcsNamesIn("// the '.git' folder\nconst ok = 1;"), []);
});
