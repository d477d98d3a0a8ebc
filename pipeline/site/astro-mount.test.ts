// A plain Astro project mounts a course under a sub-path with `codelabgen/astro` (what docs/site.md
// shows): the host's own page and its own `lessons` collection stay, the course's pages, links and
// search index live under it, and the host's `astro build` writes nothing into the course. A host
// whose content config lacks the course's collections is told what to add. Without Chromium the build
// says once that the diagrams are left to the reader's browser. A course with no lesson to publish
// stops the build with one line (before any page), or with allowEmpty is one warning and none of
// Astro's "collection is empty" ones. A Starlight host is built once, with the packed package, in
// cli/package.test.ts.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { promisify } from 'node:util';
import { generateCourse } from '../../bench/generate-course.ts';
import { REPO_ROOT, scratchDir } from '../../cli/testing.ts';

const work = scratchDir('codelabgen-mount-');
const host = path.join(work, 'host');
const out = path.join(host, 'dist');
const HOST_FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'host-site', type: 'module', private: true }),
  'astro.config.mjs': `import { defineConfig } from 'astro/config';
import codelabgen from 'codelabgen/astro';
export default defineConfig({ base: '/docs', integrations: [codelabgen({ course: '../course', prefix: '/course', diagramCache: '../diagrams' })] });
`,
  // The host's own collection named lessons, beside the course's.
  'src/content.config.ts': `import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { codelabgenCollections } from 'codelabgen/content';
const lessons = defineCollection({ loader: () => [{ id: 'host-lesson', title: 'The host lesson' }], schema: z.object({ title: z.string() }) });
export const collections = { lessons, ...codelabgenCollections() };
`,
  'src/pages/index.astro': `---
import { getCollection } from 'astro:content';
const own = await getCollection('lessons');
---
<html lang="en"><head><title>Host</title></head>
<body><h1>The host site</h1><p>{own.map((l) => l.data.title).join(', ')}</p><a href="/docs/course/">Course</a></body></html>
`,
};
let stderr = '';
/** What the host's build printed: Astro's log and its integrations' (stdout and stderr). */
let output = '';
let eventsBefore = '';
const events = path.join(work, 'course', '.codelabgen', 'events.jsonl');
const astroEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CODELABGEN_CHROMIUM: 'none', NO_COLOR: '1' };

before(
  async () => {
    await generateCourse(path.join(work, 'course'), { lessons: 2, stageOf: () => 'done' });
    eventsBefore = readFileSync(events, 'utf8');
    for (const [file, text] of Object.entries(HOST_FILES)) {
      mkdirSync(path.dirname(path.join(host, file)), { recursive: true });
      writeFileSync(path.join(host, file), text);
    }
    // What `npm install codelabgen` gives the host: the package and its astro.
    mkdirSync(path.join(host, 'node_modules'));
    symlinkSync(REPO_ROOT, path.join(host, 'node_modules', 'codelabgen'));
    symlinkSync(path.join(REPO_ROOT, 'node_modules', 'astro'), path.join(host, 'node_modules', 'astro'));
    const astroBin = path.join(host, 'node_modules', 'astro', 'bin', 'astro.mjs');
    const run = await promisify(execFile)(process.execPath, [astroBin, 'build'], {
      cwd: host,
      env: astroEnv,
      timeout: 300_000,
    });
    stderr = run.stderr;
    output = `${run.stdout}${run.stderr}`;
  },
  { timeout: 400_000 },
);

test('the host keeps its own home page and its own lessons collection', () => {
  const home = readFileSync(path.join(out, 'index.html'), 'utf8');
  assert.match(home, /The host site/, stderr);
  assert.match(home, /<p>The host lesson<\/p>/, "the course replaced the host's own lessons collection");
});

test("a host's build without Chromium says once that the course's diagrams are left to the reader's browser, and ships mermaid for them", () => {
  // One line through Astro's logger: why, and what draws them at build time (each reason: diagrams.test.ts).
  const lines = output.match(/^.*left to the reader's browser.*$/gm) ?? [];
  assert.equal(lines.length, 1, output);
  assert.match(
    lines[0]!,
    new RegExp(
      String.raw`\[WARN\] \[codelabgen\] 2 mermaid diagrams left to the reader's browser, not drawn at build time: ` +
        'CODELABGEN_CHROMIUM=none turns build-time drawing off; unset it to draw them at build time$',
    ),
  );
  assert.ok(
    existsSync(path.join(out, 'course', '_codelabgen', 'mermaid', 'mermaid.esm.min.mjs')),
    'no mermaid fallback',
  );
});

test("the host's astro build writes nothing into the course (only codelabgen site build records a build)", () => {
  assert.equal(readFileSync(events, 'utf8'), eventsBefore);
});

test('a host without the course collections in its content config is told what to add', () => {
  const bare = path.join(work, 'bare-host');
  cpSync(host, bare, { recursive: true, verbatimSymlinks: true, filter: (from) => !/[\\/](dist|\.astro)$/.test(from) });
  rmSync(path.join(bare, 'src', 'content.config.ts'));
  writeFileSync(
    path.join(bare, 'src', 'pages', 'index.astro'),
    '<html lang="en"><head><title>Host</title></head><body>Host</body></html>\n',
  );
  const run = spawnSync(process.execPath, [path.join(bare, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    cwd: bare,
    env: { ...astroEnv, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.notEqual(run.status, 0);
  const output = `${run.stdout}${run.stderr}`;
  assert.match(
    output,
    new RegExp(
      String.raw`codelabgen: the course's content collections are missing; add them to src\/content\.config\.ts: import ` +
        String.raw`\{ codelabgenCollections \} from 'codelabgen\/content'; export const collections = \{ ` +
        String.raw`\.\.\.codelabgenCollections\(\), \.\.\.yourOwn \};`,
    ),
    output,
  );
  assert.doesNotMatch(output, /Cannot read properties of undefined/);
});

/** A copy of the host (its node_modules links kept) mounting `course` with `options`, built by astro build. */
function buildHostOf(name: string, course: string, options = '') {
  const copy = path.join(work, name);
  cpSync(host, copy, { recursive: true, verbatimSymlinks: true, filter: (from) => !/[\\/](dist|\.astro)$/.test(from) });
  writeFileSync(
    path.join(copy, 'astro.config.mjs'),
    HOST_FILES['astro.config.mjs']!.replace(
      "course: '../course'",
      `course: ${JSON.stringify(course)}${options && `, ${options}`}`,
    ),
  );
  const run = spawnSync(process.execPath, [path.join(copy, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    cwd: copy,
    env: astroEnv,
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}`, dist: path.join(copy, 'dist') };
}

test('a host build of a course with no lesson to publish fails with one line saying why and what to set, unless it allows an empty course', {
  timeout: 600_000,
}, async () => {
  const course = path.join(work, 'pending-course');
  await generateCourse(course, { lessons: 1, stageOf: () => 'pending', diagram: () => null });
  const why =
    'the mounted course has 0 lessons to publish: site.publish is done and no lesson is at stage done (1.1 (pending)); ' +
    'to publish lessons whose tests pass set site.publish: verified (or all) in .codelabgen/config.yaml, or mount it ' +
    'with codelabgen({ drafts: true })';
  const refused = buildHostOf('empty-host', course);
  assert.notEqual(refused.status, 0, refused.output);
  assert.ok(
    refused.output.includes(
      `codelabgen: ${why}; codelabgen({ allowEmpty: true }) builds the empty course with a warning`,
    ),
    refused.output,
  );
  assert.ok(!existsSync(path.join(refused.dist, 'index.html')), 'the refused build wrote the host site');
  // Allowed: the host's pages and the course's home, one warning, and none of Astro's "does not exist or is empty".
  const allowed = buildHostOf('empty-allowed-host', course, 'allowEmpty: true');
  assert.equal(allowed.status, 0, allowed.output);
  assert.deepEqual(
    allowed.output.match(/^.*0 lessons to publish.*$/gm)?.map((line) => line.replace(/^.*?\[WARN\] /, '')),
    [`[codelabgen] ${why}`],
    allowed.output,
  );
  assert.doesNotMatch(allowed.output, /does not exist or is empty/);
  assert.match(readFileSync(path.join(allowed.dist, 'index.html'), 'utf8'), /The host site/);
  assert.match(readFileSync(path.join(allowed.dist, 'course', 'index.html'), 'utf8'), /coming soon/i);
});

test("a strict host tsc checks astro.config.mjs and the content config against codelabgen's types with 0 errors", () => {
  writeFileSync(
    path.join(host, 'tsconfig.json'),
    JSON.stringify({
      extends: 'astro/tsconfigs/strict',
      include: ['.astro/types.d.ts', 'astro.config.mjs', 'src/**/*'],
      exclude: ['dist'],
      compilerOptions: { checkJs: true },
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', host, '--noEmit'],
    { encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(tsc.status, 0, `${tsc.stdout}${tsc.stderr}`);
});

test('the course pages live under base + prefix, with links and search index there', () => {
  const home = readFileSync(path.join(out, 'course', 'index.html'), 'utf8');
  assert.match(home, /Generated course/);
  assert.match(home, /href="\/docs\/course\/lessons\/1\.1-lesson-1\/"/);
  // Glossary and Sources are linked only when they have entries; this generated course has none.
  assert.doesNotMatch(home, /href="\/docs\/course\/glossary\/"/);
  assert.match(home, /<a href="\/docs\/course\/" aria-current="page">Lessons<\/a>/);
  // A way back to the host site: its base.
  assert.match(home, /<a class="host-home" href="\/docs\/">Home<\/a>/);
  assert.match(home, /src="\/docs\/course\/_codelabgen\/page\.js\?v=/);
  const lesson = readFileSync(path.join(out, 'course', 'lessons', '1.2-lesson-2', 'index.html'), 'utf8');
  assert.match(lesson, /rel="prev" href="\/docs\/course\/lessons\/1\.1-lesson-1\/"/);
  assert.match(lesson, /href="\/docs\/course\/lessons\/1\.2-lesson-2\/1\.2-lesson-2\.zip"/);
  assert.ok(
    existsSync(path.join(out, 'course', 'lessons', '1.2-lesson-2', '1.2-lesson-2.zip')),
    'the lesson download under the prefix',
  );
  assert.ok(existsSync(path.join(out, 'course', 'pagefind', 'pagefind.js')), 'search index missing under the prefix');
  assert.ok(!existsSync(path.join(out, 'lessons')), 'course pages leaked to the site root');
  assert.ok(!existsSync(path.join(out, '404.html')), "a mounted course claimed the host's 404 page");
});
