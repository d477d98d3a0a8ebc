// `site build --out` never empties a folder it did not make: the course, a folder holding the course,
// a file, and a non-empty folder without the build marker are refused before Astro runs (a probe's
// `--out ..` once deleted the course, its event log and a sibling .git). Unit cases of checkOut()
// plus the CLI refusals, each leaving every file where it was.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, scratchCourse, snapshot } from '../../cli/testing.ts';
import { checkOut, isSiteBuild, SITE_MARKER } from './out-folder.ts';

/** A course inside a parent folder that also holds a sibling file and a sibling .git. */
function courseWithSiblings(): { parent: string; course: string } {
  const course = scratchCourse('Out safety');
  const parent = path.dirname(course);
  writeFileSync(path.join(parent, 'sibling.txt'), 'keep me\n');
  mkdirSync(path.join(parent, '.git'));
  writeFileSync(path.join(parent, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(course, 'lesson-notes.md'), 'an author file\n');
  return { parent, course };
}

test('checkOut refuses the course, a folder inside it and every folder that contains it', () => {
  const { parent, course } = courseWithSiblings();
  assert.throws(() => checkOut(course, course), /--out .* is inside the course directory/);
  assert.throws(() => checkOut(course, path.join(course, 'site')), /inside the course directory/);
  assert.throws(() => checkOut(course, parent), /contains the course directory/);
  assert.throws(() => checkOut(course, path.dirname(parent)), /contains the course directory/);
  assert.throws(() => checkOut(course, '/'), /contains the course directory/);
});

test('checkOut resolves symlinks before it compares (a link to the course parent is the parent)', () => {
  const { parent, course } = courseWithSiblings();
  const elsewhere = scratchCourse('Links');
  const link = path.join(path.dirname(elsewhere), 'link-to-parent');
  symlinkSync(parent, link);
  assert.throws(() => checkOut(course, link), /contains the course directory/);
  assert.throws(() => checkOut(course, path.join(link, 'course', 'x')), /inside the course directory/);
});

test('checkOut refuses a site-out/ (or any --out inside the course) that a symlink leads outside, even to an earlier build', () => {
  const { parent, course } = courseWithSiblings();
  // a worker plants site-out -> another folder with the build marker: the build would replace that folder
  const victim = path.join(parent, 'another-site');
  mkdirSync(path.join(victim, path.dirname(SITE_MARKER)), { recursive: true });
  writeFileSync(path.join(victim, SITE_MARKER), '{"generator":"codelabgen"}\n');
  writeFileSync(path.join(victim, 'index.html'), 'keep me');
  symlinkSync(victim, path.join(course, 'site-out'));
  assert.throws(
    () => checkOut(course, path.join(course, 'site-out')),
    /--out .*site-out leads out of the course through a symbolic link \(to .*another-site\)/,
  );
  mkdirSync(path.join(course, 'sub'));
  symlinkSync(parent, path.join(course, 'sub', 'up'));
  assert.throws(
    () => checkOut(course, path.join(course, 'sub', 'up', 'new')),
    /leads out of the course through a symbolic link/,
  );
  assert.equal(checkOut(course, victim), victim); // named directly, an earlier build may be replaced
});

test('checkOut refuses a file and a non-empty folder that is not an earlier build', () => {
  const { parent, course } = courseWithSiblings();
  assert.throws(() => checkOut(course, path.join(parent, 'sibling.txt')), /is not a folder/);
  const userFolder = path.join(parent, 'photos');
  mkdirSync(userFolder);
  writeFileSync(path.join(userFolder, 'cat.jpg'), 'meow');
  assert.throws(() => checkOut(course, userFolder), /non-empty folder that is not an earlier codelabgen site build/);
  const hiddenOnly = path.join(parent, 'hidden-only');
  mkdirSync(hiddenOnly);
  writeFileSync(path.join(hiddenOnly, '.env'), 'SECRET=1');
  assert.throws(() => checkOut(course, hiddenOnly), /non-empty folder/);
});

test('checkOut accepts a new folder, an empty folder and an earlier build (its marker)', () => {
  const { parent, course } = courseWithSiblings();
  assert.equal(checkOut(course, path.join(parent, 'new', 'deep')), path.join(parent, 'new', 'deep'));
  mkdirSync(path.join(parent, 'empty'));
  assert.equal(checkOut(course, path.join(parent, 'empty')), path.join(parent, 'empty'));
  const earlier = path.join(parent, 'earlier');
  mkdirSync(path.join(earlier, path.dirname(SITE_MARKER)), { recursive: true });
  writeFileSync(path.join(earlier, 'index.html'), '<html></html>');
  assert.equal(isSiteBuild(earlier), false);
  writeFileSync(path.join(earlier, SITE_MARKER), '{"generator":"codelabgen"}\n');
  assert.equal(isSiteBuild(earlier), true);
  assert.equal(checkOut(course, earlier), earlier);
  writeFileSync(path.join(earlier, SITE_MARKER), '{"generator":"someone else"}\n');
  assert.throws(() => checkOut(course, earlier), /non-empty folder/);
});

test('site build --out .. inside a course is refused and deletes nothing', () => {
  const { parent, course } = courseWithSiblings();
  const before = snapshot(parent);
  for (const out of ['..', '.', '../..', '../sibling.txt']) {
    const result = cli(['site', 'build', '--out', out], { cwd: course });
    assert.equal(result.code, 2, `--out ${out}: ${result.stderr}`);
    assert.match(result.stderr, /^error: --out .*\n(hint: .*\n)*$/, `--out ${out}: ${result.stderr}`);
    assert.deepEqual(snapshot(parent), before, `--out ${out} changed files`);
  }
});

test('site build and site preview refuse a non-empty folder of the user and leave it as it was', () => {
  const { parent, course } = courseWithSiblings();
  const userFolder = path.join(parent, 'docs-of-mine');
  mkdirSync(userFolder);
  writeFileSync(path.join(userFolder, 'thesis.tex'), '\\documentclass{article}');
  const before = snapshot(parent);
  const build = cli(['site', 'build', '--course', course, '--out', userFolder]);
  assert.equal(build.code, 2, build.stderr);
  assert.match(
    build.stderr,
    /^error: --out .*docs-of-mine is a non-empty folder that is not an earlier codelabgen site build/,
  );
  const preview = cli(['site', 'preview', '--course', course, '--out', path.join(parent, 'empty-or-missing')]);
  assert.equal(preview.code, 2, preview.stderr);
  assert.match(preview.stderr, /^error: --out .* is not a codelabgen site build\n/);
  assert.deepEqual(snapshot(parent), before);
});

test('a course in a folder named ..mine inside an old build output is not outside it: that --out is refused, nothing deleted', () => {
  const { parent, course: made } = courseWithSiblings();
  const old = path.join(parent, 'old-build');
  mkdirSync(path.join(old, path.dirname(SITE_MARKER)), { recursive: true });
  writeFileSync(path.join(old, SITE_MARKER), '{"generator":"codelabgen"}\n');
  const course = path.join(old, '..mine');
  cpSync(made, course, { recursive: true });
  assert.throws(() => checkOut(course, old), /contains the course directory/);
  const before = snapshot(parent);
  const result = cli(['site', 'build', '--course', course, '--out', old]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^error: --out .*old-build contains the course directory .*\.\.mine; a build replaces its output folder\n/,
  );
  assert.deepEqual(snapshot(parent), before);
});

test('--out ..site run from the course root is inside the course: refused, nothing made', () => {
  const { parent, course } = courseWithSiblings();
  assert.throws(() => checkOut(course, path.join(course, '..site')), /--out .*\.\.site is inside the course directory/);
  const before = snapshot(parent);
  const result = cli(['site', 'build', '--out', '..site'], { cwd: course });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^error: --out \S*\/course\/\.\.site is inside the course directory; the site never writes into the course except its site-out\/ folder\n/,
  );
  assert.deepEqual(snapshot(parent), before);
  assert.equal(existsSync(path.join(course, '..site')), false, 'a folder was made in the course');
});

test("the course's own site-out/ is the default --out inside a course; lesson folders and .codelabgen/ stay refused", () => {
  const { course } = courseWithSiblings();
  assert.equal(checkOut(course, path.join(course, 'site-out')), path.join(course, 'site-out'));
  for (const inside of ['.codelabgen', '.codelabgen/site', '1-basics/1.1-intro', 'site-out/sub', 'site-out-2']) {
    assert.throws(() => checkOut(course, path.join(course, inside)), /is inside the course directory/, inside);
  }
  const sub = path.join(course, '1-basics');
  mkdirSync(sub, { recursive: true });
  writeFileSync(
    path.join(course, '.codelabgen', 'curriculum.yaml'),
    'title: T\nmodules:\n  - id: "1"\n    slug: basics\n    title: Basics\n    lessons:\n      - { id: "1.1", slug: intro, title: Intro }\n',
  );
  writeFileSync(path.join(course, '.codelabgen', 'config.yaml'), 'site:\n  logo: nope.svg\n', { flag: 'a' });
  // Run from a subfolder: the default is the course's site-out/, not ./site-out in the subfolder
  // (refused here before Astro by the missing logo, which is what `error:` names).
  const result = cli(['site', 'build'], { cwd: sub });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^error: \.codelabgen\/config\.yaml: site\.logo: no such file nope\.svg in the course folder\n/,
  );
  assert.equal(existsSync(path.join(sub, 'site-out')), false);
});
