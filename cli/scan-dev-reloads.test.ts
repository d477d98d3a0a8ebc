// What an open page does with `site dev`'s full reloads is decided in two places: the reload guard in
// site/layouts/Base.astro's head (the progress board never takes one: its stream keeps it current) and
// site/components/DevLive.astro (every other page fetches itself and swaps its body in place). A third
// handler of Vite's `vite:beforeFullReload` (the board had one of its own, with another condition,
// beside the guard) makes the rule depend on which runs first: this scan of the site's scripts fails
// when another file listens for it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { withoutComments } from './source-scan.ts';
import { REPO_ROOT } from './testing.ts';

const HOMES = ['site/components/DevLive.astro', 'site/layouts/Base.astro'];

/** The lines (1-based) of code that name Vite's full-reload event. */
export function reloadHandlersIn(code: string): number[] {
  return withoutComments(code)
    .split('\n')
    .flatMap((line, i) => (/vite:beforeFullReload|['"`]full-reload['"`]/.test(line) ? [i + 1] : []));
}

test('only the reload guard (Base.astro) and DevLive.astro handle a site dev full reload', () => {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', 'site'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  const files = listed
    .split('\0')
    .filter((file) => /\.(ts|mts|js|mjs|astro)$/.test(file) && !file.endsWith('.test.ts'));
  assert.ok(files.length > 50, `the scan read ${files.length} files of site/: the file list is wrong`);
  const found = files.flatMap((file) =>
    reloadHandlersIn(readFileSync(path.join(REPO_ROOT, file), 'utf8')).map((line) => `${file}:${line}`),
  );
  assert.deepEqual(
    found.map((place) => place.replace(/:\d+$/, '')),
    HOMES,
    `a page's answer to a full reload belongs in the guard or DevLive.astro; found at ${found.join(', ')}`,
  );
});

test('the scan finds a handler however it is written, and leaves comments alone', () => {
  assert.deepEqual(reloadHandlersIn("hot.on('vite:beforeFullReload', (p) => {})"), [1]);
  assert.deepEqual(reloadHandlersIn('x\nhot.on(`vite:beforeFullReload`, f)'), [2]);
  assert.deepEqual(reloadHandlersIn("ws.addEventListener('message', (m) => m.type === 'full-reload')"), [1]);
  assert.deepEqual(reloadHandlersIn('// a vite:beforeFullReload comes as the page connects\nconst x = 1;'), []);
});
