// Files a worker wrote are read by the site only as regular files inside the course, under a size
// limit (docs/security.md): a logo symlinked to a key outside the course was inlined into every
// page, and a FIFO as logo hung `site build` at "loading: reading the course" until killed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { readRegularFile } from '../../content-schemas/index.ts';
import { cliAsync, scratchCourse, scratchDir, snapshot, type CliResult } from '../../cli/testing.ts';
import { readCourse, readDiagramFiles, readGlossary, readLessonDocs, readSources } from '../read/index.ts';

const CURRICULUM =
  'title: T\nmodules:\n  - id: "1"\n    slug: basics\n    title: Basics\n    lessons:\n      - { id: "1.1", slug: intro, title: Intro }\n';
const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

/**
 * The CLI, killed (SIGKILL: a process blocked in a read cannot run a SIGTERM handler) if it hangs.
 * Its site cache is a fresh folder: a refused build must start no Astro worker, which runs in a
 * folder it makes there (pipeline/site/worker-fork.ts), so the folder stays unmade.
 */
async function bounded(args: string[], ms: number): Promise<CliResult & { siteCache: boolean }> {
  const cache = scratchDir('codelabgen-untrusted-cache-');
  const run = cliAsync(args, { env: { XDG_CACHE_HOME: cache } });
  const timer = setTimeout(() => run.child.kill('SIGKILL'), ms);
  const result = await run.done.finally(() => clearTimeout(timer));
  return { ...result, siteCache: existsSync(path.join(cache, 'codelabgen', 'site')) };
}

/** A course with a curriculum and one lesson folder (no state: nothing is recorded). */
function course(): { root: string; lesson: string; outside: string } {
  const root = scratchCourse('Untrusted files');
  writeFileSync(path.join(root, '.codelabgen', 'curriculum.yaml'), CURRICULUM);
  const lesson = path.join(root, '1-basics', '1.1-intro');
  mkdirSync(path.join(lesson, 'docs', 'diagrams'), { recursive: true });
  const outside = scratchDir('codelabgen-outside-');
  writeFileSync(path.join(outside, 'id_rsa'), 'PRIVATE-KEY\n');
  return { root, lesson, outside };
}

/** `site build` of `root` with `logo` set: refused at once (no Astro), nothing written. */
async function refusedLogo(root: string, field: 'logo' | 'favicon', file: string): Promise<string> {
  writeFileSync(path.join(root, '.codelabgen', 'config.yaml'), `site:\n  ${field}: ${file}\n`, { flag: 'a' });
  const out = path.join(path.dirname(root), 'out');
  const before = snapshot(root);
  const result = await bounded(['site', 'build', '--drafts', '--course', root, '--out', out], 30_000);
  assert.equal(result.signal, null, `site build hung: ${result.stderr}`);
  assert.equal(result.code, 2, result.stderr);
  assert.deepEqual(snapshot(root), before);
  assert.equal(existsSync(out), false, 'an output folder was written');
  assert.equal(result.siteCache, false, 'a refused build started an Astro worker');
  assert.doesNotMatch(result.stderr, /PRIVATE-KEY/);
  return result.stderr;
}

test('readRegularFile reads a regular file and refuses a FIFO, a device, a folder and a file over its limit without blocking', () => {
  const dir = scratchDir('codelabgen-regular-');
  writeFileSync(path.join(dir, 'ok.txt'), 'hello');
  mkfifo(path.join(dir, 'pipe'));
  symlinkSync(path.join(dir, 'pipe'), path.join(dir, 'link-to-pipe'));
  assert.equal(readRegularFile(path.join(dir, 'ok.txt'), 5).toString(), 'hello');
  assert.throws(
    () => readRegularFile(path.join(dir, 'ok.txt'), 4),
    /^UnreadableFileError: is 5 bytes; the limit is 4$/,
  );
  assert.throws(
    () => readRegularFile(path.join(dir, 'pipe'), 100),
    /^UnreadableFileError: is a named pipe \(FIFO\), not a regular file$/,
  );
  assert.throws(() => readRegularFile(path.join(dir, 'link-to-pipe'), 100), /named pipe/);
  assert.throws(() => readRegularFile('/dev/zero', 100), /^UnreadableFileError: is a device, not a regular file$/);
  assert.throws(() => readRegularFile(dir, 100), /^UnreadableFileError: is a folder, not a file$/);
  assert.throws(() => readRegularFile(path.join(dir, 'missing'), 100), { code: 'ENOENT' });
});

test('site build refuses a logo or favicon symlinked outside the course, naming the field; nothing is inlined', async () => {
  const { root, outside } = course();
  mkdirSync(path.join(root, 'assets'));
  symlinkSync(path.join(outside, 'id_rsa'), path.join(root, 'assets', 'logo.png'));
  const stderr = await refusedLogo(root, 'logo', 'assets/logo.png');
  assert.match(
    stderr,
    new RegExp(
      String.raw`^error: \.codelabgen\/config\.yaml: site\.logo: assets\/logo\.png resolves outside the course folder ` +
        String.raw`\(to \S+\/id_rsa\); the site never publishes files from outside the course$`,
      'm',
    ),
  );
  const other = course();
  mkdirSync(path.join(other.root, 'assets'));
  symlinkSync(other.outside, path.join(other.root, 'assets', 'dir'));
  assert.match(
    await refusedLogo(other.root, 'favicon', 'assets/dir/id_rsa.png'),
    /^error: \.codelabgen\/config\.yaml: site\.favicon: assets\/dir\/id_rsa\.png resolves outside the course folder/m,
  );
});

test('site build refuses a logo or favicon that a symlink (chain) leads to a non-image inside the course, or into .git/, .hg/ or .codelabgen/', async () => {
  const { root } = course();
  mkdirSync(path.join(root, '.git'));
  writeFileSync(
    path.join(root, '.git', 'config'),
    '[remote "origin"]\n\turl = https://PRIVATE-KEY@example.com/repo.git\n',
  );
  mkdirSync(path.join(root, 'assets'));
  symlinkSync('../.git/config', path.join(root, 'assets', 'step.svg'));
  symlinkSync('step.svg', path.join(root, 'assets', 'logo.svg'));
  assert.match(
    await refusedLogo(root, 'logo', 'assets/logo.svg'),
    /^error: \.codelabgen\/config\.yaml: site\.logo: assets\/logo\.svg resolves into \.git\/; the site publishes no file of the course's state or history$/m,
  );
  const third = course();
  writeFileSync(path.join(third.root, '.env'), 'TOKEN=PRIVATE-KEY\n');
  mkdirSync(path.join(third.root, 'assets'));
  symlinkSync('../.env', path.join(third.root, 'assets', 'env.png'));
  assert.match(
    await refusedLogo(third.root, 'favicon', 'assets/env.png'),
    /^error: \.codelabgen\/config\.yaml: site\.favicon: assets\/env\.png resolves to \.env, not an image file \(\.svg, \.png, \.ico\)$/m,
  );
  const other = course();
  mkdirSync(path.join(other.root, '.codelabgen', 'img.png'));
  writeFileSync(path.join(other.root, '.codelabgen', 'img.png', 'x.png'), 'PRIVATE-KEY');
  symlinkSync('.codelabgen/img.png/x.png', path.join(other.root, 'icon.png'));
  assert.match(
    await refusedLogo(other.root, 'favicon', 'icon.png'),
    /^error: \.codelabgen\/config\.yaml: site\.favicon: icon\.png resolves into \.codelabgen\/; the site publishes no file of the course's state or history$/m,
  );
  // Every version-control folder (pipeline/course/vcs.ts), an image file in it too.
  const mercurial = course();
  mkdirSync(path.join(mercurial.root, '.hg', 'store'), { recursive: true });
  writeFileSync(path.join(mercurial.root, '.hg', 'store', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  symlinkSync('.hg/store/logo.svg', path.join(mercurial.root, 'logo.svg'));
  assert.match(
    await refusedLogo(mercurial.root, 'logo', 'logo.svg'),
    /^error: \.codelabgen\/config\.yaml: site\.logo: logo\.svg resolves into \.hg\/; the site publishes no file of the course's state or history$/m,
  );
});

test('site build refuses a FIFO as logo at once instead of hanging', async () => {
  const { root } = course();
  mkdirSync(path.join(root, 'assets'));
  mkfifo(path.join(root, 'assets', 'logo.svg'));
  assert.match(
    await refusedLogo(root, 'logo', 'assets/logo.svg'),
    /^error: \.codelabgen\/config\.yaml: site\.logo: assets\/logo\.svg is a named pipe \(FIFO\), not a regular file$/m,
  );
});

test('site build refuses a FIFO as a data file at once instead of hanging', async () => {
  const { root } = course();
  const curriculum = path.join(root, '.codelabgen', 'curriculum.yaml');
  execFileSync('rm', [curriculum]);
  mkfifo(curriculum);
  const result = await bounded(
    ['site', 'build', '--drafts', '--course', root, '--out', path.join(path.dirname(root), 'out')],
    60_000,
  );
  assert.equal(result.signal, null, `site build hung: ${result.stderr}`);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^error: \.codelabgen\/curriculum\.yaml: is a named pipe \(FIFO\), not a regular file$/m);
  assert.equal(result.siteCache, false, 'a course that cannot be read started an Astro worker');
});

test('the site refuses a FIFO or device as a lesson doc, diagram or image instead of skipping or blocking on it', () => {
  const { root, lesson } = course();
  const intro = () => readCourse(root).lessons[0]!;
  mkfifo(path.join(lesson, 'docs', 'readalong.md'));
  assert.throws(
    () => readLessonDocs(readCourse(root).course, intro(), false),
    /^DataFileError: 1-basics\/1\.1-intro\/docs\/readalong\.md: is a named pipe \(FIFO\), not a regular file$/,
  );
  execFileSync('rm', [path.join(lesson, 'docs', 'readalong.md')]);
  mkfifo(path.join(lesson, 'docs', 'diagrams', 'flow.mmd'));
  assert.throws(
    () => readDiagramFiles(readCourse(root).course, intro()),
    /^DataFileError: 1-basics\/1\.1-intro\/docs\/diagrams\/flow\.mmd: is a named pipe \(FIFO\), not a regular file$/,
  );
  execFileSync('rm', [path.join(lesson, 'docs', 'diagrams', 'flow.mmd')]);
  mkfifo(path.join(lesson, 'docs', 'shot.png'));
  writeFileSync(path.join(lesson, 'docs', 'readalong.md'), '# Read\n\n![A shot](shot.png)\n');
  const docs = readLessonDocs(readCourse(root).course, intro(), false);
  assert.deepEqual(docs.readalong?.problems, [
    'lesson 1.1 docs/readalong.md:3: image shot.png: docs/shot.png is a named pipe (FIFO), not a regular file',
  ]);
});

test('a FIFO as state.json is refused at once by every reader, the site build included', async () => {
  const { root } = course();
  const state = path.join(root, '.codelabgen', 'state.json');
  execFileSync('rm', [state]);
  mkfifo(state);
  for (const args of [
    ['state', 'show', '--course', root],
    ['site', 'build', '--drafts', '--course', root, '--out', path.join(path.dirname(root), 'out')],
  ]) {
    const result = await bounded(args, 30_000);
    assert.equal(result.signal, null, `${args.join(' ')} hung: ${result.stderr}`);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /^error: \.codelabgen\/state\.json is not a regular file \(a pipe, device or socket\); nothing was changed$/m,
      args.join(' '),
    );
    assert.equal(result.siteCache, false, `${args.join(' ')} started an Astro worker`);
  }
});

test('a data file of .codelabgen/ symlinked elsewhere in the course (a source digest to .git/config, the glossary to .env) is refused, not published', () => {
  const { root } = course();
  mkdirSync(path.join(root, '.git'));
  writeFileSync(
    path.join(root, '.git', 'config'),
    '[remote "origin"]\n\turl = https://PRIVATE-KEY@example.com/repo.git\n',
  );
  writeFileSync(path.join(root, '.env'), '{"term":"PRIVATE-KEY"}\n');
  writeFileSync(
    path.join(root, '.codelabgen', 'sources.jsonl'),
    '{"id":"s1","title":"S","url":"https://example.com","kind":"article","status":"accepted"}\n',
  );
  mkdirSync(path.join(root, '.codelabgen', 'sources'));
  symlinkSync('../../.git/config', path.join(root, '.codelabgen', 'sources', 's1.md'));
  const at = { root, dir: path.join(root, '.codelabgen') };
  assert.throws(
    () => readSources(at),
    /^RefusalError: \.codelabgen\/sources\/s1\.md resolves outside \.codelabgen\/ \(to \.git\/config\); a data file of the course is a file of its own$/,
  );
  symlinkSync('../.env', path.join(root, '.codelabgen', 'glossary.jsonl'));
  assert.throws(() => readGlossary(at), /\.codelabgen\/glossary\.jsonl resolves outside \.codelabgen\/ \(to \.env\)/);
});
