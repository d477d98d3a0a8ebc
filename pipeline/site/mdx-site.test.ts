// The MDX opt-in end to end through the built CLI (docs/site.md "MDX"): the fixture course
// pipeline/site/fixtures/mdx-course is built ONCE (drafts: it has no state) and its lesson page is
// checked for every built-in component, then its tabs are driven with the keyboard in Chromium
// (served from the same build). A broken <CodeRef> and an .mdx doc without the opt-in fail before
// any page is built. The build must not write the package's own .astro/ folder: builds of two
// courses at once would overwrite each other's content-modules.mjs (which module renders an entry).
// `site dev` on the same fixture serves the progress page's <script>, shows .mdx edits, prints a
// broken <CodeRef> as an error: line, and keeps the open page under its error banner while an .mdx
// doc does not compile; on a second lesson with a plain .md doc it serves the doc images from their
// staged copies, never the course path (one dev server for both: each costs a start of Astro).
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright';
import { cli, cliAsync, removeDir, snapshot, tempDir, type CliResult } from '../../cli/testing.ts';
import { freePort, stop, waitForServer } from '../../e2e/dev-server.ts';
import { serveStatic } from '../../e2e/static-server.ts';
import { SVG_POLICY } from './svg-dev-guard.ts';
import { chromiumPath } from '../../e2e/paths.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'mdx-course');
const LESSON = '1-basics/1.1-counter';
const IMAGES_LESSON = '1-basics/1.2-images';
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const work = tempDir('codelabgen-mdx-site-');
const env = { CODELABGEN_DIAGRAM_CACHE: path.join(work, 'diagram-cache') };
const copy = (name: string) => {
  const root = path.join(work, name);
  cpSync(FIXTURE, root, { recursive: true });
  return root;
};
after(() => removeDir(work));
/** One Chromium for the file's two browser checks (the tabs, site dev's banner): each launch costs about half a core-second. */
/**
 * How long site dev may take to show a save (or its error) before the test gives up: a hang guard,
 * not a budget, as e2e/dev.spec.ts's SHOWS (a save once took over 30 s there at load 30-45).
 */
const SHOWS_MS = 60_000;

let browser: Promise<Browser> | undefined;
const sharedBrowser = () =>
  (browser ??= chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] }));
after(async () => {
  await (await browser?.catch(() => undefined))?.close();
});

describe('a course with site.mdx: true', { timeout: 600_000 }, () => {
  const root = copy('course');
  const out = path.join(work, 'out');
  let built: CliResult;
  let page = '';
  // The package's own .astro/content-modules.mjs (written by `astro sync` in `npm test`) must never
  // name this course's docs: each course's build keeps its .astro/ in its own content cache.
  const shared = path.join(import.meta.dirname, '..', '..', '.astro', 'content-modules.mjs');
  before(async () => {
    built = await cliAsync(['site', 'build', '--course', root, '--out', out, '--drafts'], { env, timeoutMs: 300_000 })
      .done;
    const file = path.join(out, 'lessons', '1.1-counter', 'index.html');
    page = existsSync(file) ? readFileSync(file, 'utf8') : '';
  });

  test('builds, with MDX expressions and exports evaluated, writing nothing into the package', () => {
    assert.equal(built.code, 0, built.stderr);
    const modules = existsSync(shared) ? readFileSync(shared, 'utf8') : '';
    assert.ok(
      !modules.includes(path.basename(work)),
      "a build wrote the package's own .astro/content-modules.mjs, which every build shares",
    );
    assert.match(page, /its state in a closure: 2 functions share one variable/);
    assert.match(page, /Written by the MDX fixture\./);
    assert.doesNotMatch(page, /export const|\{1 \+ 1\}/);
  });

  test('<CodeRef> shows the lines of the verified file, numbered and marked', () => {
    const source = readFileSync(path.join(root, LESSON, 'src/counter.ts'), 'utf8').split('\n');
    const block =
      /<figure class="frame has-title"><figcaption class="header"><span class="title">src\/counter\.ts<\/span>[\s\S]*?<\/figure>/.exec(
        page,
      )?.[0] ?? '';
    const lines = [...block.matchAll(/<div class="code">([\s\S]*?)<\/div><\/div>/g)].map((m) =>
      (m[1] ?? '').replace(/<[^>]+>/g, '').replace(/&#39;/g, "'"),
    );
    assert.deepEqual(lines, source.slice(1, 4));
    assert.deepEqual(
      [...block.matchAll(/class="ln" aria-hidden="true">(\d+)</g)].map((m) => m[1]),
      ['2', '3', '4'],
    );
    assert.match(
      block,
      /<div class="ec-line highlight mark"><div class="gutter"><div class="ln" aria-hidden="true">3</,
    );
  });

  test('<Tabs>, <Steps>, <Aside>, <Diagram>, <FileTree> render with their roles and classes', () => {
    assert.match(
      page,
      new RegExp(
        '<div role="tablist" hidden><button type="button" role="tab" id="tabs-1-tab-1" ' +
          String.raw`aria-controls="tabs-1-panel-1" aria-selected="true" tabindex="0">npm<\/button><button ` +
          String.raw`[^>]*aria-selected="false" tabindex="-1">node<\/button><button [^>]*>watch<\/button><\/div>`,
      ),
    );
    assert.match(
      page,
      new RegExp(
        '<div class="tab-panel" role="tabpanel" id="tabs-1-panel-2" aria-labelledby="tabs-1-tab-2" ' +
          String.raw`tabindex="0"><p class="tab-label">node<\/p><p>Run <code>node --test<\/code>`,
      ),
    );
    assert.match(page, /<div class="steps"><ol>\s*<li>Create the counter with a start value\.<\/li>/);
    assert.match(
      page,
      /<aside class="callout callout-tip" aria-label="Why a closure"><p class="callout-title" aria-hidden="true">Why a closure<\/p>/,
    );
    assert.match(page, /<aside class="callout callout-danger" aria-label="Danger">/);
    // Drawn at build time like a mermaid fence (no Chromium: left to the reader's browser, source kept).
    assert.match(
      page,
      new RegExp(
        '<figure class="diagram" data-diagram="[0-9a-f]{16}">(<div class="diagram-svg[^"]*"( ' +
          String.raw`style="--diagram-min-w:\d+px")?><svg|<pre class="mermaid-source">flowchart ` +
          String.raw`LR)[\s\S]*?<figcaption>Counter calls<\/figcaption><\/figure>`,
      ),
    );
    assert.match(
      page,
      new RegExp(
        String.raw`<nav class="mdx-file-tree" aria-label="Files"><ul class="file-tree">\s*<li><span ` +
          String.raw`class="dir">src\/<\/span><ul class="file-tree">\s*<li>counter\.ts<\/li>`,
      ),
    );
  });

  test('headings: the doc titles head their sections, h2s get anchors and TOC entries', () => {
    assert.match(page, /<h2 id="readalong">Reading the counter<\/h2>/);
    assert.match(page, /<h2 id="notes">Notes on the counter<\/h2>/);
    assert.doesNotMatch(page, /<h1[^>]*>Reading the counter/);
    assert.match(
      page,
      /<div class="heading-wrap h2"><h2 id="install-and-run">Install and run<\/h2><a class="heading-anchor" href="#install-and-run">/,
    );
    assert.match(page, /<a href="#how-the-parts-fit"[^>]*>How the parts fit<\/a>/);
  });

  test('tabs: arrow keys, Home and End move the selection and focus; one panel shows', {
    skip: chromiumPath() === undefined && 'no Chromium',
  }, async () => {
    const site = await serveStatic(out, '/');
    const context = await (await sharedBrowser()).newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(`${site.url}lessons/1.1-counter/`);
      const tabs = tab.getByRole('tab');
      assert.equal(await tabs.count(), 3);
      const state = () =>
        tab.evaluate(() =>
          [...document.querySelectorAll('[role=tab]')].map(
            (t) =>
              `${t.textContent}:${t.getAttribute('aria-selected')}:${(t as HTMLElement).tabIndex}:` +
              `${document.getElementById(t.getAttribute('aria-controls') ?? '')?.hidden}:` +
              `${document.activeElement === t}`,
          ),
        );
      // One selected tab in the tab order, its panel alone shown; `selected` = index, `focused` too after keys.
      const expect = (selected: number, focused: boolean) =>
        ['npm', 'node', 'watch'].map(
          (label, i) =>
            `${label}:${i === selected}:${i === selected ? 0 : -1}:${i !== selected}:${focused && i === selected}`,
        );
      assert.deepEqual(await state(), expect(0, false));
      await tabs.first().focus();
      await tab.keyboard.press('ArrowRight');
      assert.deepEqual(await state(), expect(1, true));
      await tab.keyboard.press('ArrowRight');
      await tab.keyboard.press('ArrowRight'); // wraps around
      assert.deepEqual(await state(), expect(0, true));
      await tab.keyboard.press('ArrowLeft'); // wraps around
      assert.deepEqual(await state(), expect(2, true));
      await tab.keyboard.press('ArrowLeft');
      assert.deepEqual(await state(), expect(1, true));
      await tab.keyboard.press('Home');
      assert.deepEqual(await state(), expect(0, true));
      await tab.keyboard.press('End');
      assert.deepEqual(await state(), expect(2, true));
      await tabs.first().click();
      assert.deepEqual(await state(), expect(0, true));
      assert.equal(await tab.locator('.tab-label').first().isVisible(), false);
    } finally {
      await context.close();
      await site.close();
    }
  });
});

test('a broken <CodeRef> fails the build before any page, naming lesson, doc and line', {
  timeout: 300_000,
}, async () => {
  const root = copy('broken');
  const doc = path.join(root, LESSON, 'docs/readalong.mdx');
  writeFileSync(doc, readFileSync(doc, 'utf8').replace('lines="2-4" mark="3"', 'lines="2-40"'));
  const out = path.join(work, 'out-broken');
  const result = await cliAsync(['site', 'build', '--course', root, '--out', out, '--drafts'], {
    env,
    timeoutMs: 300_000,
  }).done;
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    result.stderr,
    /^error: site build failed: lesson 1\.1 docs\/readalong\.mdx:7: code reference file=src\/counter\.ts lines=2-40: the file has only 13 lines$/m,
  );
  assert.ok(!existsSync(out));
});

test('without site.mdx: true an .mdx doc is refused before Astro starts, and nothing changes', () => {
  const root = copy('no-opt-in');
  const config = path.join(root, '.codelabgen/config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replace(/^site:\n {2}mdx: true\n/m, ''));
  const before = snapshot(root);
  const out = path.join(work, 'out-refused');
  const result = cli(['site', 'build', '--course', root, '--out', out, '--drafts']);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(
    result.stderr.trim(),
    'error: lesson 1.1 docs/readalong.mdx: .mdx docs run code at build time; set site.mdx: true in .codelabgen/config.yaml to allow them (or rename to .md)',
  );
  assert.ok(!existsSync(out));
  assert.deepEqual(snapshot(root), before);
});

test('site dev shows an edit of an .mdx doc, prints a broken <CodeRef> as an error: line, and serves doc images from their staged copies', {
  timeout: 600_000,
}, async () => {
  const root = copy('dev');
  // A hostile SVG among the doc images: the dev server serves it from the course folder, so it must run nothing there.
  mkdirSync(path.join(root, LESSON, 'docs/img'), { recursive: true });
  writeFileSync(
    path.join(root, LESSON, 'docs/img/evil.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>fetch("/steal")</script><rect width="10" height="10"/></svg>\n',
  );
  appendFileSync(path.join(root, LESSON, 'docs/notes.mdx'), '\n\n![A square](img/evil.svg)\n');
  // And a lesson with a plain .md doc showing images (what pipeline/site/doc-images-build.test.ts
  // builds): dev serves them from their staged copies, never from the course path.
  appendFileSync(
    path.join(root, '.codelabgen/curriculum.yaml'),
    '      - { id: "1.2", slug: images, title: "Images", summary: "A doc with images.", objectives: ["See"] }\n',
  );
  mkdirSync(path.join(root, IMAGES_LESSON, 'docs/img'), { recursive: true });
  writeFileSync(path.join(root, IMAGES_LESSON, 'docs/img/dot.png'), Buffer.from(PNG, 'base64'));
  writeFileSync(
    path.join(root, IMAGES_LESSON, 'docs/img/square.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n',
  );
  writeFileSync(
    path.join(root, IMAGES_LESSON, 'docs/readalong.md'),
    '# Images\n\n![A dot](img/dot.png)\n\n![A square](img/square.svg)\n',
  );
  const port = await freePort();
  const dev = cliAsync(['site', 'dev', '--course', root, '--port', String(port)], { env });
  let output = '';
  dev.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}/lessons/1.1-counter/`;
  const shows = async (text: string, what: string) => {
    for (
      const deadline = Date.now() + SHOWS_MS;
      Date.now() < deadline;
      await new Promise((resolve) => setTimeout(resolve, 250))
    ) {
      if ((await (await fetch(url)).text()).includes(text)) return;
    }
    assert.fail(`${what} not shown within ${SHOWS_MS / 1000} s:\n${output}`);
  };
  try {
    await waitForServer(url, 120_000, dev.child, () => output);
    const images = `http://127.0.0.1:${port}/lessons/1.2-images/`;
    const imagesPage = await (await fetch(images)).text();
    assert.ok(!imagesPage.includes(root), 'the page names a path of the course');
    for (const name of ['dot', 'square']) {
      const src = new RegExp(`<img[^>]*src="([^"]*${name}[^"]*)"`).exec(imagesPage)?.[1];
      assert.ok(src, `no ${name} image on the page:\n${imagesPage.slice(0, 2000)}`);
      assert.ok(
        !src.includes(encodeURIComponent(root)) && !src.includes(root),
        `${name} is served from the course: ${src}`,
      );
      const image = await fetch(new URL(src.replaceAll('&amp;', '&'), images));
      assert.equal(image.status, 200, `${src}: ${await image.text()}`);
      if (name === 'square') assert.equal(image.headers.get('content-security-policy'), SVG_POLICY);
    }
    // A processed <script> of a component outside Astro's root (the package's site/) is served,
    // not a 500 "No cached compile metadata found" (pipeline/site/astro-subrequests.ts).
    const progress = await (await fetch(`http://127.0.0.1:${port}/progress/`)).text();
    const script = /<script type="module" src="([^"]*progress\.astro\?astro&(?:amp;)?type=script[^"]*)"/.exec(
      progress,
    )?.[1];
    assert.ok(script, `the progress page has no processed <script>:\n${progress}`);
    const served = await fetch(`http://127.0.0.1:${port}${script.replaceAll('&amp;', '&')}`);
    const body = await served.text();
    assert.equal(served.status, 200, body.slice(0, 2000));
    assert.match(body, /data-progress-live/);
    const lesson = await (await fetch(url)).text();
    const svg = /<img[^>]*src="([^"]*evil[^"]*)"/.exec(lesson)?.[1];
    assert.ok(svg, `the lesson page shows no evil.svg image:\n${lesson.slice(0, 3000)}`);
    const image = await fetch(new URL(svg.replaceAll('&amp;', '&'), url));
    assert.equal(image.status, 200);
    assert.match(await image.text(), /<script>/, 'dev serves the file as it is');
    assert.equal(
      image.headers.get('content-security-policy'),
      SVG_POLICY,
      'an SVG opened on the dev origin runs nothing',
    );
    appendFileSync(path.join(root, LESSON, 'docs/notes.mdx'), '\n\nA paragraph added while site dev runs.\n');
    await shows('A paragraph added while site dev runs.', 'the notes.mdx edit');
    const doc = path.join(root, LESSON, 'docs/readalong.mdx');
    writeFileSync(doc, readFileSync(doc, 'utf8').replace('lines="2-4" mark="3"', 'lines="2-40"'));
    for (
      const deadline = Date.now() + SHOWS_MS;
      !/^error: lesson 1\.1 docs\/readalong\.mdx:7: code reference file=src\/counter\.ts lines=2-40: the file has only 13 lines$/m.test(
        output,
      );
      await new Promise((resolve) => setTimeout(resolve, 250))
    ) {
      if (Date.now() > deadline)
        assert.fail(`no error: line for the broken <CodeRef> within ${SHOWS_MS / 1000} s:\n${output}`);
    }
    // An .mdx doc that no longer compiles fails Astro's render of the page: the open page keeps its
    // last good version under the red banner, which names the file and line, until the doc is
    // fixed, and is never reloaded (site/components/DevLive.astro).
    const context = await (await sharedBrowser()).newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(url);
      const loads: string[] = [];
      tab.on('load', () => loads.push(tab.url()));
      const notes = path.join(root, LESSON, 'docs/notes.mdx');
      const good = readFileSync(notes, 'utf8');
      writeFileSync(notes, `${good}\n\nBroken <Aside type="note">\n\n{ oops\n`);
      const banner = tab
        .getByRole('alert')
        .filter({ hasText: /error: lesson 1\.1 docs\/notes\.mdx:\d+: MDX syntax error/ });
      await banner.waitFor({ timeout: SHOWS_MS });
      await tab.waitForTimeout(1_500);
      assert.ok(await banner.isVisible(), 'the banner stays while the doc is broken');
      assert.match(
        (await tab.getByRole('main').textContent()) ?? '',
        /A paragraph added while site dev runs\./,
        'the last good notes are still shown',
      );
      writeFileSync(notes, `${good}\n\nFixed again.\n`);
      await tab.getByRole('main').getByText('Fixed again.').waitFor({ timeout: SHOWS_MS });
      await banner.waitFor({ state: 'detached', timeout: SHOWS_MS });
      assert.deepEqual(loads, [], 'the page was never reloaded');
    } finally {
      await context.close();
    }
  } finally {
    if (dev.child.exitCode === null) dev.child.kill('SIGTERM');
    await stop(dev.child);
  }
});
