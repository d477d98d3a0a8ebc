// Site build caches are per user (pipeline/site/cache-root.ts): once the install's owner had built a
// site, another user's `site build` ended in `internal error: EACCES ... mkdtemp` under the package's
// node_modules/.cache (exit 3), and the fallback /tmp/codelabgen-astro was one shared path.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { generateCourse } from '../../bench/generate-course.ts';
import { REPO_ROOT, repoForOtherUsers, scratchDir } from '../../cli/testing.ts';
import { siteCacheCandidates, siteCacheRoot } from './cache-root.ts';

const OTHER = 'codelabgen-other';

test('the cache is $XDG_CACHE_HOME/codelabgen/site, else ~/.cache/codelabgen/site, else a private temp folder', () => {
  assert.deepEqual(siteCacheCandidates({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' }), [
    '/x/cache/codelabgen/site',
    '/home/u/.cache/codelabgen/site',
  ]);
  assert.deepEqual(siteCacheCandidates({ XDG_CACHE_HOME: 'relative', HOME: '/home/u' }), [
    '/home/u/.cache/codelabgen/site',
  ]);
  const home = scratchDir('codelabgen-cache-home-');
  assert.ok(
    siteCacheRoot({ HOME: home }, REPO_ROOT).startsWith(path.join(home, '.cache', 'codelabgen', 'site', 'install-')),
  );
  // Neither can be made (not even by root): a private folder of this process, 0700, under the temp dir.
  const fallback = siteCacheRoot({ XDG_CACHE_HOME: '/dev/null/codelabgen', HOME: '/dev/null/codelabgen' }, REPO_ROOT);
  const base = path.join(fallback, '..', '..', '..');
  assert.match(path.resolve(base), new RegExp(`^${os.tmpdir()}/codelabgen-site-`));
  assert.equal(statSync(base).mode & 0o777, 0o700);
  assert.ok(
    existsSync(path.join(fallback, 'node_modules', 'astro')),
    'the bundles cannot resolve astro from the cache',
  );
});

test('a cache folder another user could plant or swap is passed over: writable by others, or a symlink (as root, access checks pass everywhere)', () => {
  const shared = scratchDir('codelabgen-shared-cache-');
  chmodSync(shared, 0o1777); // a /tmp-like XDG_CACHE_HOME
  mkdirSync(path.join(shared, 'codelabgen', 'site'), { recursive: true });
  chmodSync(path.join(shared, 'codelabgen', 'site'), 0o777); // planted by someone else, open to all
  const home = scratchDir('codelabgen-cache-home-');
  assert.ok(
    siteCacheRoot({ XDG_CACHE_HOME: shared, HOME: home }, REPO_ROOT).startsWith(
      path.join(home, '.cache', 'codelabgen', 'site', 'install-'),
    ),
  );
  const linked = scratchDir('codelabgen-linked-cache-');
  const planted = scratchDir('codelabgen-planted-');
  mkdirSync(path.join(linked, 'codelabgen'));
  symlinkSync(planted, path.join(linked, 'codelabgen', 'site'));
  assert.ok(
    siteCacheRoot({ XDG_CACHE_HOME: linked, HOME: home }, REPO_ROOT).startsWith(
      path.join(home, '.cache', 'codelabgen', 'site', 'install-'),
    ),
  );
  assert.deepEqual(readdirSync(planted), [], 'the planted folder was used');
});

/** Whether this process may add a user and run commands as it. */
function canSwitchUser(): boolean {
  if (process.getuid?.() !== 0) return false;
  const added = spawnSync('useradd', ['--create-home', '--shell', '/usr/sbin/nologin', OTHER]);
  return added.status === 0 || added.status === 9; // 9: the user exists already
}

const repo = canSwitchUser() ? repoForOtherUsers() : null;

test("another user builds a site after the install's owner did: its own cache, exit 0", {
  timeout: 300_000,
  skip:
    repo !== null
      ? false
      : 'needs root with useradd (to run the CLI as a second user) and a checkout another user can read, or a temp folder on its file system',
}, async () => {
  const { root: install, node } = repo!;
  const uid = Number(spawnSync('id', ['-u', OTHER], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', OTHER], { encoding: 'utf8' }).stdout.trim());
  const home = spawnSync('sh', ['-c', `getent passwd ${OTHER} | cut -d: -f6`], { encoding: 'utf8' }).stdout.trim();
  // What an owner's build left behind in an install before caches were per user.
  mkdirSync(path.join(install, 'node_modules', '.cache', 'codelabgen'), { recursive: true });
  const work = scratchDir('codelabgen-other-user-');
  chmodSync(work, 0o755);
  const course = path.join(work, 'course');
  await generateCourse(course, { lessons: 1, diagram: () => null });
  spawnSync('chown', ['-R', `${uid}:${gid}`, work]);
  chownSync(work, uid, gid);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    NO_COLOR: '1',
    CODELABGEN_CHROMIUM: 'none',
    CODELABGEN_DIAGRAM_CACHE: path.join(work, 'diagrams'),
  };
  const result = spawnSync(
    'setpriv',
    [
      `--reuid=${uid}`,
      `--regid=${gid}`,
      '--clear-groups',
      node,
      path.join(install, 'bin', 'codelabgen.cjs'),
      'site',
      'build',
      '--drafts',
      '--course',
      course,
      '--out',
      path.join(work, 'out'),
    ],
    { cwd: work, env, encoding: 'utf8', timeout: 240_000 },
  );
  assert.equal(result.status, 0, result.stderr);
  assert.ok(existsSync(path.join(work, 'out', 'index.html')), 'no site');
  assert.ok(existsSync(path.join(home, '.cache', 'codelabgen', 'site')), "the second user's cache is not in its home");
  assert.equal(statSync(path.join(home, '.cache', 'codelabgen', 'site')).uid, uid);
});
