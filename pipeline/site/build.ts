// `site build|dev|preview`: thin wrappers that run Astro with the codelabgen integration in a child
// process (pipeline/site/worker.ts), one per run, so a failed build can never leave Astro's timers
// or module state behind in the CLI. Also the output-folder checks shared with the integration.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import module from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SITE_OUT_DIR } from '../course/course.ts';
import { ChecksFailedError, errorCode, refuse, RefusalError, RelayedError } from '../course/errors.ts';
import { isInside, realPathOf } from '../course/inside.ts';
import { siteCacheRoot } from './cache-root.ts';
import type { DiagramStats } from './diagrams.ts';
import type { Failure } from './failure.ts';
import type { BuildStep, Progress } from './build-step.ts';
import type { Prepared } from './prepare.ts';
import type { PageWeight } from './stats.ts';

export type { BuildStep, Progress };

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

export interface SiteBuildResult {
  out: string;
  pages: string[];
  lessons: string[];
  excluded: Prepared['excluded'];
  diagrams: DiagramStats;
  /** Diagram problems shown as error boxes (drafts) instead of failing the build. */
  diagramErrors: string[];
  /** Lesson pages rendered by this build; the others were unchanged and kept from the last build. */
  lessonPagesRendered: number;
  searchPages: number;
  /** The search index of the replaced output was kept: no page changed. */
  searchKept: boolean;
  weights: PageWeight[] | null;
  recorded: boolean;
  ms: number;
}

/** What the CLI asks of one worker run. */
export interface SiteJob {
  mode: 'build' | 'dev' | 'preview';
  course: string;
  /** Where Astro writes: for a build, a staging folder that replaces `publishedOut` at the end. */
  out: string;
  /** The --out folder the site.build event names. */
  publishedOut?: string;
  strictDiagrams?: boolean;
  base: string;
  site?: string | undefined;
  drafts: boolean;
  stats: boolean;
  diagramCache: string;
  /** Astro's content cache, kept between runs of the same course. */
  cacheDir: string;
  command: string;
  port?: number | undefined;
  /** Address to listen on (Astro's server.host); default localhost. */
  host?: string | undefined;
  /** Open the browser once the server listens (Astro's server.open). */
  open?: boolean | undefined;
}

/** Messages from the worker. */
export type WorkerMessage =
  | { kind: 'progress'; step: BuildStep; detail: string }
  | { kind: 'built'; result: SiteBuildResult }
  | { kind: 'ready' }
  | ({ kind: 'failed' } & Failure);

/** Package root: where astro.config.mjs and site/ live (works from source and from dist/). */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'astro.config.mjs'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('astro.config.mjs not found above the codelabgen code');
    dir = parent;
  }
  return dir;
}

/** `/`, `/x/`: a base path always has a leading and trailing slash. */
export function normalizeBase(base: string): string {
  const trimmed = base.trim().replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9._~\/-]*$/.test(trimmed)) refuse(`--base ${base}: use a URL path like /my-course/`);
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/** Written into every finished build; an `--out` folder holding it may be replaced by the next build. */
export const SITE_MARKER = path.join('_codelabgen', 'site.json');

/**
 * Where a build may put its output. A build replaces the whole folder, so it refuses the course
 * itself, a folder inside it or containing it, something that is not a folder, and a non-empty
 * folder that is not an earlier codelabgen build (no SITE_MARKER): never empty a user's folder.
 */
export function checkOut(courseRoot: string, out: string): string {
  const resolved = checkOutsideCourse(courseRoot, out);
  const fix = 'pass a new or empty folder outside the course, e.g. --out ../site-out';
  if (!existsSync(resolved)) return resolved;
  if (!statSync(resolved).isDirectory()) refuse(`--out ${out} is not a folder`, fix);
  if (readdirSync(resolved).length > 0 && !isSiteBuild(resolved)) {
    refuse(`--out ${out} is a non-empty folder that is not an earlier codelabgen site build (no ${SITE_MARKER}); a build replaces its output folder`, `${fix}, or remove that folder yourself`);
  }
  return resolved;
}

/**
 * The part of checkOut that also holds for an author's own Astro project using the integration
 * (whose outDir Astro empties as it always does): never the course, inside it or around it, except
 * the course's own output folder `site-out/` (SITE_OUT_DIR), which the site never reads.
 */
export function checkOutsideCourse(courseRoot: string, out: string): string {
  const course = realpathSync(courseRoot);
  const resolved = realPathOf(out);
  const fix = 'pass a new or empty folder outside the course, e.g. --out ../site-out';
  // A path written inside the course (the default site-out/ included) must stay there: a symlink a
  // worker planted in the course would otherwise send the build to replace a folder outside it.
  for (const root of new Set([path.resolve(courseRoot), course])) {
    const written = path.relative(root, path.resolve(out));
    if (path.isAbsolute(written) || written.split(path.sep)[0] === '..') continue;
    if (resolved !== path.join(course, written)) refuse(`--out ${out} leads out of the course through a symbolic link (to ${resolved})`, `${fix}, or remove the link`);
  }
  if (isInside(resolved, course) && resolved !== path.join(course, SITE_OUT_DIR)) refuse(`--out ${out} is inside the course directory; the site never writes into the course except its ${SITE_OUT_DIR}/ folder`, fix);
  if (isInside(course, resolved)) refuse(`--out ${out} contains the course directory ${course}; a build replaces its output folder`, fix);
  return resolved;
}

/** A folder an earlier `site build` wrote (it may be served by `site preview` or replaced). */
export function isSiteBuild(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(path.join(dir, SITE_MARKER), 'utf8')) as { generator?: unknown }).generator === 'codelabgen';
  } catch {
    return false; // missing or unreadable marker: not ours
  }
}

/** The --base a site build was made with (its marker), or null for an older build that did not say. */
export function builtBase(dir: string): string | null {
  try {
    const base = (JSON.parse(readFileSync(path.join(dir, SITE_MARKER), 'utf8')) as { base?: unknown }).base;
    return typeof base === 'string' ? base : null;
  } catch {
    return null;
  }
}

export function mermaidDist(): string {
  return path.dirname(fileURLToPath(import.meta.resolve('mermaid')));
}

/** Serves mermaid's prebuilt ESM (never bundled by Vite) for pages that render diagrams client-side. */
export function copyMermaid(out: string): void {
  const target = path.join(out, '_codelabgen', 'mermaid');
  mkdirSync(path.join(target, 'chunks'), { recursive: true });
  cpSync(path.join(mermaidDist(), 'mermaid.esm.min.mjs'), path.join(target, 'mermaid.esm.min.mjs'));
  cpSync(path.join(mermaidDist(), 'chunks', 'mermaid.esm.min'), path.join(target, 'chunks', 'mermaid.esm.min'), { recursive: true });
}

/**
 * Astro empties its output folder before it writes, so `site build` has it build into a fresh
 * sibling folder that replaces `out` only once the pages, search index and marker are complete: a
 * failed or killed build leaves the previous site as it was.
 */
function stagingFolder(out: string): string {
  mkdirSync(path.dirname(out), { recursive: true });
  return mkdtempSync(path.join(path.dirname(out), `.${path.basename(out)}.building-`));
}

function replaceOutput(staging: string, out: string, base: string): void {
  mkdirSync(path.join(staging, path.dirname(SITE_MARKER)), { recursive: true });
  // The base it was built under: `site preview` serves it there without being told again.
  writeFileSync(path.join(staging, SITE_MARKER), `${JSON.stringify({ generator: 'codelabgen', base })}\n`);
  if (!existsSync(out)) {
    renameSync(staging, out);
    return;
  }
  const old = `${staging}.old`;
  renameSync(out, old);
  renameSync(staging, out);
  rmSync(old, { recursive: true, force: true });
}

/**
 * Refusals that need no Astro: an .mdx doc without site.mdx: true (pipeline/read/index.ts), a logo or
 * favicon that is not a regular file inside the course (assets.ts). A course that cannot be read is
 * left to the worker, which says so under its progress line.
 */
async function refuseEarly(root: string): Promise<void> {
  const { readCourse, readSiteAssets, refuseUnallowedMdx } = await import('../read/index.ts');
  let view: ReturnType<typeof readCourse>;
  try {
    view = readCourse(root);
  } catch {
    return;
  }
  refuseUnallowedMdx(view);
  readSiteAssets(view.course.root, view.config.site);
}

export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildResult> {
  const out = checkOut(options.root, options.out);
  const base = normalizeBase(options.base);
  const worker = await workerAfter(refuseEarly(options.root), 'build', options.env ?? process.env);
  let staging: string | null = null;
  let running: Running | null = null;
  let unlock: (() => void) | null = null;
  try {
    const { diagramCacheDir } = await import('./diagrams.ts');
    const { holdLock } = await import('../store/lock.ts');
    const command = options.command ?? 'codelabgen site build';
    const job = siteJob('build', options.root, options.env ?? process.env, { out: '', publishedOut: out, strictDiagrams: options.strictDiagrams ?? false, base, site: options.site, drafts: options.drafts, stats: options.stats, diagramCache: diagramCacheDir(options.env), command });
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

/** Moves a finished build to the (empty) staging folder: a rename, or a copy across file systems. */
function moveInto(built: string, staging: string): void {
  try {
    renameSync(built, staging);
  } catch (error) {
    if (errorCode(error) !== 'EXDEV') throw error;
    cpSync(built, staging, { recursive: true });
    rmSync(built, { recursive: true, force: true });
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
export async function serveSite(mode: 'dev' | 'preview', options: ServeOptions): Promise<{ stop(): Promise<void>; done: Promise<void> }> {
  if (mode === 'preview' && !existsSync(path.join(options.out, 'index.html'))) {
    refuse(`--out ${options.out}: no built site there`, `build it first: codelabgen site build --out ${options.out}`);
  }
  const forked = await workerAfter(mode === 'dev' ? refuseEarly(options.root) : Promise.resolve(), mode, options.env ?? process.env);
  let job: SiteJob;
  try {
    const { diagramCacheDir } = await import('./diagrams.ts');
    job = siteJob(mode, options.root, options.env ?? process.env, { out: options.out, base: normalizeBase(options.base), drafts: mode === 'dev', stats: false, diagramCache: diagramCacheDir(options.env), command: `codelabgen site ${mode}`, port: options.port, host: options.host, open: options.open });
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

/** Content caches unused this long are removed (courses in temp folders come and go). */
const CACHE_KEEP_MS = 7 * 24 * 3600_000;
const CACHE_LAYOUT = 'v2';

function siteJob(mode: SiteJob['mode'], root: string, env: NodeJS.ProcessEnv, rest: Omit<SiteJob, 'mode' | 'course' | 'cacheDir'>): SiteJob {
  const course = realpathSync(root);
  // CACHE_LAYOUT changes when what a cache holds would mislead a newer build (v2: paths in the
  // content store are relative to the cache's own Astro root, see worker.ts).
  const key = createHash('sha256').update(`${CACHE_LAYOUT}\n${course}\n${rest.drafts}\n${rest.base}`).digest('hex').slice(0, 16);
  const cacheDir = path.join(siteCacheRoot(env, packageRoot()), `content-${key}`);
  sweepCaches(cacheDir, course);
  return { mode, course, cacheDir, ...rest };
}

/**
 * Marks this run's content cache as used (and records whose it is); removes caches unused for
 * CACHE_KEEP_MS or whose course folder is gone (courses in temp folders), and run folders left by
 * a killed CLI.
 */
export function sweepCaches(current: string, course: string): void {
  mkdirSync(current, { recursive: true });
  writeFileSync(path.join(current, 'course'), course);
  const now = new Date();
  utimesSync(current, now, now);
  for (const name of readdirSync(path.dirname(current))) {
    const dir = path.join(path.dirname(current), name);
    // run-* folders are left behind only when the CLI was killed mid-run
    if (!(name.startsWith('content-') || name.startsWith('run-')) || dir === current) continue;
    try {
      const old = now.getTime() - statSync(dir).mtimeMs > CACHE_KEEP_MS;
      if (old || (name.startsWith('content-') && courseGone(dir))) rmSync(dir, { recursive: true, force: true });
    } catch {
      // another build removed or is using it: leave it
    }
  }
}

/** The cache records its course folder, and that folder no longer exists. */
function courseGone(cache: string): boolean {
  try {
    return !existsSync(readFileSync(path.join(cache, 'course'), 'utf8'));
  } catch {
    return false; // no record (an older cache): left to the age limit
  }
}

type Running = Promise<void> & { stop(): Promise<void> };

interface Worker {
  /** Sends the job; settles when the worker exits. */
  run(job: SiteJob, onMessage: (message: WorkerMessage) => void): Running;
  /** Ends a worker that was never given a job (a refusal came first). */
  cancel(): void;
}

/**
 * Forks the worker in a private folder (Astro's prerender bundle goes to <cwd>/.astro/). It starts
 * loading Astro at once, so the CLI's own checks before the job overlap with that.
 */
function forkWorker(mode: SiteJob['mode'], env: NodeJS.ProcessEnv): Worker {
  const work = mkdtempSync(path.join(siteCacheRoot(env, packageRoot()), 'run-'));
  const entry = import.meta.url.endsWith('.ts') ? fileURLToPath(new URL('./worker.ts', import.meta.url)) : path.join(packageRoot(), 'dist', 'site-worker.mjs');
  // The worker loads Astro, Vite and the site's dependencies: with the CLI's compile cache (the
  // launcher's, bin/codelabgen.cjs) Node keeps their compiled code between runs, about 0.15 s a build.
  const compileCache = env.NODE_COMPILE_CACHE ?? module.getCompileCacheDir?.();
  const child = fork(entry, [], { cwd: work, env: { ...env, ASTRO_TELEMETRY_DISABLED: '1', ...(compileCache ? { NODE_COMPILE_CACHE: compileCache } : {}) }, stdio: mode === 'build' ? ['ignore', 'ignore', 'pipe', 'ipc'] : ['ignore', 'inherit', 'inherit', 'ipc'] });
  let failure: Error | null = null;
  let stderr = '';
  let onMessage: (message: WorkerMessage) => void = () => {};
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.on('message', (message: WorkerMessage) => {
    if (message.kind === 'failed') failure = new RelayedError(message.exitCode, message.error, message.hints);
    else onMessage(message);
  });
  // The job sent to a worker that already died (its exit says why, from its stderr).
  child.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      rmSync(work, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  return {
    cancel() {
      child.kill('SIGKILL');
      rmSync(work, { recursive: true, force: true }); // the CLI may exit before the child's exit event
    },
    run(job, listener) {
      onMessage = listener;
      child.send(job);
      const running = exited.then(({ code, signal }) => {
        if (failure) throw failure;
        if (code === 0 || signal === 'SIGTERM') return;
        const last = stderr.trim().split('\n').filter((line) => line.trim() !== '').at(-1) ?? `exit ${code ?? signal}`;
        throw new ChecksFailedError(`site ${job.mode} failed: ${last.trim()}`);
      }) as Running;
      running.stop = async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await running.catch(() => {});
      };
      return running;
    },
  };
}

/** Forks the worker before the CLI's checks (refuseEarly), and ends it when they refuse. */
async function workerAfter(checks: Promise<void>, mode: SiteJob['mode'], env: NodeJS.ProcessEnv): Promise<Worker> {
  const worker = forkWorker(mode, env);
  try {
    await checks;
  } catch (error) {
    worker.cancel();
    throw error;
  }
  return worker;
}
