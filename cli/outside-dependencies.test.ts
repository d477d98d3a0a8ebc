// The README's tarball install in CI: a course repository whose package.json points outside the
// repository (`npm install ../codelabgen-0.1.0.tgz` writes file:../...) cannot be installed by the
// deploy workflow's `npm ci` in a clone. `init --ci github` refuses it (exit 2, nothing written) and
// `check` reports it, each with the fix; the vendored copy the README installs passes both.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, scratchDir } from './testing.ts';

function repository(name: string, codelabgenSpec: string): string {
  const root = path.join(scratchDir('codelabgen-outside-deps-'), name);
  mkdirSync(root, { recursive: true });
  assert.equal(spawnSync('git', ['init', '--quiet', root]).status, 0);
  writeFileSync(
    path.join(root, 'package.json'),
    `${JSON.stringify({ name, private: true, devDependencies: { codelabgen: codelabgenSpec, mermaid: '^11.0.0' } }, null, 2)}\n`,
  );
  return root;
}

test('init --ci github refuses a file: dependency outside the repository, with the fix, and writes nothing', () => {
  const root = repository('course-a', 'file:../codelabgen-0.1.0.tgz');
  const result = cli(['init', '.', '--title', 'My course', '--example', '--ci', 'github'], { cwd: root });
  assert.equal(result.code, 2, result.stderr);
  const tarball = path.join(path.dirname(root), 'codelabgen-0.1.0.tgz');
  assert.equal(
    result.stderr,
    'error: init --ci github: package.json: devDependencies.codelabgen is "file:../codelabgen-0.1.0.tgz", ' +
      `outside the repository (${root}): a CI clone (npm ci) has no such file\n` +
      `hint: copy it into the repository and install that copy: mkdir -p ./vendor && cp ${tarball} ./vendor/ && ` +
      'npm install --save-dev ./vendor/codelabgen-0.1.0.tgz; commit vendor/ and package-lock.json\n',
  );
  assert.deepEqual(readdirSync(root).sort(), ['.git', 'package.json']);
});

test('the vendored tarball passes init --ci github and check; check reports one moved outside', () => {
  const root = repository('course-b', 'file:vendor/codelabgen-0.1.0.tgz');
  const init = cli(['init', '.', '--title', 'My course', '--ci', 'github'], { cwd: root });
  assert.equal(init.code, 0, init.stderr);
  assert.ok(existsSync(path.join(root, '.github', 'workflows', 'course-site.yml')));
  const clean = cli(['check'], { cwd: root });
  assert.doesNotMatch(clean.stdout, /a CI clone/, clean.stdout);

  writeFileSync(
    path.join(root, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { codelabgen: '../elsewhere/codelabgen' } })}\n`,
  );
  const check = cli(['check'], { cwd: root });
  assert.equal(check.code, 1, check.stdout);
  assert.match(
    check.stdout,
    new RegExp(
      'package\\.json: dependencies\\.codelabgen is "\\.\\./elsewhere/codelabgen", outside the repository \\(.*\\): ' +
        'a CI clone \\(npm ci\\) has no such file; install it from a git URL \\(npm install github:OWNER/codelabgen\\), ' +
        'or pack it into the repository',
    ),
  );
});
