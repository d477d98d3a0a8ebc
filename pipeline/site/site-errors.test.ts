// Every failure of `site build|preview` ends with one `error:` line and exit 1 or 2, never an Astro
// stack trace (the reproduction: a javascript: URL in sources.jsonl, `site build --drafts`).
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, cliAsync, REPO_ROOT, scratchDir } from '../../cli/testing.ts';
import { generateCourse } from '../../bench/generate-course.ts';
import { DataFileError } from '../../content-schemas/fast.ts';
import { RefusalError } from '../course/errors.ts';
import { contentCacheDir } from './build.ts';
import { failure } from './failure.ts';

const work = scratchDir('codelabgen-site-errors-');
const EVIL_SOURCE =
  '{"id":"evil","title":"E","url":"javascript:alert(1)","kind":"article","status":"accepted","reason":"x",' +
  '"summary":"y","retrieved_at":"2026-11-29T09:00:00Z"}\n';

/** The .html files under `dir`, not through its symlinks (a site cache links node_modules). */
function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return htmlFiles(file);
    return entry.isFile() && entry.name.endsWith('.html') ? [file] : [];
  });
}

/** The stderr lines that are not progress: exactly the one `error:` line (and its hints). */
function problemLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('site build: '));
}

test('a javascript: URL in sources.jsonl ends a drafts build with its error line, exit 2, no trace', {
  timeout: 300_000,
}, async () => {
  const course = path.join(work, 'evil-course');
  cpSync(path.join(REPO_ROOT, 'examples', 'node-streams'), course, { recursive: true });
  appendFileSync(path.join(course, '.codelabgen', 'sources.jsonl'), EVIL_SOURCE);
  const out = path.join(work, 'evil-out');
  const result = await cliAsync(['site', 'build', '--drafts', '--course', course, '--out', out], {
    env: { CODELABGEN_DIAGRAM_CACHE: path.join(work, 'diagrams') },
    timeoutMs: 300_000,
  }).done;
  assert.equal(result.code, 2, result.stderr);
  assert.deepEqual(problemLines(result.stderr), [
    'error: .codelabgen/sources.jsonl: line 5: url: Invalid URL, got "javascript:alert(1)"',
  ]);
  assert.equal(result.stdout, '');
});

test('a Chromium that cannot start ends the build with one error line naming it and what to set, before any page, and no site', {
  timeout: 300_000,
}, async () => {
  const course = path.join(work, 'no-chromium-course');
  await generateCourse(course, { lessons: 1 });
  const out = path.join(work, 'no-chromium-out');
  const env = { CODELABGEN_CHROMIUM: '/bin/false', CODELABGEN_DIAGRAM_CACHE: path.join(work, 'no-chromium-diagrams') };
  const result = await cliAsync(['site', 'build', '--course', course, '--out', out], { env, timeoutMs: 300_000 }).done;
  assert.equal(result.code, 1, result.stderr);
  const lines = problemLines(result.stderr);
  assert.equal(lines.length, 1, result.stderr);
  assert.match(
    lines[0]!,
    new RegExp(
      String.raw`^error: site build failed: could not start Chromium at \/bin\/false to draw the diagrams \(.+\); point ` +
        String.raw`\$CODELABGEN_CHROMIUM at a working Chromium, or set it to none to leave the diagrams to the reader's ` +
        'browser$',
    ),
  );
  assert.equal(existsSync(out), false, 'a site was written');
  // It stops before Vite bundles and renders the pages (pipeline/site/integration.ts, astro:build:start),
  // which Astro writes into the build's folder in the site cache before `out` gets them.
  const astroRoot = contentCacheDir(course, { ...process.env, ...env }, { drafts: false, base: '/' });
  assert.ok(
    existsSync(path.join(astroRoot, 'data-store.json')),
    `the build read the course elsewhere than ${astroRoot}`,
  );
  assert.deepEqual(htmlFiles(astroRoot), [], 'the build made pages before it failed');
});

test('an --out that is a file is refused before Astro runs', () => {
  const course = path.join(work, 'file-out-course');
  cpSync(path.join(REPO_ROOT, 'examples', 'node-streams'), course, { recursive: true });
  const file = path.join(work, 'a-file');
  writeFileSync(file, 'not a folder\n');
  const result = cli(['site', 'build', '--drafts', '--course', course, '--out', file]);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    `error: --out ${file} is not a folder\nhint: pass a new or empty folder outside the course, e.g. --out ../site-out\n`,
  );
});

test('preview of a folder with no built site is refused, naming the build command', () => {
  const course = path.join(work, 'preview-course');
  cpSync(path.join(REPO_ROOT, 'examples', 'node-streams'), course, { recursive: true });
  const out = path.join(work, 'never-built');
  const result = cli(['site', 'preview', '--course', course, '--out', out]);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    `error: --out ${out} is not a codelabgen site build\nhint: build it first: codelabgen site build --out ${out}\n`,
  );
  assert.ok(!existsSync(out));
});

test('an Astro failure becomes one line without colours or trace; our errors cross as exit code and printed lines', () => {
  const rolldown = new Error(
    'Build failed with 1 error:\n\u001b[31m[UNHANDLEABLE_ERROR]\u001b[39m Could not create directory: ' +
      '/x\nCaused by: File exists\nStack backtrace:\n 0: <unknown>',
  );
  assert.deepEqual(failure(rolldown, 'build'), {
    exitCode: 1,
    error:
      'site build failed: Build failed with 1 error: [UNHANDLEABLE_ERROR] Could not create directory: /x Caused by: File exists',
    hints: [],
  });
  const traced = new Error('boom\n    at Object.<anonymous> (/x.js:1:1)');
  assert.equal(failure(traced, 'dev').error, 'site dev failed: boom');
  const ours = new RefusalError('--course x: not a course', ['create one']);
  assert.deepEqual(failure(new Error('[content] sync failed', { cause: ours }), 'build'), {
    exitCode: 2,
    error: '--course x: not a course',
    hints: ['create one'],
  });
  // A data file's problems: the first as the error line with a count, the others as hints (DataFileError.report()).
  const data = new DataFileError('config.yaml', ['site.title: expected string', 'site.base: expected string']);
  assert.deepEqual(failure(data, 'build'), {
    exitCode: 2,
    error: 'config.yaml: site.title: expected string (and 1 more problem)',
    hints: ['config.yaml: site.base: expected string'],
  });
  // A class name alone decides nothing: an error named like ours without an exit code is Astro's.
  const named = Object.assign(new Error('looks like ours'), { name: 'RefusalError' });
  assert.equal(failure(named, 'build').exitCode, 1);
});

test('a broken relative link and a missing image end the build naming lesson, doc and line, before any page is made', {
  timeout: 300_000,
}, async () => {
  const course = path.join(work, 'broken-links-course');
  cpSync(path.join(REPO_ROOT, 'examples', 'node-streams'), course, { recursive: true });
  const doc = path.join(course, '1-stream-fundamentals', '1.2-writable-streams', 'docs', 'readalong.md');
  const text = readFileSync(doc, 'utf8')
    .replace('](../../1.1-readable-streams/docs/readalong.md)', '](../../1.1-readable-streams/docs/gone.json)')
    .replace('](img/buffer-fill.png)', '](img/missing.png)');
  writeFileSync(doc, text);
  const line = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
  const out = path.join(work, 'broken-links-out');
  const result = await cliAsync(['site', 'build', '--drafts', '--course', course, '--out', out], {
    env: { CODELABGEN_DIAGRAM_CACHE: path.join(work, 'diagrams') },
    timeoutMs: 300_000,
  }).done;
  assert.equal(result.code, 1, result.stderr);
  const link =
    `lesson 1.2 docs/readalong.md:${line('gone.json')}: link ../../1.1-readable-streams/docs/gone.json: ` +
    'docs/gone.json of lesson 1.1 has no page of its own (link a lesson folder or its docs/readalong.md or ' +
    'docs/notes.md; show code with a code reference)';
  const image =
    `lesson 1.2 docs/readalong.md:${line('missing.png')}: image img/missing.png: no such file in the lesson ` +
    'folder (looked for docs/img/missing.png)';
  assert.deepEqual(problemLines(result.stderr), [`error: site build failed: ${link} (and 1 more: ${image})`]);
  assert.ok(!existsSync(out), 'nothing was written');
});

test('broken front matter in a lesson doc is named with its file and line by check and by site build', {
  timeout: 300_000,
}, async () => {
  const course = path.join(work, 'front-matter-course');
  const { dirs } = await generateCourse(course, { lessons: 1, diagram: () => null });
  const notes = path.join(course, dirs[0]!, 'docs', 'notes.md');
  writeFileSync(notes, `---\ntitle: Notes\ntittle: typo\n---\n${readFileSync(notes, 'utf8')}`);
  const expected =
    'lesson 1.1 docs/notes.md:3: front matter: unknown field "tittle"; the fields are title and description';
  const check = cli(['check'], { cwd: course });
  assert.equal(check.code, 1, check.stdout + check.stderr);
  assert.ok(check.stdout.includes(expected), check.stdout);
  const build = cli(['site', 'build', '--course', course, '--out', path.join(work, 'front-matter-out')], {
    env: { CODELABGEN_CHROMIUM: 'none' },
  });
  assert.notEqual(build.code, 0);
  assert.ok(
    problemLines(build.stderr).some((line) => line.includes(expected)),
    build.stderr,
  );
});
