// Lesson docs and code references are read only from inside the lesson folder: a code reference
// through a symlinked folder and a docs file that is a symlink to an outside file are refused by
// `check` and by the site's reading; a symlink that stays inside the lesson still works. The
// lesson download leaves out any link leading out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cli, scratchCourse, scratchDir } from '../../cli/testing.ts';
import { readCourse, readLessonDocs, readLessonDownload } from '../read/index.ts';
import { fileInside, realPathInside } from '../course/confined.ts';

const CURRICULUM =
  'title: T\nmodules:\n  - id: "1"\n    slug: basics\n    title: Basics\n    lessons:\n      - { id: "1.1", slug: intro, title: Intro }\n';

/** A registered one-lesson course whose lesson links to an outside folder holding secrets. */
function courseWithLinks(): { root: string; lesson: string } {
  const root = scratchCourse();
  writeFileSync(path.join(root, '.codelabgen', 'curriculum.yaml'), CURRICULUM);
  assert.equal(cli(['register'], { cwd: root }).code, 0);
  const outside = scratchDir('codelabgen-outside-');
  writeFileSync(path.join(outside, 'creds.txt'), 'SECRET-TOKEN\n');
  writeFileSync(path.join(outside, 'notes.md'), '# Notes\n\nSECRET-NOTES\n');
  const lesson = path.join(root, '1-basics', '1.1-intro');
  mkdirSync(path.join(lesson, 'src'));
  writeFileSync(path.join(lesson, 'src', 'ok.ts'), 'export const ok = 1;\n');
  symlinkSync(outside, path.join(lesson, 'lnk'), 'dir');
  symlinkSync(path.join(lesson, 'src'), path.join(lesson, 'inner'), 'dir'); // stays inside: fine
  symlinkSync(path.join(outside, 'notes.md'), path.join(lesson, 'docs', 'notes.md'));
  writeFileSync(
    path.join(lesson, 'docs', 'readalong.md'),
    '# Read\n\n```txt file=lnk/creds.txt\n```\n\n```ts file=inner/ok.ts\n```\n',
  );
  return { root, lesson };
}

test('check reports a code reference through a symlinked folder and a symlinked docs file', () => {
  const { root } = courseWithLinks();
  const result = cli(['check'], { cwd: root });
  assert.equal(result.code, 1, `${result.stdout}${result.stderr}`);
  assert.ok(
    result.stdout.includes(
      'lesson 1.1 docs/readalong.md:3: code reference file=lnk/creds.txt: resolves outside the lesson folder (through a symbolic link)',
    ),
    result.stdout,
  );
  assert.ok(
    result.stdout.includes('lesson 1.1 docs/notes.md: resolves outside the lesson folder (through a symbolic link)'),
    result.stdout,
  );
  assert.doesNotMatch(result.stdout, /inner\/ok\.ts/, 'a link that stays inside the lesson is fine');
  assert.doesNotMatch(result.stdout, /SECRET/);
});

test('the site refuses a symlinked docs file and shows no outside code', () => {
  const { root, lesson } = courseWithLinks();
  const view = readCourse(root);
  const intro = view.lessons[0];
  assert.ok(intro);
  assert.throws(
    () => readLessonDocs(view.course, intro, false),
    new RegExp(
      String.raw`^RefusalError: 1-basics\/1\.1-intro\/docs\/notes\.md resolves outside the lesson folder \(to ` +
        String.raw`.*notes\.md\); the site never publishes files from outside the course$`,
    ),
  );
  rmSync(path.join(lesson, 'docs', 'notes.md'));
  const docs = readLessonDocs(view.course, intro, false);
  const segments = docs.readalong?.segments ?? [];
  assert.doesNotMatch(JSON.stringify(segments), /SECRET/);
  assert.deepEqual(docs.readalong?.problems, [
    'lesson 1.1 docs/readalong.md:3: code reference file=lnk/creds.txt: resolves outside the lesson folder ' +
      "(through a symbolic link); only the lesson's own files are shown",
  ]);
  assert.ok(
    segments.some((segment) => segment.kind === 'code' && segment.code === 'export const ok = 1;'),
    'the inside link is shown',
  );
});

test('the lesson download holds its regular files only: no symlink leading out, no symlinked folder', () => {
  const { root, lesson } = courseWithLinks();
  const outside = readlinkSync(path.join(lesson, 'lnk'));
  symlinkSync(path.join(outside, 'creds.txt'), path.join(lesson, 'src', 'creds.txt'));
  symlinkSync(path.join(lesson, 'src', 'ok.ts'), path.join(lesson, 'src', 'same.ts')); // stays inside: its content is kept
  mkdirSync(path.join(lesson, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(path.join(lesson, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  const files = readLessonDownload(root, '1-basics/1.1-intro');
  assert.deepEqual(
    files.map((f) => f.path),
    ['src/ok.ts', 'src/same.ts'],
  );
  assert.equal(new TextDecoder().decode(files[1]!.bytes), 'export const ok = 1;\n');
  assert.throws(
    () => readLessonDownload(root, '../outside'),
    /must be relative to the course, without "\.\." segments/,
  );
});

test('a symlink loop a test left in the lesson folder is left out of the download and the code listing, not a failed build', () => {
  const { root, lesson } = courseWithLinks();
  symlinkSync('loop', path.join(lesson, 'loop')); // ELOOP: a sandboxed test can make this
  symlinkSync('ping', path.join(lesson, 'src', 'pong'));
  symlinkSync('pong', path.join(lesson, 'src', 'ping'));
  assert.deepEqual(
    readLessonDownload(root, '1-basics/1.1-intro').map((f) => f.path),
    ['src/ok.ts'],
  );
  assert.equal(realPathInside(lesson, 'loop'), null);
  assert.equal(fileInside(lesson, 'src/ping'), null);
});

test('a lesson folder that is a symlink, even to the course root, is refused: its download held .env and .codelabgen/', () => {
  const { root, lesson } = courseWithLinks();
  writeFileSync(path.join(root, '.env'), 'SECRET-TOKEN\n');
  rmSync(lesson, { recursive: true });
  symlinkSync('..', lesson);
  assert.throws(
    () => readLessonDownload(root, '1-basics/1.1-intro'),
    new RegExp(
      String.raw`^RefusalError: lesson folder 1-basics\/1\.1-intro: 1-basics\/1\.1-intro goes through a symbolic link ` +
        String.raw`\(to .*\); a lesson folder and its module folder must be real folders$`,
    ),
  );
  const result = cli(['site', 'build', '--out', path.join(path.dirname(root), 'out')], { cwd: root });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^error: lesson 1\.1 dir: 1-basics\/1\.1-intro goes through a symbolic link/m);
});
