// The npm package on its own: `npm pack`, install the tarball into an empty folder from the local
// npm cache, and use the installed CLI there (init, and a site build of the example course).
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, scratchDir } from './testing.ts';

interface Lock {
  packages: Record<string, { version?: string; dev?: boolean }>;
}

function npm(args: string[], options: SpawnSyncOptions): { code: number | null; stdout: string; stderr: string } {
  // Under `npm test` the npm that runs us is npm_execpath; alone, the one on PATH.
  const execpath = process.env.npm_execpath;
  const [command, prefix] = execpath?.endsWith('.js') ? [process.execPath, [execpath]] : ['npm', []];
  const result = spawnSync(command, [...prefix, ...args], { encoding: 'utf8', timeout: 300_000, ...options });
  return { code: result.status, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') };
}

/**
 * A course repository's package.json and lock that depend on the tarball, with codelabgen's own
 * dependencies locked as in this repository. `npm ci` of this repository caches exactly those
 * tarballs (npm keeps no registry metadata for them, so a lockless install could not resolve
 * offline), and the repository's overrides come along so the lock is consistent.
 */
function writeConsumer(dir: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const spec = `file:${tarball}`;
  const integrity = `sha512-${createHash('sha512').update(readFileSync(path.join(dir, tarball))).digest('base64')}`;
  const packages: Record<string, unknown> = {
    '': { dependencies: { codelabgen: spec } },
    'node_modules/codelabgen': { version: pkg.version, resolved: spec, integrity, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  };
  for (const [key, entry] of Object.entries(lock.packages)) if (key.startsWith('node_modules/') && !entry.dev) packages[key] = entry;
  // "$mermaid" means "the version of the root's mermaid dependency": the consumer's root has none.
  const pinned = JSON.parse(JSON.stringify(pkg.overrides ?? {}), (_key, value: unknown) => (typeof value === 'string' && value.startsWith('$') ? lock.packages[`node_modules/${value.slice(1)}`]?.version : value));
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ private: true, dependencies: { codelabgen: spec }, overrides: pinned }, null, 2)}\n`);
  writeFileSync(path.join(dir, 'package-lock.json'), `${JSON.stringify({ name: 'course', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

test('the packed tarball installs from the npm cache and builds the example course on its own', { timeout: 600_000 }, () => {
  const dir = scratchDir('codelabgen-package-');
  assert.ok(existsSync(path.join(REPO_ROOT, 'dist', 'main.mjs')), 'build the CLI first: node scripts/build.mjs');
  const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO_ROOT });
  assert.equal(pack.code, 0, pack.stderr);
  const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = packed!.files.map((file) => file.path);
  for (const needed of ['bin/codelabgen.mjs', 'dist/main.mjs', 'astro.config.mjs', 'site/pages/index.astro', 'pipeline/read.ts', 'content-schemas/json/curriculum.schema.json']) assert.ok(files.includes(needed), `${needed} is not in the package`);
  const unwanted = files.filter((file) => /\.test\.ts$|\.map$|^(cli|e2e|scripts|bench|examples|docs)\/|fixtures\.ts$/.test(file));
  assert.deepEqual(unwanted, [], 'tests, sources of the bundle or fixtures are in the package');

  writeConsumer(dir, packed!.filename);
  const install = npm(['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir });
  assert.equal(install.code, 0, `npm ci of the tarball failed:\n${install.stderr}`);

  const codelabgen = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [path.join(dir, 'node_modules', '.bin', 'codelabgen'), ...args], { cwd: dir, encoding: 'utf8', timeout: 300_000, env: { ...process.env, NO_COLOR: '1', CODELABGEN_COURSE: undefined, ...env } });
  const init = codelabgen(['init', 'new-course', '--title', 'From the tarball']);
  assert.equal(init.status, 0, init.stderr);
  assert.ok(existsSync(path.join(dir, 'new-course', '.codelabgen', 'state.json')));

  cpSync(path.join(REPO_ROOT, 'examples', 'node-streams'), path.join(dir, 'course'), { recursive: true, filter: (from) => !/__pycache__|\.pytest_cache|node_modules/.test(from) });
  // Diagrams are left to the browser here (rendering nine takes ~20 s); what build-time rendering
  // loads must still resolve from the installed package: mermaid-isomorphic's optional peer playwright.
  const playwright = spawnSync(process.execPath, ['--input-type=module', '-e', "import.meta.resolve('playwright')"], { cwd: path.join(dir, 'node_modules', 'mermaid-isomorphic'), encoding: 'utf8' });
  assert.equal(playwright.status, 0, `playwright is not installed with codelabgen, so diagrams cannot render at build time:\n${playwright.stderr}`);
  const build = codelabgen(['site', 'build', '--course', 'course', '--out', 'site', '--drafts'], { CODELABGEN_CHROMIUM: 'none', CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'diagrams') });
  assert.equal(build.status, 0, build.stderr);
  assert.match(build.stdout, /diagrams: 0 rendered, 0 cached, 0 failed, 9 client-side\n/);
  assert.match(build.stdout, /built \d+ pages \(6 lessons, drafts\)/);
  for (const page of ['index.html', 'search/index.html', 'pagefind/pagefind.js']) assert.ok(existsSync(path.join(dir, 'site', page)), `${page} missing`);
  assert.ok(!existsSync(path.join(dir, 'course', '.astro')), 'the build wrote into the course');
});
