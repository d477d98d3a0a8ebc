// The site: section of config.yaml and the heading anchors: WCAG contrast of accents (a failing
// one refuses the build naming file and field), the derived dark accent, ids and the TOC, and
// last-updated dates from git (one site build, shared with the report's, run on a terminal for the
// progress display of cli/progress.test.ts).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { generateCourse } from '../bench/generate-course.ts';
import { cli, cliAsync, commitToGit, hasScript, onTerminal, scratchDir, snapshot } from '../cli/testing.ts';
import { ConfigSchema, contrastRatio, darkAccent, worstContrast } from '../content-schemas/index.ts';
import { anchorHeadings, slugify } from './lib/headings.ts';

test('contrast ratios follow WCAG 2', () => {
  assert.equal(contrastRatio('#000000', '#ffffff'), 21);
  assert.equal(contrastRatio('#777777', '#777777'), 1);
  assert.equal(contrastRatio('#767676', '#ffffff').toFixed(2), '4.54');
});

test('the dark accent is the light one lightened just enough for AA on the dark backgrounds', () => {
  for (const light of ['#0b7a75', '#0969da', '#8250df', '#000000']) {
    const dark = darkAccent(light);
    assert.ok(worstContrast(dark, 'dark').ratio >= 4.5, `${light} → ${dark}`);
  }
  assert.equal(darkAccent('#ffffff'), '#ffffff');
});

test('config.yaml site: accents below AA are refused with the ratio; defaults learner view, lang en', () => {
  const parse = (site: unknown) => ConfigSchema.safeParse({ site });
  assert.deepEqual(ConfigSchema.parse({}).site, { publish: 'done', report: false, lang: 'en' });
  const low = parse({ accent: '#ffcc00' });
  assert.equal(low.success, false);
  assert.deepEqual(low.error?.issues[0]?.path, ['site', 'accent']);
  assert.match(
    low.error?.issues[0]?.message ?? '',
    /^#ffcc00 has contrast 1\.\d\d:1 with the light background #f6f8fa; links need at least 4\.5:1 \(WCAG AA\): pick a darker colour$/,
  );
  assert.equal(parse({ accent_dark: '#0b7a75' }).success, false);
  assert.equal(parse({ accent: '#0b7a75', accent_dark: '#3c9591' }).success, true);
  assert.equal(parse({ edit_url: 'https://example.org/edit/main/' }).success, false, 'edit_url needs {path}');
  assert.equal(parse({ lang: 'not a tag' }).success, false);
});

test('site build refuses a low-contrast accent and a missing logo, naming the file and field, changing nothing', async () => {
  const root = path.join(scratchDir('codelabgen-site-config-'), 'course');
  await generateCourse(root, { lessons: 1, diagram: () => null });
  const config = path.join(root, '.codelabgen', 'config.yaml');
  const original = readFileSync(config, 'utf8');
  writeFileSync(config, `${original}\nsite:\n  accent: "#ffcc00"\n`);
  let before = snapshot(root);
  let result = cli(['site', 'build', '--course', root, '--out', path.join(root, '..', 'out')]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      String.raw`^error: \.codelabgen\/config\.yaml: site\.accent: #ffcc00 has contrast 1\.\d\d:1 with the light ` +
        String.raw`background #f6f8fa; links need at least 4\.5:1 \(WCAG AA\): pick a darker colour`,
      'm',
    ),
  );
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  assert.deepEqual(snapshot(root), before);

  writeFileSync(config, `${original}\nsite:\n  logo: assets/nope.svg\n`);
  before = snapshot(root);
  result = cli(['site', 'build', '--course', root, '--out', path.join(root, '..', 'out')]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^error: \.codelabgen\/config\.yaml: site\.logo: no such file assets\/nope\.svg in the course folder$/m,
  );
  assert.deepEqual(snapshot(root), before);
});

test('doc headings get unique ids (never a page section id), an anchor link and a TOC entry', () => {
  assert.equal(slugify('The source: <code>read()</code> & push()'), 'the-source-code-read-code-push');
  const used = new Set(['notes']);
  const { html, toc } = anchorHeadings(
    '<h3>Notes</h3><p>x</p><h3>Notes</h3><h2 id="own">Own &amp; <code>id</code></h2><h4>deeper</h4>',
    used,
  );
  assert.deepEqual(toc, [
    { depth: 3, id: 'notes-2', text: 'Notes', html: 'Notes' },
    { depth: 3, id: 'notes-3', text: 'Notes', html: 'Notes' },
    { depth: 2, id: 'own', text: 'Own & id', html: 'Own &amp; <code>id</code>' },
  ]);
  assert.match(
    html,
    /^<div class="heading-wrap h3"><h3 id="notes-2">Notes<\/h3><a class="heading-anchor" href="#notes-2">/,
  );
  assert.match(
    html,
    new RegExp(
      String.raw`<h2 id="own">Own &amp; <code>id<\/code><\/h2><a class="heading-anchor" href="#own"><span ` +
        String.raw`aria-hidden="true">#<\/span><span class="visually-hidden" data-pagefind-ignore>Section titled “Own &#38; ` +
        String.raw`id”<\/span><\/a><\/div><h4>deeper<\/h4>$`,
    ),
  );
});

// One build for both: a course in git whose config publishes the report. Outside git a page shows no
// date (site/lib/page-data.test.ts; the pages of pipeline/site/site-build.test.ts). The build runs
// on a terminal, for the progress display cli/progress.test.ts checks up to a failure.
test(
  "site.report: true publishes the report page and the production details; a course in git shows each lesson's " +
    "last commit date; a build's progress on a TTY",
  async () => {
    const work = scratchDir('codelabgen-site-report-');
    const root = path.join(work, 'course');
    // One diagram, no Chromium: left to the reader's browser, and the build says so once.
    await generateCourse(root, { lessons: 2, diagram: (i) => (i === 0 ? 'flowchart LR\n  A --> B\n' : null) });
    const config = path.join(root, '.codelabgen', 'config.yaml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}\nsite:\n  report: true\n`);
    commitToGit(root, '2026-01-02T10:00:00Z');
    const out = path.join(work, 'out');
    const args = ['site', 'build', '--course', root, '--out', out];
    const buildEnv = { CODELABGEN_CHROMIUM: 'none', CODELABGEN_DIAGRAM_CACHE: path.join(work, 'cache') };
    let output: string;
    if (hasScript) {
      // On a terminal (the build's one run, shared with cli/progress.test.ts): one progress line
      // rewritten in place, step by step, and cleared before the result.
      const tty = onTerminal(args, buildEnv);
      assert.equal(tty.code, 0, tty.screen);
      const steps = [...tty.screen.matchAll(/\r\x1b\[2K(site build: [a-z]+)/g)].map((match) => match[1]);
      assert.deepEqual(steps, [
        'site build: loading',
        'site build: diagrams',
        'site build: pages',
        'site build: search',
        'site build: done',
      ]);
      assert.doesNotMatch(tty.screen, /site build: [^\r\n]*\n/, 'a progress step ended with a newline on a TTY');
      assert.match(
        tty.screen,
        /\r\x1b\[2K(?:warning: [^\r\n]*\r?\n)*diagrams: 0 rendered, 0 cached, 0 failed, 1 client-side\n/,
        'the result starts on a cleared line',
      );
      output = tty.screen;
    } else {
      const result = await cliAsync(args, { env: buildEnv, timeoutMs: 300_000 }).done;
      assert.equal(result.code, 0, result.stderr);
      output = result.stderr;
    }
    // The diagram left to the browser is said once, with why and what draws it at build time.
    assert.deepEqual(
      output.match(/(?<=^|\x1b\[2K)[^\r\n\x1b]*left to the reader's browser[^\r\n]*/gm),
      [
        "warning: 1 mermaid diagram left to the reader's browser, not drawn at build time: CODELABGEN_CHROMIUM=none " +
          'turns build-time drawing off; unset it to draw it at build time',
      ],
      output,
    );
    assert.ok(existsSync(path.join(out, '_codelabgen', 'mermaid', 'mermaid.esm.min.mjs')), 'the fallback is missing');
    assert.match(readFileSync(path.join(out, 'report', 'index.html'), 'utf8'), /Generation report/);
    const home = readFileSync(path.join(out, 'index.html'), 'utf8');
    assert.match(home, /href="\/report\/"/);
    assert.match(home, /class="badge stage-done"/);
    assert.doesNotMatch(home, /name="robots"/, 'a publish build with the report is still indexed');
    const dir = path.join(out, 'lessons');
    const pages = readdirSync(dir)
      .sort()
      .map((page) => readFileSync(path.join(dir, page, 'index.html'), 'utf8'));
    assert.equal(pages.length, 2);
    for (const page of pages) assert.match(page, /Last updated <time datetime="2026-01-02">2026-01-02<\/time>/);
  },
);
