// End-to-end site builds of small fixture courses made here (temp dirs) through the built CLI:
// pages, order, links under a non-root --base, drafts, sanitization, code references, diagrams.
// Each fixture is built once and shared; a rebuild from the diagram cache (it draws none) is checked in
// pipeline/site/site-rebuild.test.ts, the page data alone in site/lib/page-data.test.ts. The
// client-side diagram fallback is checked on the e2e build made without Chromium (e2e/content.spec.ts).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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

describe('publish build under a non-root base', { timeout: 600_000 }, () => {
  const root = path.join(work, 'course-a');
  const out = path.join(work, 'out-a');
  let first: CliResult;
  const built = startEarly(async () => {
    const { dirs } = await generateCourse(root, {
      lessons: 4,
      perModule: 2,
      stageOf: (i) => (i === 2 ? 'code' : 'done'),
      notesExtra: (i) => (i === 0 ? HOSTILE : ''),
    });
    // A data file over the download's limit: listed, left out of the zip, and the page says so.
    writeFileSync(path.join(root, dirs[1]!, 'big.dat'), Buffer.alloc(600 * 1024, 7));
    return build(['--course', root, '--out', out, '--base', BASE, '--site', 'https://example.org/my-course/']);
  });
  before(async () => {
    first = await built;
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
