// A plain Astro project mounts a course under a sub-path with `codelabgen/astro` (what docs/site.md
// shows): the host's own page stays, the course's pages, links and search index live under it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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
export default defineConfig({ base: '/docs', integrations: [codelabgen({ course: '../course', prefix: '/course', drafts: true, diagramCache: '../diagrams' })] });
`,
  'src/content.config.ts': `import { codelabgenCollections } from 'codelabgen/content';
export const collections = { ...codelabgenCollections() };
`,
  'src/pages/index.astro': '<html lang="en"><head><title>Host</title></head><body><h1>The host site</h1><a href="/docs/course/">Course</a></body></html>\n',
};
let stderr = '';

before(async () => {
  await generateCourse(path.join(work, 'course'), { lessons: 2, stageOf: (i) => (i === 0 ? 'done' : 'code') });
  for (const [file, text] of Object.entries(HOST_FILES)) {
    mkdirSync(path.dirname(path.join(host, file)), { recursive: true });
    writeFileSync(path.join(host, file), text);
  }
  // What `npm install codelabgen` gives the host: the package and its astro.
  mkdirSync(path.join(host, 'node_modules'));
  symlinkSync(REPO_ROOT, path.join(host, 'node_modules', 'codelabgen'));
  symlinkSync(path.join(REPO_ROOT, 'node_modules', 'astro'), path.join(host, 'node_modules', 'astro'));
  const astroBin = path.join(host, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const run = await promisify(execFile)(process.execPath, [astroBin, 'build'], { cwd: host, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CODELABGEN_CHROMIUM: 'none' }, timeout: 300_000 });
  stderr = run.stderr;
}, { timeout: 400_000 });

test('the host keeps its own home page', () => {
  assert.match(readFileSync(path.join(out, 'index.html'), 'utf8'), /The host site/, stderr);
});

test('the course pages live under base + prefix, with links and search index there', () => {
  const home = readFileSync(path.join(out, 'course', 'index.html'), 'utf8');
  assert.match(home, /Generated course/);
  assert.match(home, /href="\/docs\/course\/lessons\/1\.1-lesson-1\/"/);
  assert.match(home, /href="\/docs\/course\/report\/"/);
  assert.match(home, /src="\/docs\/course\/_codelabgen\/page\.js\?v=/);
  const lesson = readFileSync(path.join(out, 'course', 'lessons', '1.2-lesson-2', 'index.html'), 'utf8');
  assert.match(lesson, /rel="prev" href="\/docs\/course\/lessons\/1\.1-lesson-1\/"/);
  assert.match(lesson, /href="\/docs\/course\/lessons\/1\.2-lesson-2\/1\.2-lesson-2\.zip"/);
  assert.ok(existsSync(path.join(out, 'course', 'lessons', '1.2-lesson-2', '1.2-lesson-2.zip')), 'the lesson download under the prefix');
  assert.ok(existsSync(path.join(out, 'course', 'pagefind', 'pagefind.js')), 'search index missing under the prefix');
  assert.ok(!existsSync(path.join(out, 'lessons')), 'course pages leaked to the site root');
  assert.ok(!existsSync(path.join(out, '404.html')), 'a mounted course claimed the host\'s 404 page');
});
