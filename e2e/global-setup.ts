// Builds what the browser tests look at, once per run: the demo course and its site at base `/`
// (scripts/demo.ts, driving the real CLI; the learner view), the same course built again under
// `/course-site/` as drafts (the producer view) with client-side diagrams, and a static server for each. Tests read the locations from E2E_* variables.
// CODELABGEN_E2E_DIR=DIR builds into DIR and keeps it; a later run with the same DIR reuses the builds
// (`node e2e/prepare.ts DIR` makes them ahead of time: scripts/test-all.mjs does while other tests run).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveStatic } from './static-server.ts';
import { BASE_PATH, REPO, cliPath } from './paths.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dir = process.env.CODELABGEN_E2E_DIR
    ? path.resolve(process.env.CODELABGEN_E2E_DIR)
    : mkdtempSync(path.join(tmpdir(), 'codelabgen-e2e-'));
  const { course, rootSite, baseSite } = e2eLocations(dir);
  // CODELABGEN_E2E_DIR with finished builds is reused (handy while writing tests); else build.
  if (!(process.env.CODELABGEN_E2E_DIR && existsSync(path.join(baseSite, 'index.html')))) buildE2eSites(dir);
  const [root, base] = await Promise.all([serveStatic(rootSite, '/'), serveStatic(baseSite, BASE_PATH)]);
  Object.assign(process.env, { E2E_DIR: dir, E2E_COURSE: course, E2E_ROOT_URL: root.url, E2E_BASE_URL: base.url });
  return async () => {
    await Promise.all([root.close(), base.close()]);
    if (!process.env.CODELABGEN_E2E_DIR) rmSync(dir, { recursive: true, force: true });
  };
}

/** Where the demo course and the two builds live inside the e2e folder. */
export function e2eLocations(dir: string): { course: string; rootSite: string; baseSite: string } {
  return {
    course: path.join(dir, 'course'),
    rootSite: path.join(dir, 'site-root'),
    baseSite: path.join(dir, 'site-base'),
  };
}

/** Drives the demo course through the CLI into `dir` and builds its two sites there. */
export function buildE2eSites(dir: string): void {
  const started = Date.now();
  const { course, rootSite, baseSite } = e2eLocations(dir);
  if (!existsSync(path.join(REPO, 'dist', 'main.mjs'))) run('build', [path.join(REPO, 'scripts', 'build.mjs')]);
  run('demo', [path.join(REPO, 'scripts', 'demo.ts'), '--dir', course, '--out', rootSite, '--quiet']);
  // No diagram cache and no browser: the second build leaves diagrams to client-side mermaid, so
  // the tests also see mermaid's files served under the non-root base. It is a drafts build: the
  // producer view (stages, report), where the first one is what learners see.
  const cache = path.join(dir, 'empty-diagram-cache');
  mkdirSync(cache, { recursive: true });
  run(
    'site build',
    [cliPath(), 'site', 'build', '--course', course, '--out', baseSite, '--base', BASE_PATH, '--drafts'],
    { CODELABGEN_CHROMIUM: 'none', CODELABGEN_DIAGRAM_CACHE: cache },
  );
  process.stdout.write(
    `e2e: demo course and two site builds in ${((Date.now() - started) / 1000).toFixed(1)} s (${dir})\n`,
  );
}

function run(what: string, args: string[], env: Record<string, string> = {}): void {
  const result = spawnSync(process.execPath, args, {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  if (result.status !== 0)
    throw new Error(`e2e setup: ${what} exited ${result.status}\n${result.stderr}${result.stdout}`);
}
