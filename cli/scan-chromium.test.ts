// Where a Chromium is looked for is decided in one place, pipeline/site/chromium.ts (SYSTEM_CHROMIUMS,
// findChromium): the site build's diagrams, `site dev`, the browser tests, the benches and .ci/run all
// take the same browser. A scan of every script of the repository fails when another file names a
// system Chromium's path in code (a list of its own, the way e2e/paths.ts and two benches each had one
// that still named only /usr/bin/chromium after the build had a lighter one), and when .ci/run's list in
// bash is not SYSTEM_CHROMIUMS in the same order.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SYSTEM_CHROMIUMS } from '../pipeline/site/chromium.ts';
import { withoutComments } from './source-scan.ts';
import { REPO_ROOT } from './testing.ts';

const HOME = 'pipeline/site/chromium.ts';
/** This file: its examples of what the scan finds are paths on purpose. */
const SELF = 'cli/scan-chromium.test.ts';

/** A string literal in code that is a path to a system browser: /usr/bin/chromium*, google-chrome*, chrome. */
const BROWSER_PATH_LITERAL =
  /(['"`])\/(?:usr\/(?:local\/)?bin|opt\/google\/chrome|snap\/bin)\/(?:chromium|google-chrome|chrome)[^'"`]*\1/g;

/** The repository's scripts (tracked and new, not ignored), the ones node or a browser would run. */
function scripts(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\0')
    .filter((file) => /\.(ts|mts|cts|mjs|cjs|js|astro)$/.test(file) && !file.includes('node_modules/'));
}

export function browserPathsIn(code: string): string[] {
  return [...withoutComments(code).matchAll(BROWSER_PATH_LITERAL)].map((match) => match[0]);
}

test('no script but pipeline/site/chromium.ts names a system Chromium path in code', () => {
  const files = scripts();
  assert.ok(files.length > 300, `the scan read ${files.length} scripts: the file list is wrong`);
  assert.ok(files.includes(HOME));
  const found: string[] = [];
  for (const file of files) {
    if (file === HOME || file === SELF) continue;
    for (const literal of browserPathsIn(readFileSync(path.join(REPO_ROOT, file), 'utf8')))
      found.push(`${file}: ${literal}`);
  }
  assert.deepEqual(found, [], 'find the browser with findChromium() (or e2e/paths.ts chromiumPath() in tests)');
  assert.deepEqual(
    browserPathsIn(readFileSync(path.join(REPO_ROOT, HOME), 'utf8')).map((literal) => literal.slice(1, -1)),
    [...SYSTEM_CHROMIUMS],
    'the scan finds the one list where it is',
  );
});

test('the scan finds a path however it is quoted, and leaves comments and longer text alone', () => {
  assert.deepEqual(browserPathsIn("launch({ executablePath: '/usr/bin/chromium' })"), ["'/usr/bin/chromium'"]);
  assert.deepEqual(browserPathsIn('existsSync("/usr/bin/chromium-browser") ? 1 : 0'), ['"/usr/bin/chromium-browser"']);
  assert.deepEqual(browserPathsIn('const c = `/usr/local/bin/google-chrome`;'), ['`/usr/local/bin/google-chrome`']);
  assert.deepEqual(browserPathsIn('// falls back to /usr/bin/chromium\nconst x = 1;'), []);
  assert.deepEqual(browserPathsIn("const help = 'found at /usr/bin/chromium or elsewhere';"), []);
});

test(".ci/run looks for a Chromium at SYSTEM_CHROMIUMS's places, in the same order, and installs the first", () => {
  const run = readFileSync(path.join(REPO_ROOT, '.ci/run'), 'utf8');
  const loop = /for candidate in "\$\{CODELABGEN_CHROMIUM:-\}" ([^;]+); do/.exec(run);
  assert.ok(loop, ".ci/run's find_chromium loop not found");
  assert.deepEqual(loop[1]!.trim().split(/\s+/), [...SYSTEM_CHROMIUMS]);
  assert.match(run, new RegExp(`apt_install ${path.basename(SYSTEM_CHROMIUMS[0])}\\b`));
});
