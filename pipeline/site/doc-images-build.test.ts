// Issue 34.1 through a real `site build`: a doc image `img/fig.mjs%3Fv=2.png` (a file literally named
// `fig.mjs?v=2.png` beside `fig.mjs`) made Vite import docs/img/fig.mjs and run it with the builder's
// rights. Now nothing runs and the build fails naming the image, before any page is made. What a
// good build does with the same files (nothing runs, the image is published from its staged copy, no
// course path in the page, the lesson zip leaves out a file named `..\..\evil.bat`, issue 34.8) is
// checked on the builds of pipeline/site/site-rebuild.test.ts, which has doc images too.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { generateCourse } from '../../bench/generate-course.ts';
import { cliAsync, scratchDir } from '../../cli/testing.ts';
import { freePort, stop, waitForServer } from '../../e2e/dev-server.ts';
import { SVG_POLICY } from './svg-dev-guard.ts';

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

test('site dev serves doc images from their staged copies, never the course path (an SVG under the dev policy)', {
  timeout: 300_000,
}, async (t) => {
  const work = scratchDir('codelabgen-doc-images-dev-');
  const root = path.join(work, 'course');
  const { dirs } = await generateCourse(root, { lessons: 1 });
  const img = path.join(root, dirs[0]!, 'docs', 'img');
  mkdirSync(img);
  writeFileSync(path.join(img, 'dot.png'), Buffer.from(PNG, 'base64'));
  writeFileSync(
    path.join(img, 'square.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n',
  );
  appendFileSync(
    path.join(root, dirs[0]!, 'docs', 'readalong.md'),
    '\n\n![A dot](img/dot.png)\n\n![A square](img/square.svg)\n',
  );
  const port = await freePort();
  const dev = cliAsync(['site', 'dev', '--course', root, '--port', String(port)], {
    env: { CODELABGEN_DIAGRAM_CACHE: path.join(work, 'diagrams') },
  });
  t.after(async () => {
    if (dev.child.exitCode === null) dev.child.kill('SIGTERM');
    const timer = setTimeout(() => dev.child.kill('SIGKILL'), 10_000);
    await stop(dev.child);
    clearTimeout(timer);
  });
  let output = '';
  dev.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}/lessons/1.1-lesson-1/`;
  await waitForServer(url, 120_000, dev.child, () => output);
  const page = await (await fetch(url)).text();
  assert.ok(!page.includes(root), 'the page names a path of the course');
  for (const name of ['dot', 'square']) {
    const src = new RegExp(`<img[^>]*src="([^"]*${name}[^"]*)"`).exec(page)?.[1];
    assert.ok(src, `no ${name} image on the page:\n${page.slice(0, 2000)}`);
    assert.ok(
      !src.includes(encodeURIComponent(root)) && !src.includes(root),
      `${name} is served from the course: ${src}`,
    );
    const image = await fetch(new URL(src.replaceAll('&amp;', '&'), url));
    assert.equal(image.status, 200, `${src}: ${await image.text()}`);
    if (name === 'square') assert.equal(image.headers.get('content-security-policy'), SVG_POLICY);
  }
});
