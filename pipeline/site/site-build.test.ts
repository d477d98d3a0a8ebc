// End-to-end site builds of small fixture courses made here (temp dirs) through the built CLI:
// pages, order, links under a non-root --base, drafts, sanitization, code references, diagrams,
// and the diagram cache (a rebuild renders none). Each fixture is built once and shared.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { generateCourse } from '../../bench/generate-course.ts';
import { cli, cliAsync, readEvents, removeDir, snapshot, tempDir, type CliResult } from '../../cli/testing.ts';
import { findChromium } from './diagrams.ts';

const BASE = '/my-course/';
const HOSTILE = '\n<script>alert("xss")</script>\n\n<img src="https://example.org/pic.png" onerror="alert(2)">\n\n<a href="javascript:alert(3)">bad link</a>\n';
const chromium = findChromium();
const work = tempDir('codelabgen-site-');
const cache = path.join(work, 'diagram-cache');
const env = { CODELABGEN_DIAGRAM_CACHE: cache };
const build = async (args: string[]): Promise<CliResult> => cliAsync(['site', 'build', ...args], { env, timeoutMs: 300_000 }).done;
const html = (out: string, page: string) => readFileSync(path.join(out, page), 'utf8');

after(() => removeDir(work));

describe('publish build under a non-root base', { timeout: 600_000 }, () => {
  const root = path.join(work, 'course-a');
  const out = path.join(work, 'out-a');
  let first: CliResult;
  let second: CliResult;
  before(async () => {
    await generateCourse(root, { lessons: 4, perModule: 2, stageOf: (i) => (i === 2 ? 'code' : 'done'), notesExtra: (i) => (i === 0 ? HOSTILE : '') });
    first = await build(['--course', root, '--out', out, '--base', BASE, '--site', 'https://example.org/my-course/']);
    second = await build(['--course', root, '--out', out, '--base', BASE, '--site', 'https://example.org/my-course/']);
  });

  test('succeeds, lists the lessons left out, records site.build', () => {
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /warning: 1 lesson left out \(not done\): 2\.1 \(code\)/);
    const event = readEvents(root).at(-1) as { kind: string; lessons: string[] } | undefined;
    assert.equal(second.code, 0, second.stderr);
    assert.equal(event?.kind, 'site.build');
    assert.deepEqual(event?.lessons, ['1.1', '1.2', '2.2']);
  });

  test('has every page, done lessons only, in curriculum order on the home page', () => {
    for (const page of ['index.html', '404.html', 'glossary/index.html', 'sources/index.html', 'search/index.html', 'lessons/1.1-lesson-1/index.html', 'lessons/2.2-lesson-4/index.html']) {
      assert.ok(existsSync(path.join(out, page)), `${page} missing`);
    }
    assert.ok(!existsSync(path.join(out, 'lessons/2.1-lesson-3')), 'a lesson that is not done is published');
    const home = html(out, 'index.html');
    const order = [...home.matchAll(/data-lesson="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(order, ['1.1', '1.2', '2.1', '2.2']);
    // The learner view: no generation progress, no report page (config.yaml site.report: false).
    assert.doesNotMatch(home, /lessons done|badge/);
    assert.match(home, /Coming soon/);
    assert.ok(!existsSync(path.join(out, 'report')), 'a report page in a learner build');
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
        assert.ok(existsSync(file.endsWith('/') || url === BASE ? path.join(file, 'index.html') : file), `${page}: broken link ${url}`);
        checked++;
      }
    }
    assert.ok(checked > 50, `only ${checked} links checked`);
  });

  test('prev/next skip the unpublished lesson and cross modules', () => {
    const page = html(out, 'lessons/1.2-lesson-2/index.html');
    assert.match(page, /rel="prev" href="\/my-course\/lessons\/1\.1-lesson-1\/"/);
    assert.match(page, /rel="next" href="\/my-course\/lessons\/2\.2-lesson-4\/"/);
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

  test('the lesson page has a verification badge; its only script file is the copy button, inline JS stays small', () => {
    const page = html(out, 'lessons/1.1-lesson-1/index.html');
    assert.match(page, /tests passed 1\/1/);
    const scripts = [...page.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
    assert.ok(scripts.every((s) => !/mermaid|pagefind/.test(s)), scripts.join(' '));
    assert.ok(scripts.filter((s) => /\ssrc=/.test(s)).length <= 1, scripts.join(' '));
    const inline = [...page.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
    assert.ok(gzipSync(inline).length <= 4096, `inline JS: ${gzipSync(inline).length} bytes gzip`);
  });

  test('diagrams render to one inline SVG themed by CSS variables; a rebuild renders none', { skip: chromium === null ? 'no Chromium here' : false }, () => {
    assert.match(first.stdout, /diagrams: 3 rendered, 0 cached, 0 failed, 0 client-side/);
    assert.match(second.stdout, /diagrams: 0 rendered, 3 cached, 0 failed, 0 client-side/);
    const page = html(out, 'lessons/1.1-lesson-1/index.html');
    assert.equal([...page.matchAll(/<div class="diagram-svg diagram-themed"><svg id="m[0-9a-f]{16}"/g)].length, 1);
    assert.doesNotMatch(page, /diagram-light|diagram-dark/);
    assert.match(page, /fill:var\(--cg-mermaid-node\)/);
    assert.doesNotMatch(page, /#0000(0[1-8]|1[1-8])\b/, 'a sentinel colour was left in the SVG');
  });
});

describe('drafts and broken content', { timeout: 600_000 }, () => {
  const root = path.join(work, 'course-b');
  const out = path.join(work, 'out-b');
  let publish: CliResult;
  let drafts: CliResult;
  before(async () => {
    await generateCourse(root, { lessons: 3, stageOf: (i) => (i === 2 ? 'readalong' : 'done'), diagram: (i) => (i === 1 ? 'flowchart LR\n  A --> \n' : null) });
    publish = await build(['--course', root, '--out', out]);
    drafts = await build(['--course', root, '--out', out, '--drafts', '--base', BASE]);
  });

  test('a broken diagram fails a publish build naming lesson and diagram', { skip: chromium === null ? 'no Chromium here' : false }, () => {
    assert.equal(publish.code, 1, publish.stderr);
    assert.match(publish.stderr, /^error: site build failed: lesson 1\.2 diagram docs\/diagrams\/flow\.mmd \("flow"\): Parse error/m);
  });

  test('drafts include every lesson with its stage and what is missing, and show the diagram error', () => {
    assert.equal(drafts.code, 0, drafts.stderr);
    const page = html(out, 'lessons/1.3-lesson-3/index.html');
    assert.match(page, /draft: readalong/);
    assert.match(page, /missing: notes, review/);
    assert.match(html(out, 'report/index.html'), /What needs a human[\s\S]*Numbers[\s\S]*Lesson stories/, 'the producer view shows the report story');
    if (chromium !== null) assert.match(html(out, 'lessons/1.2-lesson-2/index.html'), /class="diagram-error" role="alert">Diagram error in lesson 1\.2, docs\/diagrams\/flow\.mmd/);
    assert.doesNotMatch(readEvents(root).map((e) => e.kind).join(','), /site\.build/);
  });
});

describe('without Chromium diagrams fall back to client-side mermaid', { timeout: 600_000 }, () => {
  const root = path.join(work, 'course-e');
  const out = path.join(work, 'out-e');
  let result: CliResult;
  before(async () => {
    await generateCourse(root, { lessons: 2, diagram: (i) => (i === 0 ? 'sequenceDiagram\n  A->>B: hi\n' : null) });
    result = await cliAsync(['site', 'build', '--course', root, '--out', out, '--base', BASE], { env: { ...env, CODELABGEN_CHROMIUM: 'none', CODELABGEN_DIAGRAM_CACHE: path.join(work, 'empty-cache') }, timeoutMs: 300_000 }).done;
  });

  test('only the page with a diagram loads mermaid, served as the prebuilt ESM copy', () => {
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /diagrams: 0 rendered, 0 cached, 0 failed, 1 client-side/);
    const withDiagram = html(out, 'lessons/1.1-lesson-1/index.html');
    assert.match(withDiagram, /<pre class="mermaid-source">sequenceDiagram/);
    assert.match(withDiagram, /content="\/my-course\/_codelabgen\/mermaid\/mermaid\.esm\.min\.mjs"/);
    assert.match(withDiagram, /securityLevel: 'strict'/);
    assert.ok(existsSync(path.join(out, '_codelabgen/mermaid/mermaid.esm.min.mjs')));
    assert.doesNotMatch(html(out, 'lessons/1.2-lesson-2/index.html'), /mermaid\.esm|mermaid-source/);
    assert.equal(readdirSync(path.join(out, '_astro')).filter((f) => /mermaid/i.test(f)).length, 0, 'Vite bundled mermaid');
  });
});

describe('refusals', () => {
  test('a bad code reference fails the build and check names lesson, doc and line', async () => {
    const root = path.join(work, 'course-c');
    const { dirs } = await generateCourse(root, { lessons: 1, diagram: () => null });
    const doc = path.join(root, dirs[0]!, 'docs/readalong.md');
    writeFileSync(doc, `# Intro\n\nText.\n\n\`\`\`ts file=src/main.ts lines=28-40\n\`\`\`\n\n\`\`\`ts file=src/gone.ts\n\`\`\`\n`);
    const result = await build(['--course', root, '--out', path.join(work, 'out-c')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: site build failed: lesson 1\.1 docs\/readalong\.md:5: code reference file=src\/main\.ts lines=28-40: the file has only 30 lines \(and 1 more: lesson 1\.1 docs\/readalong\.md:8: code reference file=src\/gone\.ts: no such file in the lesson folder\)$/m);
    const check = cli(['check', '--course', root]);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /- lesson 1\.1 docs\/readalong\.md:5: code reference file=src\/main\.ts lines=28-40: the file has only 30 lines/);
    assert.match(check.stdout, /- lesson 1\.1 docs\/readalong\.md:8: code reference file=src\/gone\.ts: no such file/);
  });

  test('an invalid course file fails the build naming the file and field', async () => {
    const root = path.join(work, 'course-f');
    await generateCourse(root, { lessons: 1, diagram: () => null });
    writeFileSync(path.join(root, '.codelabgen/curriculum.yaml'), 'title: T\nmodules:\n  - id: "1"\n    slug: m\n    lessons: []\n');
    const result = cli(['site', 'build', '--course', root, '--out', path.join(work, 'out-f')]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: \.codelabgen\/curriculum\.yaml: modules\[0\]\.title: /m);
  });

  test('an --out inside the course is refused and nothing changes', async () => {
    const root = path.join(work, 'course-d');
    await generateCourse(root, { lessons: 1, diagram: () => null });
    const before = snapshot(root);
    const result = cli(['site', 'build', '--course', root, '--out', path.join(root, 'site')]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: --out .* is inside the course directory; the site never writes into the course\n/);
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
