// `site build|dev|preview`: thin wrappers that run Astro with the codelabgen integration in a child
// process (pipeline/site/worker-fork.ts), one per run, so a failed build can never leave Astro's
// timers or module state behind in the CLI.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../course/config.ts';
import { courseAt, printable } from '../course/course.ts';
import { ChecksFailedError, CodelabgenError, EXIT, refuse } from '../course/errors.ts';
import { siteCacheRoot } from './cache-root.ts';
import { sweepCaches } from './cache-sweep.ts';
import type { BuildStep, Progress } from './build-step.ts';
import { checkOut, moveInto, replaceOutput, stagingFolder } from './out-folder.ts';
import { packageRoot } from './package-root.ts';
import type { SiteBuildResult, SiteJob } from './site-job.ts';
import { forkWorker, type Running } from './worker-fork.ts';

export type { BuildStep, Progress, SiteBuildResult };

export interface SiteBuildOptions {
  root: string;
  out: string;
  base: string;
  site?: string | undefined;
  drafts: boolean;
  stats: boolean;
  /** Fail (exit 1) before anything is written when a diagram would be drawn in the reader's browser. */
  strictDiagrams?: boolean;
  /** Recorded with the site.build event. */
  command?: string;
  env?: NodeJS.ProcessEnv;
  progress?: Progress;
}

/** `/`, `/x/`: a base path always has a leading and trailing slash. */
export function normalizeBase(base: string): string {
  const trimmed = base.trim().replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9._~\/-]*$/.test(trimmed)) refuse(`--base ${base}: use a URL path like /my-course/`);
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/**
 * `--site`: the site's public URL, an absolute http(s) one. Anything else is refused here, before Astro starts: Astro
 * refused `x` with its schema's JSON (exit 1) and failed `javascript:alert(1)` halfway through the build.
 */
export function checkSite(site: string | undefined): string | undefined {
  if (site === undefined || site === '') return site;
  const url = URL.canParse(site) ? new URL(site) : null;
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:')
    refuse(`--site "${printable(site)}": use the site's public http(s) URL, like https://user.github.io/my-course/`);
  return site;
}

/**
 * Refusals that need no Astro, made before its worker is started: an .mdx doc without site.mdx: true
 * (pipeline/read/index.ts), a logo or favicon that is not a regular file inside the course (assets.ts),
 * and for a build a course that cannot be read (a bad config.yaml, glossary or sources, no curriculum,
 * a bad data file) or that publishes no lesson: the error the worker would give, in its order, after
 * the progress line it would show (pipeline/site/integration.ts, astro:config:setup). `site dev` leaves
 * a course that cannot be read to the worker, as does a build for any other failure to read it (the
 * worker says what failed).
 */
async function refuseEarly(root: string, build: { drafts: boolean; progress?: Progress | undefined } | null) {
  const read = await import('../read/index.ts');
  let view: ReturnType<typeof read.readCourse>;
  let reading = false;
  try {
    if (build !== null) {
      // What the integration reads before it says "reading the course".
      const course = courseAt(root);
      loadConfig(course);
      read.readGlossary(course);
      read.readSources(course);
    }
    reading = true;
    view = read.readCourse(root);
  } catch (error) {
    if (build === null || !ownRefusal(error)) return;
    if (reading) build.progress?.('loading', 'reading the course');
    throw error;
  }
  read.refuseUnallowedMdx(view);
  read.readSiteAssets(view.course.root, view.config.site);
  // `site build` of nothing is a mistake (a hand-written course under the `done` rule).
  if (build !== null && !build.drafts && !view.lessons.some((lesson) => read.isPublished(view, lesson))) {
    build.progress?.('loading', 'reading the course');
    throw new ChecksFailedError(read.nothingPublished(view));
  }
}

/** An error the worker would relay as it is (pipeline/site/failure.ts): codelabgen's own, exit 1 or 2. */
function ownRefusal(error: unknown): boolean {
  return error instanceof CodelabgenError && (error.exitCode === EXIT.refused || error.exitCode === EXIT.checkFailed);
}

export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildResult> {
  const out = checkOut(options.root, options.out);
  const base = normalizeBase(options.base);
  const site = checkSite(options.site);
  await refuseEarly(options.root, { drafts: options.drafts, progress: options.progress });
  const worker = forkWorker('build', options.env ?? process.env);
  let staging: string | null = null;
  let running: Running | null = null;
  let unlock: (() => void) | null = null;
  try {
    const { diagramCacheDir } = await import('./diagrams.ts');
    const { holdLock } = await import('../store/lock.ts');
    const command = options.command ?? 'codelabgen site build';
    const job = siteJob('build', options.root, options.env ?? process.env, {
      out: '',
      publishedOut: out,
      strictDiagrams: options.strictDiagrams ?? false,
      base,
      site,
      drafts: options.drafts,
      stats: options.stats,
      diagramCache: diagramCacheDir(options.env),
      command,
    });
    // Astro writes into the course's content cache, to the same folder every build: Astro puts that
    // path into the bundle (astro:assets), and a path that changed would render every lesson page
    // again. One build of a course (and settings) at a time, as its caches are shared anyway.
    unlock = await holdLock(path.join(job.cacheDir, 'lock'), { command, subject: 'the site build of this course' });
    const built = path.join(job.cacheDir, 'out');
    let result: SiteBuildResult | null = null;
    await (running = worker.run({ ...job, out: built }, (message) => {
      if (message.kind === 'progress') options.progress?.(message.step, message.detail);
      if (message.kind === 'built') result = message.result;
    }));
    if (result === null) throw new ChecksFailedError('site build failed: the Astro build ended without a result');
    staging = stagingFolder(out);
    moveInto(built, staging);
    replaceOutput(staging, out, base);
    return { ...(result as SiteBuildResult), out };
  } finally {
    if (running === null) worker.cancel();
    unlock?.();
    if (staging !== null) rmSync(staging, { recursive: true, force: true });
  }
}

export interface ServeOptions {
  root: string;
  out: string;
  base: string;
  port?: number | undefined;
  host?: string | undefined;
  open?: boolean | undefined;
  env?: NodeJS.ProcessEnv;
}

/** Starts `astro dev` or `astro preview` in a worker; resolves once it listens. */
export async function serveSite(
  mode: 'dev' | 'preview',
  options: ServeOptions,
): Promise<{ stop(): Promise<void>; done: Promise<void> }> {
  if (mode === 'preview' && !existsSync(path.join(options.out, 'index.html'))) {
    refuse(`--out ${options.out}: no built site there`, `build it first: codelabgen site build --out ${options.out}`);
  }
  if (mode === 'dev') await refuseEarly(options.root, null);
  const forked = forkWorker(mode, options.env ?? process.env);
  let job: SiteJob;
  try {
    const { diagramCacheDir } = await import('./diagrams.ts');
    job = siteJob(mode, options.root, options.env ?? process.env, {
      out: options.out,
      base: normalizeBase(options.base),
      drafts: mode === 'dev',
      stats: false,
      diagramCache: diagramCacheDir(options.env),
      command: `codelabgen site ${mode}`,
      port: options.port,
      host: options.host,
      open: options.open,
    });
  } catch (error) {
    forked.cancel();
    throw error;
  }
  let ready: () => void = () => {};
  const listening = new Promise<void>((resolve) => (ready = resolve));
  const worker = forked.run(job, (message) => message.kind === 'ready' && ready());
  await Promise.race([listening, worker]);
  return { stop: async () => worker.stop(), done: worker.then(() => {}) };
}

const CACHE_LAYOUT = 'v2';

function siteJob(
  mode: SiteJob['mode'],
  root: string,
  env: NodeJS.ProcessEnv,
  rest: Omit<SiteJob, 'mode' | 'course' | 'cacheDir'>,
): SiteJob {
  const course = realpathSync(root);
  const cacheDir = contentCacheDir(course, env, rest);
  sweepCaches(cacheDir, course);
  return { mode, course, cacheDir, ...rest };
}

/**
 * The folder a build of the course at `root` (with these settings) runs Astro in, under the user's
 * site cache: its content cache, lock and pages (exported for pipeline/site/site-errors.test.ts).
 */
export function contentCacheDir(
  root: string,
  env: NodeJS.ProcessEnv,
  settings: { drafts: boolean; base: string },
): string {
  // CACHE_LAYOUT changes when what a cache holds would mislead a newer build (v2: paths in the
  // content store are relative to the cache's own Astro root, see worker.ts).
  const key = createHash('sha256')
    .update(`${CACHE_LAYOUT}\n${realpathSync(root)}\n${settings.drafts}\n${settings.base}`)
    .digest('hex')
    .slice(0, 16);
  return path.join(siteCacheRoot(env, packageRoot()), `content-${key}`);
}
