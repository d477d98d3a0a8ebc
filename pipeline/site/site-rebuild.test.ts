// A rebuild with the content cache kept from the last build (entries stored by digest) shows an
// edit made in between: a kept cache never serves a lesson's old text. A rebuild that changes no
// page keeps the search index of the output it replaces (the cases: pipeline/site/search.test.ts).
// A rebuild draws no diagram (the diagram cache). Only the edited lesson's page is rendered again,
// even after a first build that drew its diagrams while making the pages (the entries say what the
// build draws, not what the cache held), and in a course with a doc image (Astro puts its output
// folder into the bundle: it is the same every build).
// A second build of the same course while one runs waits for it (and says so when it gives up).
// The same builds hold what a good doc image build must do (issue 34.1 and 34.8; the refusal of a
// misnamed image is pipeline/site/doc-images-build.test.ts): no module beside the images runs, the
// image is published from its staged copy, and the lesson zip leaves out a misnamed file.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { unzipSync } from 'fflate';
import { generateCourse } from '../../bench/generate-course.ts';
import { cliAsync, scratchDir, type CliResult } from '../../cli/testing.ts';
import { findChromium } from './diagrams.ts';

const work = scratchDir('codelabgen-site-rebuild-');
const root = path.join(work, 'course');
const out = path.join(work, 'out');
/** Written by docs/img/fig.mjs if anything runs it. */
const ran = path.join(work, 'ran');
// An empty diagram cache, and Chromium where there is one: the first build draws the diagrams.
const env = { CODELABGEN_DIAGRAM_CACHE: path.join(work, 'diagrams') };
const build = async (): Promise<CliResult> =>
  cliAsync(['site', 'build', '--course', root, '--out', out], { env, timeoutMs: 300_000 }).done;
const page = (slug: string) => path.join(out, 'lessons', slug, 'index.html');
let mtimes: Record<string, number> = {};
let pages: Record<string, string> = {};
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** A doc image that runs code when opened from the site's origin (issue: served as-is from /_astro/). */
const TRAP_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" ' +
  'onload="alert(1)"><script>alert(2)</script><rect width="8" height="8" fill="#0b7a75" ' +
  'onmouseover="alert(3)"/><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" ' +
  'src="javascript:alert(4)"/></foreignObject><image href="https://evil.example/beacon.png"/></svg>\n';
let first: CliResult;
let rebuilt: CliResult;

before(
  async () => {
    const { dirs } = await generateCourse(root, { lessons: 3 });
    mkdirSync(path.join(root, dirs[0]!, 'docs', 'img'));
    writeFileSync(path.join(root, dirs[0]!, 'docs', 'img', 'dot.png'), Buffer.from(PNG, 'base64'));
    writeFileSync(path.join(root, dirs[0]!, 'docs', 'img', 'trap.svg'), TRAP_SVG);
    // A module beside the images, and an image named like a query on it (not shown: a page that
    // shows it is refused, pipeline/site/doc-images-build.test.ts): neither may run.
    writeFileSync(
      path.join(root, dirs[0]!, 'docs', 'img', 'fig.mjs'),
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, 'ran');\nexport default ` +
        `{ src: 'x.png', width: 1, height: 1, format: 'png' };\n`,
    );
    writeFileSync(path.join(root, dirs[0]!, 'docs', 'img', 'fig.mjs?v=2.png'), Buffer.from(PNG, 'base64'));
    // A lesson file whose name an extractor reads as a path two folders up (issue 34.8).
    writeFileSync(path.join(root, dirs[0]!, '..\\..\\evil.bat'), '@echo pwned\n');
    appendFileSync(
      path.join(root, dirs[0]!, 'docs', 'readalong.md'),
      '\n\n![A dot](img/dot.png)\n\n![A trap](img/trap.svg)\n',
    );
    first = await build();
    assert.equal(first.code, 0, first.stderr);
    const slugs = ['1.1-lesson-1', '1.2-lesson-2', '1.3-lesson-3'];
    mtimes = Object.fromEntries(slugs.map((slug) => [slug, statSync(page(slug)).mtimeMs]));
    pages = Object.fromEntries(slugs.map((slug) => [slug, readFileSync(page(slug), 'utf8')]));
    appendFileSync(path.join(root, dirs[1]!, 'docs', 'notes.md'), '\n\nA paragraph added after the first build.\n');
    rebuilt = await build();
  },
  { timeout: 600_000 },
);

test('the edited lesson shows the edit after a rebuild with the kept cache; the others do not', () => {
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.match(
    first.stdout,
    findChromium() ? /^diagrams: 3 rendered, 0 cached/m : /^diagrams: 0 rendered, 0 cached, 0 failed, 3 client-side$/m,
  );
  assert.match(first.stdout, /^lesson pages: 3 rendered, 0 unchanged \(kept from the last build\)$/m);
  // A rebuild draws no diagram: each comes from the diagram cache the first build filled.
  assert.match(
    rebuilt.stdout,
    findChromium()
      ? /^diagrams: 0 rendered, 3 cached, 0 failed, 0 client-side$/m
      : /^diagrams: 0 rendered, 0 cached, 0 failed, 3 client-side$/m,
  );
  assert.match(rebuilt.stdout, /^lesson pages: 1 rendered, 2 unchanged \(kept from the last build\)$/m);
  assert.match(readFileSync(page('1.2-lesson-2'), 'utf8'), /A paragraph added after the first build\./);
  assert.notEqual(statSync(page('1.2-lesson-2')).mtimeMs, mtimes['1.2-lesson-2']);
  // Byte-equal: highlighting does not depend on the machine's speed (pipeline/site/expressive-code.ts).
  for (const slug of ['1.1-lesson-1', '1.3-lesson-3'])
    assert.equal(readFileSync(page(slug), 'utf8'), pages[slug], `${slug} changed`);
});

test('a doc SVG is published sanitized: the file under _astro/ the page shows has no script, handler, foreignObject or external reference', () => {
  const page = readFileSync(path.join(out, 'lessons', '1.1-lesson-1', 'index.html'), 'utf8');
  const src = /<img src="\/(_astro\/trap\.[^"]+\.svg)"/.exec(page)?.[1];
  assert.ok(src, 'the page shows no trap.svg from _astro/');
  const published = readFileSync(path.join(out, src), 'utf8');
  assert.doesNotMatch(published, /<script|\son[a-z]+=|foreignObject|javascript:|evil\.example/i, published);
  assert.match(published, /<rect width="8" height="8" fill="#0b7a75"\/>/, 'the drawing was lost');
});

test('a doc image is published from its staged copy, no module beside it runs, and the zip leaves out a misnamed file', () => {
  assert.equal(first.code, 0, first.stderr);
  assert.equal(existsSync(ran), false, 'docs/img/fig.mjs ran during a build');
  const page = readFileSync(path.join(out, 'lessons', '1.1-lesson-1', 'index.html'), 'utf8');
  const src = /<img src="\/(_astro\/dot\.[^"]+)"/.exec(page)?.[1];
  assert.ok(src, 'the good image is not on the page');
  assert.ok(existsSync(path.join(out, src)), `${src} was not published`);
  assert.ok(!page.includes(root), 'the page names a path of the course');
  // The zip leaves the misnamed file out, and the page says so.
  const zipName = readdirSync(path.join(out, 'lessons', '1.1-lesson-1')).find((file) => file.endsWith('.zip'));
  assert.ok(zipName, 'no lesson zip');
  const entries = Object.keys(unzipSync(readFileSync(path.join(out, 'lessons', '1.1-lesson-1', zipName))));
  assert.ok(entries.length > 0 && !entries.some((entry) => entry.includes('evil')), entries.join('\n'));
  assert.match(page, /Not in the zip \(a name some systems would misread;.*<code>\.\.\\\\\.\.\\\\evil\.bat<\/code>/);
});

/** Every file of the search index, by name. */
function searchIndex(): Map<string, string> {
  const dir = path.join(out, 'pagefind');
  return new Map(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [
        path.relative(dir, path.join(e.parentPath, e.name)),
        readFileSync(path.join(e.parentPath, e.name)).toString('base64'),
      ]),
  );
}

test('a rebuild that changes no page keeps the search index and renders no page; a build of the same course meanwhile is refused when it may not wait', {
  timeout: 600_000,
}, async () => {
  // 3 lessons and their files pages; no glossary, no sources: no page for them
  assert.match(rebuilt.stdout, /^search: 9 pages indexed$/m, 'the edit made a new index');
  const before = searchIndex();
  const running = cliAsync(['site', 'build', '--course', root, '--out', out], { env, timeoutMs: 300_000 });
  let progress = '';
  running.child.stderr!.on('data', (chunk: string) => (progress += chunk));
  while (!progress.includes('site build: loading') && running.child.exitCode === null)
    await new Promise((resolve) => setTimeout(resolve, 20));
  // One build of a course at a time: with no time to wait (the default is 30 s) it is refused.
  const second = await cliAsync(['site', 'build', '--course', root, '--out', path.join(work, 'out-2')], {
    env: { ...env, CODELABGEN_LOCK_TIMEOUT: '0' },
    timeoutMs: 300_000,
  }).done;
  assert.equal(second.code, 2, second.stderr);
  assert.match(
    second.stderr,
    /^error: the site build of this course is locked by pid \d+ on .+ \(codelabgen site build .*\) since .+; gave up after 0s$/m,
  );
  assert.equal(readdirSync(work).includes('out-2'), false, 'the refused build wrote its output');
  const same = await running.done;
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /^search: 9 pages, index kept \(no page changed\)$/m);
  assert.match(same.stdout, /^lesson pages: 0 rendered, 3 unchanged \(kept from the last build\)$/m);
  assert.deepEqual(searchIndex(), before);
});
