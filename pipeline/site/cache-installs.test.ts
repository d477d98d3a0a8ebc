// Every install of the package (a global one, npx's cache, each project's) has a folder in the user's
// site cache (pipeline/site/cache-root.ts); they piled up (73 on one machine), as nothing removed the
// folder of an install no longer run. A build now removes, at most once a day, the folders of other
// installs unused for a week, never one in use (its marker is touched while a process uses it).
// Its first build, refused by --strict-diagrams without Chromium, is also the piped build of
// cli/progress.test.ts: plain progress lines up to the error, no output folder, no site.build.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { generateCourse } from '../../bench/generate-course.ts';
import { cli, readEvents, REPO_ROOT, scratchDir } from '../../cli/testing.ts';
import { siteCacheRoot, sweepInstalls, touchInUse } from './cache-root.ts';

const DAY = 86_400_000;

/** Sets the mtime of `file` to `days` ago. */
function age(file: string, days: number): void {
  const when = new Date(Date.now() - days * DAY);
  utimesSync(file, when, when);
}

/** An install folder under `base` as a build leaves it: marker (unless legacy), links, a content cache. */
function installFolder(base: string, name: string, days: { marker?: number; content: number }, linked: string): string {
  const dir = path.join(base, name);
  const content = path.join(dir, 'l1', 'l0', 'content-0123456789abcdef');
  mkdirSync(path.join(content, 'out'), { recursive: true });
  writeFileSync(path.join(content, 'out', 'index.html'), '<p>old build</p>');
  symlinkSync(linked, path.join(dir, 'l1', 'l0', 'node_modules'));
  age(content, days.content);
  age(path.join(dir, 'l1', 'l0'), days.content);
  age(dir, days.content);
  if (days.marker !== undefined) {
    writeFileSync(path.join(dir, 'used'), '');
    age(path.join(dir, 'used'), days.marker);
  }
  return dir;
}

test("a site build removes the cache folders of other installs unused for a week, keeps the fresh ones and its own; the links' targets stay", {
  timeout: 300_000,
}, async () => {
  const dir = scratchDir('codelabgen-cache-installs-');
  const course = path.join(dir, 'course');
  await generateCourse(course, { lessons: 1, perModule: 1 });
  const xdg = path.join(dir, 'xdg');
  const base = path.join(xdg, 'codelabgen', 'site');
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const linked = path.join(dir, 'node_modules');
  mkdirSync(path.join(linked, 'astro'), { recursive: true });
  installFolder(base, 'install-0000000000aa', { marker: 10, content: 10 }, linked);
  installFolder(base, 'install-0000000000bb', { content: 10 }, linked); // from before the marker
  installFolder(base, 'install-0000000000cc', { marker: 1, content: 10 }, linked); // used yesterday
  installFolder(base, 'install-0000000000dd', { content: 2 }, linked); // no marker, a cache used 2 days ago
  installFolder(base, '.removing-install-0000000000ee-1', { marker: 9, content: 9 }, linked); // a killed sweep's
  mkdirSync(path.join(base, 'unrelated'));
  age(path.join(base, 'unrelated'), 30);

  // --strict-diagrams without Chromium: the worker starts (and the caches are set up), no page is built.
  // The first build is also cli/progress.test.ts's piped build: its plain progress lines up to the failure.
  const events = readEvents(course).length;
  const env = {
    XDG_CACHE_HOME: xdg,
    CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'diagrams'),
    CODELABGEN_CHROMIUM: 'none',
  };
  const build = () =>
    cli(['site', 'build', '--course', course, '--out', path.join(dir, 'out'), '--strict-diagrams'], { env });
  const first = build();
  assert.equal(first.code, 1, first.stderr);
  const strictError =
    "error: site build: 1 diagram left to the reader's browser (no Chromium found, or it could not draw it); " +
    'install Chromium or set $CODELABGEN_CHROMIUM, or drop --strict-diagrams to accept that';
  // Plain progress lines on a pipe; the strict check stops the build before any page is written.
  assert.equal(
    first.stderr,
    `site build: loading: reading the course\nsite build: diagrams: 1 diagrams\n${strictError}\n`,
  );
  assert.ok(!existsSync(path.join(dir, 'out')), 'a failed strict build wrote its output folder');
  assert.equal(readEvents(course).length, events, 'a failed strict build was recorded as a site.build');
  const own = siteCacheRoot({ XDG_CACHE_HOME: path.join(dir, 'probe') }, REPO_ROOT)
    .split(path.sep)
    .at(-3)!;
  assert.deepEqual(readdirSync(base).sort(), [
    '.swept',
    'install-0000000000cc',
    'install-0000000000dd',
    own,
    'unrelated',
  ]);
  assert.ok(
    Date.now() - statSync(path.join(base, own, 'used')).mtimeMs < DAY,
    'the build did not mark its own folder used',
  );
  assert.ok(existsSync(path.join(linked, 'astro')), 'removing a folder followed its node_modules link');

  // Swept today: another folder turning old is left to tomorrow's sweep (one stat per build until then).
  installFolder(base, 'install-0000000000ff', { marker: 8, content: 8 }, linked);
  assert.equal(build().code, 1);
  assert.ok(existsSync(path.join(base, 'install-0000000000ff')), 'swept twice in a day');
  age(path.join(base, '.swept'), 1.1);
  assert.equal(build().code, 1);
  assert.ok(!existsSync(path.join(base, 'install-0000000000ff')), 'not swept again the next day');
});

test('a folder in use is never swept: a long-running process (a `site dev` open for days) keeps touching its marker', () => {
  const xdg = scratchDir('codelabgen-cache-in-use-');
  const folder = path.resolve(siteCacheRoot({ XDG_CACHE_HOME: xdg }, REPO_ROOT), '..', '..');
  const base = path.dirname(folder);
  age(path.join(folder, 'used'), 8);
  touchInUse(); // what its hourly timer does
  age(path.join(base, '.swept'), 2);
  sweepInstalls(base, path.join(base, 'install-another'), Date.now());
  assert.ok(existsSync(folder), 'a folder in use was swept');
  age(path.join(folder, 'used'), 8); // the same folder, its process gone for 8 days
  age(path.join(base, '.swept'), 2);
  sweepInstalls(base, path.join(base, 'install-another'), Date.now());
  assert.ok(!existsSync(folder), 'an unused folder was kept');
});
