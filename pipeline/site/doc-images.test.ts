// Doc images reach astro:assets as bytes (issue 34.1): a file named `fig.mjs?v=2.png` beside a
// `fig.mjs` made Vite run the module at `site build`. An image name with `?`, `#`, `%`, a backslash
// or a control character is refused (by `check` too, with the build's message), and an accepted
// image is handed to astro:assets as a staged copy named by its hash, never by its course path.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, scratchDir } from '../../cli/testing.ts';
import { courseAt, LESSON_DIRS } from '../../cli/protocol-fixture.ts';
import { DocRefError, resolveImage } from './doc-links.ts';
import { stagedName, stageDocImage } from './doc-images.ts';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const RUNS_CODE = "import { writeFileSync } from 'node:fs'; writeFileSync('/tmp/pwned', 'ran');\n";

/** A lesson folder with docs/img/ holding `names` (each a copy of the PNG) and the module fig.mjs. */
function lessonWith(names: string[]): string {
  const lesson = scratchDir('codelabgen-doc-images-');
  mkdirSync(path.join(lesson, 'docs', 'img'), { recursive: true });
  writeFileSync(path.join(lesson, 'docs', 'img', 'fig.mjs'), RUNS_CODE);
  for (const name of names) writeFileSync(path.join(lesson, 'docs', 'img', name), PNG);
  return lesson;
}

test('an image whose file name holds ?, #, %, a backslash or a control character is refused, naming the character', () => {
  const names = ['fig.mjs?v=2.png', 'a#b.png', 'a%41.png', 'a\\b.png', 'a\u001bb.png', 'ok.png'];
  const lesson = lessonWith(names);
  const refusal = (url: string) => {
    try {
      resolveImage(url, lesson, 'docs/readalong.md');
    } catch (error) {
      assert.ok(error instanceof DocRefError, String(error));
      return error.message;
    }
    return null;
  };
  const rename = 'rename the image to letters, digits, "-", "_" and "." (and "/" between folders)';
  assert.equal(refusal('img/fig.mjs%3Fv=2.png'), `image img/fig.mjs%3Fv=2.png: its file name holds "?"; ${rename}`);
  assert.equal(refusal('img/a%23b.png'), `image img/a%23b.png: its file name holds "#"; ${rename}`);
  assert.equal(refusal('img/a%2541.png'), `image img/a%2541.png: its file name holds "%"; ${rename}`);
  assert.equal(refusal('img/a%5Cb.png'), `image img/a%5Cb.png: its file name holds a backslash; ${rename}`);
  assert.equal(refusal('img/a%1Bb.png'), `image img/a%1Bb.png: its file name holds a control character; ${rename}`);
  assert.equal(refusal('img/ok.png'), null);
});

test('an accepted image is staged as <stage>/<sha256>/<name>.<ext>: its bytes, its name reduced to [A-Za-z0-9_-], made once', () => {
  const lesson = lessonWith(['fig one.png']);
  const stage = path.join(scratchDir('codelabgen-stage-'), 'doc-images');
  const image = resolveImage('img/fig%20one.png', lesson, 'docs/readalong.md');
  const key = createHash('sha256').update(PNG).digest('hex').slice(0, 16);
  assert.equal(image.key, key);
  const staged = stageDocImage(stage, image);
  assert.equal(staged, path.join(stage, key, 'fig-one.png'));
  assert.deepEqual(readFileSync(staged), PNG);
  assert.deepEqual(stageDocImage(stage, image), staged, 'staged once, found the second time');
  assert.deepEqual(readdirSync(path.join(stage, key)), ['fig-one.png'], 'no temporary file left');
  assert.equal(stagedName('/c/docs/img/ünïcode ?#%.v2.png'), 'n-code-v2');
  assert.equal(stagedName('/c/docs/img/....png'), 'image');
});

test('staging refuses an image replaced after it was resolved: by other bytes, or by a symlink to a secret', () => {
  const lesson = lessonWith(['dot.png']);
  const stage = path.join(scratchDir('codelabgen-stage-'), 'doc-images');
  const file = path.join(lesson, 'docs', 'img', 'dot.png');
  const image = resolveImage('img/dot.png', lesson, 'docs/readalong.md');
  writeFileSync(file, Buffer.concat([PNG, Buffer.from('more')]));
  assert.throws(() => stageDocImage(stage, image), /changed while the site was built/);
  unlinkSync(file);
  symlinkSync('/etc/passwd', file);
  assert.throws(() => stageDocImage(stage, image), /replaced by a symbolic link/);
});

test('check reports an image whose file name would be read as a module and a query (exit 1, the line named)', () => {
  const root = courseAt('lessons');
  const lesson = path.join(root, LESSON_DIRS['1.1']!);
  mkdirSync(path.join(lesson, 'docs', 'img'), { recursive: true });
  writeFileSync(path.join(lesson, 'docs', 'img', 'fig.mjs'), RUNS_CODE);
  writeFileSync(path.join(lesson, 'docs', 'img', 'fig.mjs?v=2.png'), PNG);
  writeFileSync(path.join(lesson, 'docs', 'readalong.md'), '# Intro\n\n![A figure](img/fig.mjs%3Fv=2.png)\n');
  const result = cli(['check'], { cwd: root });
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /lesson 1\.1 docs\/readalong\.md:3: image img\/fig\.mjs%3Fv=2\.png: its file name holds "\?"; rename the image/,
  );
});
