// End-to-end site builds of small fixture courses made here (temp dirs) through the built CLI:
// pages, order, links under a non-root --base, drafts, sanitization, code references, diagrams.
// Each fixture is built once and shared; the page data alone is checked in site/lib/page-data.test.ts.
// The client-side diagram fallback is checked on the e2e build made without Chromium (e2e/content.spec.ts).
// The first course is then rebuilt with the content cache kept from its build (entries stored by
// digest): a rebuild shows an edit made in between (a kept cache never serves a lesson's old text),
// and one that changes no page keeps the search index of the output it replaces (the cases:
// pipeline/site/search.test.ts). A rebuild draws no diagram (the diagram cache). Only the edited
// lesson's page is rendered again, even after a first build that drew its diagrams while making the
// pages (the entries say what the build draws, not what the cache held), and in a course with a doc
// image (Astro puts its output folder into the bundle: it is the same every build). A second build of
// the same course while one runs waits for it (and says so when it gives up). The same builds hold
// what a good doc image build must do (issue 34.1 and 34.8; the refusal of a misnamed image is
// pipeline/site/doc-images-build.test.ts): no module beside the images runs, the image is published
// from its staged copy, and the lesson zip leaves out a misnamed file.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { generateCourse } from '../../bench/generate-course.ts';
import {
  cli,
  cliAsync,
  readEvents,
  REPO_ROOT,
  removeDir,
  snapshot,
  tempDir,
  type CliResult,
} from '../../cli/testing.ts';
import { findChromium } from './diagrams.ts';

const BASE = '/my-course/';
const HOSTILE =
  '\n<script>alert("xss")</script>\n\n<img src="https://example.org/pic.png" onerror="alert(2)">\n\n<a href="javascript:alert(3)">bad link</a>\n';
const chromium = findChromium();
const work = tempDir('codelabgen-site-');
const cache = path.join(work, 'diagram-cache');
const env = { CODELABGEN_DIAGRAM_CACHE: cache };
const build = async (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  cliAsync(['site', 'build', ...args], { env: { ...env, ...extra }, timeoutMs: 300_000 }).done;
const html = (out: string, page: string) => readFileSync(path.join(out, page), 'utf8');
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** A doc image that runs code when opened from the site's origin (issue: served as-is from /_astro/). */
const TRAP_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" ' +
  'onload="alert(1)"><script>alert(2)</script><rect width="8" height="8" fill="#0b7a75" ' +
  'onmouseover="alert(3)"/><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" ' +
  'src="javascript:alert(4)"/></foreignObject><image href="https://evil.example/beacon.png"/></svg>\n';

after(() => removeDir(work));

/**
 * Starts a describe's builds as the file loads, so that the two courses (each its own course, output
 * and diagrams) build at once instead of one describe after the other (node:test runs a file's
 * describes in order): the file's wall time is the longer chain, not the sum (docs/testing.md). The
 * describe's before() awaits the result (a failure fails it there, not as an unhandled rejection).
 */
function startEarly<T>(make: () => Promise<T>): Promise<T> {
  const started = make();
  started.catch(() => {});
  return started;
}

/** The first course: built, then rebuilt (describe 'a rebuild of the first course with its caches kept'). */
const rootA = path.join(work, 'course-a');
const outA = path.join(work, 'out-a');
const argsA = ['--course', rootA, '--out', outA, '--base', BASE, '--site', 'https://example.org/my-course/'];
/** Written by docs/img/fig.mjs if anything runs it. */
const ran = path.join(work, 'ran');
const builtA = startEarly(async () => {
  const { dirs } = await generateCourse(rootA, {
    lessons: 4,
    perModule: 2,
    stageOf: (i) => (i === 2 ? 'code' : 'done'),
    notesExtra: (i) => (i === 0 ? HOSTILE : ''),
  });
  // A data file over the download's limit: listed, left out of the zip, and the page says so.
  writeFileSync(path.join(rootA, dirs[1]!, 'big.dat'), Buffer.alloc(600 * 1024, 7));
  const img = path.join(rootA, dirs[0]!, 'docs', 'img');
  mkdirSync(img);
  writeFileSync(path.join(img, 'dot.png'), Buffer.from(PNG, 'base64'));
  writeFileSync(path.join(img, 'trap.svg'), TRAP_SVG);
  // A module beside the images, and an image named like a query on it (not shown: a page that
  // shows it is refused, pipeline/site/doc-images-build.test.ts): neither may run.
  writeFileSync(
    path.join(img, 'fig.mjs'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, 'ran');\nexport default ` +
      `{ src: 'x.png', width: 1, height: 1, format: 'png' };\n`,
  );
  writeFileSync(path.join(img, 'fig.mjs?v=2.png'), Buffer.from(PNG, 'base64'));
  // A lesson file whose name an extractor reads as a path two folders up (issue 34.8).
  writeFileSync(path.join(rootA, dirs[0]!, '..\\..\\evil.bat'), '@echo pwned\n');
  appendFileSync(
    path.join(rootA, dirs[0]!, 'docs', 'readalong.md'),
    '\n\n![A dot](img/dot.png)\n\n![A trap](img/trap.svg)\n',
  );
  return { dirs, first: await build(argsA) };
});

describe('publish build under a non-root base', { timeout: 600_000 }, () => {
  const root = rootA;
  const out = outA;
  let first: CliResult;
  before(async () => {
    ({ first } = await builtA);
  });

  test('succeeds, lists the lessons left out, records site.build', () => {
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /warning: 1 lesson left out \(not done\): 2\.1 \(code\)/);
    // On a pipe the progress is one plain line per step (on a TTY one line rewritten: site/site-config.test.ts).
    assert.deepEqual(
      first.stderr.split('\n').flatMap((line) => /^site build: ([a-z]+): ./.exec(line)?.[1] ?? []),
      ['loading', 'diagrams', 'pages', 'search', 'done'],
    );
    assert.doesNotMatch(first.stderr, /\r|\x1b/, 'a terminal control on a pipe');
    const event = readEvents(root).at(-1) as { kind: string; lessons: string[] } | undefined;
    assert.equal(event?.kind, 'site.build');
    assert.deepEqual(event?.lessons, ['1.1', '1.2', '2.2']);
  });

  test('has every page, done lessons only, in curriculum order on the home page', () => {
    for (const page of [
      'index.html',
      '404.html',
      'search/index.html',
      'lessons/1.1-lesson-1/index.html',
      'lessons/2.2-lesson-4/index.html',
    ]) {
      assert.ok(existsSync(path.join(out, page)), `${page} missing`);
    }
    // This course has no glossary and no sources: no page for them, no link to them.
    for (const page of ['glossary', 'sources'])
      assert.ok(!existsSync(path.join(out, page)), `a ${page} page without entries`);
    assert.doesNotMatch(html(out, 'lessons/1.1-lesson-1/index.html'), />(Glossary|Sources)</);
    assert.ok(!existsSync(path.join(out, 'lessons/2.1-lesson-3')), 'a lesson that is not done is published');
    const home = html(out, 'index.html');
    const order = [...home.matchAll(/data-lesson="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(order, ['1.1', '1.2', '2.1', '2.2']);
    // The learner view: no generation progress, no report page (config.yaml site.report: false).
    assert.doesNotMatch(home, /lessons done|badge/);
    assert.match(home, /Coming soon/);
    assert.ok(!existsSync(path.join(out, 'report')), 'a report page in a learner build');
    assert.ok(!existsSync(path.join(out, 'progress')), 'a progress board in a learner build');
    assert.ok(existsSync(path.join(out, 'pagefind', 'pagefind.js')), 'search index missing');
    assert.ok(existsSync(path.join(out, 'sitemap-index.xml')), 'sitemap missing with --site');
  });

  test('every local link and asset resolves under --base', () => {
    const pages = listHtml(out);
    let checked = 0;
    for (const page of pages) {
      for (const match of html(out, page).matchAll(/(?:href|src)="([^"#?]*)[^"]*"/g)) {
        const url = match[1] ?? '';
        if (url === '' || /^(https?:|mailto:|data:)/.test(url)) continue;
        assert.ok(url.startsWith(BASE), `${page}: link ${url} is outside the base`);
        const file = path.join(out, url.slice(BASE.length));
        assert.ok(
          existsSync(file.endsWith('/') || url === BASE ? path.join(file, 'index.html') : file),
          `${page}: broken link ${url}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 50, `only ${checked} links checked`);
  });

  test('prev/next skip the unpublished lesson and cross modules; a course outside git shows no date', () => {
    const page = html(out, 'lessons/1.2-lesson-2/index.html');
    assert.match(page, /rel="prev" href="\/my-course\/lessons\/1\.1-lesson-1\/"/);
    assert.match(page, /rel="next" href="\/my-course\/lessons\/2\.2-lesson-4\/"/);
    assert.doesNotMatch(page, /Last updated/);
  });

  test('a file over the download limit is listed, left out of the zip, and named as left out', () => {
    const page = html(out, 'lessons/1.2-lesson-2/index.html');
    const files = [...page.matchAll(/<code>1\.2-lesson-2\.zip<\/code>, (\d+) files/g)].map((m) => Number(m[1]));
    const zip = unzipSync(readFileSync(path.join(out, 'lessons/1.2-lesson-2/1.2-lesson-2.zip')));
    assert.ok(!('1.2-lesson-2/big.dat' in zip), 'the big file is in the zip');
    assert.deepEqual(files, [Object.keys(zip).length], "the count on the page is the zip's");
    assert.match(page, /Not in the zip \(over 512 KB\): <code>big\.dat<\/code> \(600 KB\)\./);
  });

  test('raw HTML in notes is sanitized', () => {
    const page = html(out, 'lessons/1.1-lesson-1/index.html');
    assert.doesNotMatch(page, /alert\(/);
    assert.doesNotMatch(page, /onerror/i);
    assert.doesNotMatch(page, /javascript:/i);
    assert.match(page, /<img src="https:\/\/example.org\/pic.png" \/>/);
    assert.match(page, /href="https:\/\/example.com\/util" rel="noopener noreferrer"/);
  });

  test('a code reference shows the real lines with a file title and line numbers', () => {
    const page = html(out, 'lessons/1.1-lesson-1/index.html');
    const doc = page.slice(page.indexOf('data-doc="docs/readalong.md"'), page.indexOf('id="notes"'));
    const text = doc.replace(/<[^>]+>/g, '');
    assert.match(text, /src\/main\.ts/);
    assert.match(text, /value2 = 2; \/\/ line 2 of lesson 1/);
    assert.match(text, /value4 = 4; \/\/ line 4 of lesson 1/);
    assert.doesNotMatch(text, /value5 = 5/);
    assert.doesNotMatch(text, /value1 = 1;/);
    assert.match(doc, /--ecLineNumbersWidth|class="ln"|data-line-number|startLineNumber|counter-reset: ?line/i);
  });

  test('the lesson page has a verification badge; its script files are the copy button and the shared page script, inline JS stays small', () => {
    const page = html(out, 'lessons/1.1-lesson-1/index.html');
    assert.match(page, /tests passed 1\/1/);
    const scripts = [...page.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
    assert.ok(
      scripts.every((s) => !/mermaid|pagefind/.test(s)),
      scripts.join(' '),
    );
    const files = scripts.filter((s) => /\ssrc=/.test(s));
    assert.equal(files.length, 2, scripts.join(' '));
    assert.ok(
      files.some((s) => s.includes(`src="${BASE}_codelabgen/page.js?v=`)),
      scripts.join(' '),
    );
    const inline = [...page.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
    assert.ok(gzipSync(inline).length <= 4096, `inline JS: ${gzipSync(inline).length} bytes gzip`);
  });

  test('diagrams render to one inline SVG themed by CSS variables, its stylesheet in one shared file', {
    skip: chromium === null ? 'no Chromium here' : false,
  }, () => {
    assert.match(first.stdout, /diagrams: 3 rendered, 0 cached, 0 failed, 0 client-side/);
    const page = html(out, 'lessons/1.1-lesson-1/index.html');
    const svgs = [
      ...page.matchAll(
        /<div class="diagram-svg diagram-themed" style="--diagram-min-w:\d+px"><svg id="m[0-9a-f]{16}"[^>]*\sclass="(cgm-[0-9a-z]+) /g,
      ),
    ];
    assert.equal(svgs.length, 1);
    assert.doesNotMatch(page, /diagram-light|diagram-dark/);
    assert.doesNotMatch(page, /<svg[^>]*><style>/, 'an SVG kept its own stylesheet');
    assert.equal([...page.matchAll(/<marker /g)].length, 1, 'unused arrowhead markers are left in the SVG');
    assert.match(page, new RegExp(`<link rel="stylesheet" href="${BASE}_codelabgen/diagrams\\.css\\?v=[0-9a-z]+"`));
    const css = readFileSync(path.join(out, '_codelabgen', 'diagrams.css'), 'utf8');
    assert.ok(css.includes(`:is(.${svgs[0]![1]},#_) .node rect`), "the SVG's class has no rules in diagrams.css");
    assert.match(css, /fill:var\(--cg-mermaid-node\)/);
    assert.equal(new Set(css.match(/\.cgm-[0-9a-z]+/g)).size, 1, 'the three flowcharts share one stylesheet');
    // Only the rules the course's flowcharts can match: none for animated edges or error icons.
    assert.doesNotMatch(css, /\.edge-animation-slow\{|\.error-icon\{/, 'rules for elements no diagram has are left in');
    assert.doesNotMatch(page + css, /#0000(0[1-8]|1[1-8])\b/, 'a sentinel colour was left in the SVG');
  });

  test('code tokens carry theme-colour classes defined in the code stylesheet; no span for whitespace or plain text', () => {
    // Every code block of the lesson page (the readalong's) and of its files page (the lesson's files).
    const page = html(out, 'lessons/1.1-lesson-1/index.html') + html(out, 'lessons/1.1-lesson-1/files/index.html');
    const blocks = [...page.matchAll(/<div class="expressive-code">[\s\S]*?<\/figure><\/div>/g)].map((m) => m[0]);
    assert.ok(blocks.length >= 2, `${blocks.length} code blocks`);
    const code = blocks.join('');
    const classed = [...code.matchAll(/<span class="([a-z][0-9a-z]* [a-z][0-9a-z]*)">/g)].map((m) => m[1]!);
    assert.ok(classed.length > 100, `${classed.length} classed token spans`);
    // No inline styles in the lesson's files (only marked lines' contrast-fixed colours keep one,
    // and only readalong blocks mark lines), no span around whitespace anywhere.
    const files = [...page.matchAll(/<section class="code-file"[\s\S]*?<\/section>/g)].map((m) => m[0]).join('');
    assert.ok(files.length > 0, 'no lesson files on the page');
    assert.doesNotMatch(files, /<span style="--/);
    // Colour 0 of each theme is its text colour (pipeline/site/expressive-code.ts): such tokens need no span.
    assert.deepEqual(
      classed.filter((c) => /\b[ab]0\b/.test(c)),
      [],
      "tokens in the theme's text colour keep a span",
    );
    assert.doesNotMatch(
      code,
      /<span class="(?!indent")[a-z][0-9a-z]*(?: [a-z][0-9a-z]*)?">\s+<\/span>/,
      'a whitespace-only token span',
    );
    assert.ok([...page.matchAll(/<span style="--[^"]*">/g)].length < 10, 'marked lines aside, tokens carry classes');
    const sheet = page.match(/href="([^"]*\/_astro\/ec\.[^"]+\.css)"/)?.[1];
    assert.ok(sheet, 'no code stylesheet');
    const css = readFileSync(path.join(out, sheet.slice(BASE.length)), 'utf8');
    for (const name of new Set(classed.flatMap((c) => c.split(' '))))
      assert.ok(css.includes(`.${name}{--`), `class ${name} is not defined`);
  });

  test("a lesson page lists its own module's lessons; the others come from the shared sidebar file", () => {
    const page = html(out, 'lessons/1.1-lesson-1/index.html');
    const sidebar = page.slice(
      page.indexOf('<nav class="sidebar"'),
      page.indexOf('</nav>', page.indexOf('<nav class="sidebar"')),
    );
    assert.match(
      sidebar,
      /<details class="sidebar-module" open><summary>1\. Module 1<\/summary><ul><li><a href="\/my-course\/lessons\/1\.1-lesson-1\/" aria-current="page">/,
    );
    assert.match(
      sidebar,
      /<details class="sidebar-module" data-module="2"><summary>2\. Module 2<\/summary><ul><li><a href="\/my-course\/#module-2">1 lesson \(overview\)<\/a>/,
    );
    assert.doesNotMatch(sidebar, /lesson-4/);
    const file = sidebar.match(/data-lessons="\/my-course\/(_codelabgen\/sidebar\.json)\?v=[0-9a-z]+"/)?.[1];
    assert.ok(file, 'no data-lessons on the sidebar');
    assert.deepEqual(JSON.parse(readFileSync(path.join(out, file), 'utf8')), {
      1: [
        ['1.1', 'Lesson 1 title', '/my-course/lessons/1.1-lesson-1/'],
        ['1.2', 'Lesson 2 title', '/my-course/lessons/1.2-lesson-2/'],
      ],
      2: [['2.2', 'Lesson 4 title', '/my-course/lessons/2.2-lesson-4/']],
    });
    // Pages other than lessons list every lesson.
    assert.match(
      html(out, 'search/index.html'),
      /<details class="sidebar-module" open><summary>2\. Module 2<\/summary><ul><li><a href="\/my-course\/lessons\/2\.2-lesson-4\/">/,
    );
  });
});

describe('a rebuild of the first course with its caches kept', { timeout: 600_000 }, () => {
  const root = rootA;
  const out = outA;
  const page = (slug: string) => path.join(out, 'lessons', slug, 'index.html');
  const slugs = ['1.1-lesson-1', '1.2-lesson-2', '2.2-lesson-4'];
  let mtimes: Record<string, number> = {};
  let pages: Record<string, string> = {};
  let first: CliResult;
  let rebuilt: CliResult;
  // After the first describe's tests, which read the first build's output.
  before(async () => {
    let dirs: string[];
    ({ dirs, first } = await builtA);
    assert.equal(first.code, 0, first.stderr);
    mtimes = Object.fromEntries(slugs.map((slug) => [slug, statSync(page(slug)).mtimeMs]));
    pages = Object.fromEntries(slugs.map((slug) => [slug, readFileSync(page(slug), 'utf8')]));
    appendFileSync(path.join(root, dirs[1]!, 'docs', 'notes.md'), '\n\nA paragraph added after the first build.\n');
    rebuilt = await build(argsA);
  });

  test('the edited lesson shows the edit after a rebuild with the kept cache; the others do not', () => {
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(
      first.stdout,
      chromium ? /^diagrams: 3 rendered, 0 cached/m : /^diagrams: 0 rendered, 0 cached, 0 failed, 3 client-side$/m,
    );
    assert.match(first.stdout, /^lesson pages: 3 rendered, 0 unchanged \(kept from the last build\)$/m);
    // A rebuild draws no diagram: each comes from the diagram cache the first build filled.
    assert.match(
      rebuilt.stdout,
      chromium
        ? /^diagrams: 0 rendered, 3 cached, 0 failed, 0 client-side$/m
        : /^diagrams: 0 rendered, 0 cached, 0 failed, 3 client-side$/m,
    );
    assert.match(rebuilt.stdout, /^lesson pages: 1 rendered, 2 unchanged \(kept from the last build\)$/m);
    assert.match(readFileSync(page('1.2-lesson-2'), 'utf8'), /A paragraph added after the first build\./);
    assert.notEqual(statSync(page('1.2-lesson-2')).mtimeMs, mtimes['1.2-lesson-2']);
    // Byte-equal: highlighting does not depend on the machine's speed (pipeline/site/expressive-code.ts).
    for (const slug of ['1.1-lesson-1', '2.2-lesson-4'])
      assert.equal(readFileSync(page(slug), 'utf8'), pages[slug], `${slug} changed`);
  });

  test('a doc SVG is published sanitized: the file under _astro/ the page shows has no script, handler, foreignObject or external reference', () => {
    const lesson = readFileSync(page('1.1-lesson-1'), 'utf8');
    const src = /<img src="\/my-course\/(_astro\/trap\.[^"]+\.svg)"/.exec(lesson)?.[1];
    assert.ok(src, 'the page shows no trap.svg from _astro/');
    const published = readFileSync(path.join(out, src), 'utf8');
    assert.doesNotMatch(published, /<script|\son[a-z]+=|foreignObject|javascript:|evil\.example/i, published);
    assert.match(published, /<rect width="8" height="8" fill="#0b7a75"\/>/, 'the drawing was lost');
  });

  test('a doc image is published from its staged copy, no module beside it runs, and the zip leaves out a misnamed file', () => {
    assert.equal(first.code, 0, first.stderr);
    assert.equal(existsSync(ran), false, 'docs/img/fig.mjs ran during a build');
    const lesson = readFileSync(page('1.1-lesson-1'), 'utf8');
    const src = /<img src="\/my-course\/(_astro\/dot\.[^"]+)"/.exec(lesson)?.[1];
    assert.ok(src, 'the good image is not on the page');
    assert.ok(existsSync(path.join(out, src)), `${src} was not published`);
    assert.ok(!lesson.includes(root), 'the page names a path of the course');
    // The zip leaves the misnamed file out, and the page says so.
    const zipName = readdirSync(path.join(out, 'lessons', '1.1-lesson-1')).find((file) => file.endsWith('.zip'));
    assert.ok(zipName, 'no lesson zip');
    const entries = Object.keys(unzipSync(readFileSync(path.join(out, 'lessons', '1.1-lesson-1', zipName))));
    assert.ok(entries.length > 0 && !entries.some((entry) => entry.includes('evil')), entries.join('\n'));
    assert.match(
      lesson,
      /Not in the zip \(a name some systems would misread;.*<code>\.\.\\\\\.\.\\\\evil\.bat<\/code>/,
    );
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
    const running = cliAsync(['site', 'build', ...argsA], { env, timeoutMs: 300_000 });
    let progress = '';
    running.child.stderr!.on('data', (chunk: string) => (progress += chunk));
    while (!progress.includes('site build: loading') && running.child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // One build of a course at a time: with no time to wait (the default is 30 s) it is refused.
    // The same --base: the lock is per course, --drafts and --base (siteJob, pipeline/site/build.ts).
    const second = await cliAsync(
      ['site', 'build', ...argsA.map((arg) => (arg === out ? path.join(work, 'out-a2') : arg))],
      {
        env: { ...env, CODELABGEN_LOCK_TIMEOUT: '0' },
        timeoutMs: 300_000,
      },
    ).done;
    assert.equal(second.code, 2, second.stderr);
    assert.match(
      second.stderr,
      /^error: the site build of this course is locked by pid \d+ on .+ \(codelabgen site build .*\) since .+; gave up after 0s$/m,
    );
    assert.equal(readdirSync(work).includes('out-a2'), false, 'the refused build wrote its output');
    const same = await running.done;
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /^search: 9 pages, index kept \(no page changed\)$/m);
    assert.match(same.stdout, /^lesson pages: 0 rendered, 3 unchanged \(kept from the last build\)$/m);
    assert.deepEqual(searchIndex(), before);
  });
});

describe('drafts and broken content', { timeout: 600_000 }, () => {
  const root = path.join(work, 'course-b');
  const out = path.join(work, 'out-b');
  // The user's site cache shares no top-level folder with the package, as ~/.cache and a global
  // install: Astro took the package's components for root-relative ones, and the progress page's
  // processed <script> failed every drafts build (pipeline/site/astro-subrequests.ts).
  const topLevel = (dir: string) => path.resolve(dir).split(path.sep)[1];
  const userCache = [path.join(work, 'user-cache'), path.join(os.homedir(), '.cache')].find(
    (dir) => topLevel(dir) !== topLevel(REPO_ROOT),
  );
  const cacheEnv = userCache ? { XDG_CACHE_HOME: userCache } : {};
  let publish: CliResult;
  let drafts: CliResult;
  const built = startEarly(async () => {
    await generateCourse(root, {
      lessons: 3,
      stageOf: (i) => (i === 2 ? 'readalong' : 'done'),
      diagram: (i) => (i === 1 ? 'flowchart LR\n  A --> \n' : null),
    });
    const publish = await build(['--course', root, '--out', out], cacheEnv);
    return { publish, drafts: await build(['--course', root, '--out', out, '--drafts', '--base', BASE], cacheEnv) };
  });
  before(async () => {
    ({ publish, drafts } = await built);
  });

  test('a broken diagram fails a publish build naming lesson and diagram', {
    skip: chromium === null ? 'no Chromium here' : false,
  }, () => {
    assert.equal(publish.code, 1, publish.stderr);
    assert.match(
      publish.stderr,
      /^error: site build failed: lesson 1\.2 diagram docs\/diagrams\/flow\.mmd \("flow"\): Parse error/m,
    );
  });

  test('drafts include every lesson with its stage and what is missing, and show the diagram error', () => {
    assert.equal(drafts.code, 0, drafts.stderr);
    // mermaid's parse error keeps its lines in the terminal: the one under the first points at the line.
    if (chromium !== null)
      assert.match(
        drafts.stderr,
        /^warning: lesson 1\.2 diagram docs\/diagrams\/flow\.mmd \("flow"\): Parse error on line \d+: \(shown as an error box\)\n {2}\S.*\n {2}-*\^/m,
        drafts.stderr,
      );
    const page = html(out, 'lessons/1.3-lesson-3/index.html');
    assert.match(page, /draft: readalong/);
    assert.match(page, /missing: notes, review/);
    assert.match(
      html(out, 'report/index.html'),
      /What needs a human[\s\S]*Numbers[\s\S]*Lesson stories/,
      'the producer view shows the report story',
    );
    assert.match(
      html(out, 'progress/index.html'),
      /<h1[^>]*>Progress<\/h1>[\s\S]*Needs a human[\s\S]*Lessons by stage[\s\S]*id="pg-col-readalong">readalong <span class="pg-count">1</,
      'the producer view has the board',
    );
    if (userCache)
      assert.ok(
        existsSync(path.join(userCache, 'codelabgen', 'site')),
        'the build did not use a cache apart from the package',
      );
    assert.match(
      html(out, 'progress/index.html'),
      /<script type="module"/,
      'the progress page lost its processed <script>',
    );
    if (chromium !== null)
      assert.match(
        html(out, 'lessons/1.2-lesson-2/index.html'),
        /class="diagram-error" role="alert">Diagram error in lesson 1\.2, docs\/diagrams\/flow\.mmd/,
      );
    assert.doesNotMatch(
      readEvents(root)
        .map((e) => e.kind)
        .join(','),
      /site\.build/,
    );
  });
});

describe('refusals', () => {
  test('a bad code reference fails the build and check names lesson, doc and line', async () => {
    const root = path.join(work, 'course-c');
    const { dirs } = await generateCourse(root, { lessons: 1, diagram: () => null });
    const doc = path.join(root, dirs[0]!, 'docs/readalong.md');
    writeFileSync(
      doc,
      `# Intro\n\nText.\n\n\`\`\`ts file=src/main.ts lines=28-40\n\`\`\`\n\n\`\`\`ts file=src/gone.ts\n\`\`\`\n`,
    );
    const result = await build(['--course', root, '--out', path.join(work, 'out-c')]);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(
        String.raw`^error: site build failed: lesson 1\.1 docs\/readalong\.md:5: code reference file=src\/main\.ts ` +
          String.raw`lines=28-40: the file has only 30 lines \(and 1 more: lesson 1\.1 docs\/readalong\.md:8: code reference ` +
          String.raw`file=src\/gone\.ts: no such file in the lesson folder\)$`,
        'm',
      ),
    );
    const check = cli(['check', '--course', root]);
    assert.equal(check.code, 1);
    assert.match(
      check.stdout,
      /- lesson 1\.1 docs\/readalong\.md:5: code reference file=src\/main\.ts lines=28-40: the file has only 30 lines/,
    );
    assert.match(check.stdout, /- lesson 1\.1 docs\/readalong\.md:8: code reference file=src\/gone\.ts: no such file/);
  });

  test('an invalid course file fails the build naming the file and field', async () => {
    const root = path.join(work, 'course-f');
    await generateCourse(root, { lessons: 1, diagram: () => null });
    writeFileSync(
      path.join(root, '.codelabgen/curriculum.yaml'),
      'title: T\nmodules:\n  - id: "1"\n    slug: m\n    lessons: []\n',
    );
    // A fresh site cache: the Astro worker runs in a folder it makes there (pipeline/site/worker-fork.ts).
    const cacheHome = path.join(work, 'cache-f');
    const result = cli(['site', 'build', '--course', root, '--out', path.join(work, 'out-f')], {
      env: { XDG_CACHE_HOME: cacheHome },
    });
    assert.equal(result.code, 2);
    // Under the progress line a build shows while it reads the course, as when Astro's worker said it.
    assert.match(
      result.stderr,
      /^site build: loading: reading the course\nerror: \.codelabgen\/curriculum\.yaml: modules\[0\]\.title: /,
    );
    assert.ok(!existsSync(path.join(cacheHome, 'codelabgen', 'site')), 'a course that cannot be read started Astro');
  });

  test('an --out inside the course is refused and nothing changes', async () => {
    const root = path.join(work, 'course-d');
    await generateCourse(root, { lessons: 1, diagram: () => null });
    const before = snapshot(root);
    const result = cli(['site', 'build', '--course', root, '--out', path.join(root, 'site')]);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^error: --out .* is inside the course directory; the site never writes into the course except its site-out\/ folder\n/,
    );
    assert.deepEqual(snapshot(root), before);
  });
});

function listHtml(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) return e.name === 'pagefind' || e.name === '_astro' ? [] : listHtml(dir, rel);
    return e.name.endsWith('.html') ? [rel] : [];
  });
}
