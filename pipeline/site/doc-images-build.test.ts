// Issue 34.1 through a real `site build`: a doc image `img/fig.mjs%3Fv=2.png` (a file literally named
// `fig.mjs?v=2.png` beside `fig.mjs`) made Vite import docs/img/fig.mjs and run it with the builder's
// rights. Now nothing runs and the build fails naming the image, before any page is made. What a
// good build does with the same files (nothing runs, the image is published from its staged copy, no
// course path in the page, the lesson zip leaves out a file named `..\..\evil.bat`, issue 34.8) is
// checked on the builds of pipeline/site/site-build.test.ts's first course, which has doc images too; that
// `site dev` serves doc images from their staged copies, on the dev server of
// pipeline/site/mdx-site.test.ts.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { generateCourse } from '../../bench/generate-course.ts';
import { cliAsync, scratchDir } from '../../cli/testing.ts';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test('site build runs no module named by a doc image (fig.mjs?v=2.png) and fails naming the image', {
  timeout: 300_000,
}, async () => {
  const work = scratchDir('codelabgen-doc-images-build-');
  const root = path.join(work, 'course');
  const out = path.join(work, 'out');
  const ran = path.join(work, 'ran');
  const { dirs } = await generateCourse(root, { lessons: 1 });
  const img = path.join(root, dirs[0]!, 'docs', 'img');
  mkdirSync(img);
  writeFileSync(
    path.join(img, 'fig.mjs'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, 'ran');\nexport default ` +
      `{ src: 'x.png', width: 1, height: 1, format: 'png' };\n`,
  );
  writeFileSync(path.join(img, 'fig.mjs?v=2.png'), Buffer.from(PNG, 'base64'));
  writeFileSync(path.join(img, 'dot.png'), Buffer.from(PNG, 'base64'));
  appendFileSync(
    path.join(root, dirs[0]!, 'docs', 'readalong.md'),
    '\n\n![A figure](img/fig.mjs%3Fv=2.png)\n\n![A dot](img/dot.png)\n',
  );
  const refused = await cliAsync(['site', 'build', '--course', root, '--out', out], {
    env: { CODELABGEN_DIAGRAM_CACHE: path.join(work, 'diagrams') },
    timeoutMs: 300_000,
  }).done;
  assert.equal(existsSync(ran), false, 'docs/img/fig.mjs ran during the build');
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /image img\/fig\.mjs%3Fv=2\.png: its file name holds "\?"; rename the image/);
  assert.equal(existsSync(out), false, 'a site was written');
});
