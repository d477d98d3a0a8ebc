// `site build|dev|preview` orchestration: prepare (read + check), render diagrams in one batch,
// run Astro through its programmatic API (imported only here), index for search, measure weight.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChecksFailedError, refuse } from '../errors.ts';
import { diagramCacheDir, findChromium, readCachedDiagram, renderDiagrams, type DiagramStats } from './diagrams.ts';
import { prepareSite, type Prepared } from './prepare.ts';
import { indexSite } from './search.ts';
import { listPages, pageWeights, type PageWeight } from './stats.ts';

export type BuildStep = 'loading' | 'diagrams' | 'pages' | 'search' | 'done';
export type Progress = (step: BuildStep, detail: string) => void;

export interface SiteBuildOptions {
  root: string;
  out: string;
  base: string;
  site?: string | undefined;
  drafts: boolean;
  stats: boolean;
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
  searchPages: number;
  weights: PageWeight[] | null;
  ms: number;
}

/** Repository root: where astro.config.mjs and site/ live (works from source and from dist/). */
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
  const course = realpathSync(courseRoot);
  const resolved = resolveExisting(out);
  const fix = 'pass a new or empty folder outside the course, e.g. --out ../site-out';
  if (isWithin(course, resolved)) refuse(`--out ${out} is inside the course directory; the site never writes into the course`, fix);
  if (isWithin(resolved, course)) refuse(`--out ${out} contains the course directory ${course}; a build replaces its output folder`, fix);
  if (!existsSync(resolved)) return resolved;
  if (!statSync(resolved).isDirectory()) refuse(`--out ${out} is not a folder`, fix);
  if (readdirSync(resolved).length > 0 && !isSiteBuild(resolved)) {
    refuse(`--out ${out} is a non-empty folder that is not an earlier codelabgen site build (no ${SITE_MARKER}); a build replaces its output folder`, `${fix}, or remove that folder yourself`);
  }
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

/** The absolute path with every existing part's symlinks resolved (the rest may not exist yet). */
function resolveExisting(target: string): string {
  const absolute = path.resolve(target);
  let probe = absolute;
  while (!existsSync(probe)) probe = path.dirname(probe);
  return path.join(realpathSync(probe), path.relative(probe, absolute));
}

function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Astro empties its output folder before it writes; it builds into a fresh sibling folder that
 * replaces `out` only once the build, search index and marker are complete, so a failed or killed
 * build leaves the previous site as it was.
 */
function stagingFolder(out: string): string {
  mkdirSync(path.dirname(out), { recursive: true });
  return mkdtempSync(path.join(path.dirname(out), `.${path.basename(out)}.building-`));
}

function replaceOutput(staging: string, out: string): void {
  mkdirSync(path.join(staging, path.dirname(SITE_MARKER)), { recursive: true });
  writeFileSync(path.join(staging, SITE_MARKER), `${JSON.stringify({ generator: 'codelabgen' })}\n`);
  if (!existsSync(out)) {
    renameSync(staging, out);
    return;
  }
  const old = `${staging}.old`;
  renameSync(out, old);
  renameSync(staging, out);
  rmSync(old, { recursive: true, force: true });
}

export async function buildSite(options: SiteBuildOptions): Promise<SiteBuildResult> {
  const started = Date.now();
  const env = options.env ?? process.env;
  const progress = options.progress ?? (() => {});
  const out = checkOut(options.root, options.out);
  const base = normalizeBase(options.base);
  progress('loading', 'reading the course');
  const prepared = prepareSite(options.root, options.drafts);
  if (prepared.problems.length > 0) throw contentProblems(prepared.problems);
  const cacheDir = diagramCacheDir(env);
  progress('diagrams', `${prepared.diagrams.length} diagrams`);
  const diagrams = await renderDiagrams(prepared.diagrams, cacheDir, findChromium(env));
  const diagramErrors = diagramProblems(prepared, cacheDir);
  if (diagramErrors.length > 0 && !options.drafts) throw contentProblems(diagramErrors);
  progress('pages', `${prepared.included.length} lessons`);
  const staging = stagingFolder(out);
  let searchPages: number;
  try {
    await runAstro('build', { ...options, out: staging, base, cacheDir });
    if (diagrams.client > 0) copyMermaid(staging);
    progress('search', 'indexing');
    searchPages = await indexSite(staging);
    replaceOutput(staging, out);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const pages = listPages(out);
  progress('done', `${pages.length} pages`);
  return { out, pages, lessons: prepared.included.map((l) => l.id), excluded: prepared.excluded, diagrams, diagramErrors, searchPages, weights: options.stats ? pageWeights(out, base) : null, ms: Date.now() - started };
}

function contentProblems(problems: string[]): ChecksFailedError {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more: ${problems.slice(1, 4).join('; ')})` : '';
  return new ChecksFailedError(`site build failed: ${problems[0]}${more}`);
}

function diagramProblems(prepared: Prepared, cacheDir: string): string[] {
  return prepared.diagrams.flatMap((d) => {
    const error = readCachedDiagram(cacheDir, d.hash)?.error;
    return error ? [`lesson ${d.lesson} diagram ${d.label} ("${d.title}"): ${error}`] : [];
  });
}

/** Serves mermaid's prebuilt ESM (never bundled by Vite) for pages that render diagrams client-side. */
export function copyMermaid(out: string): void {
  const dist = path.join(path.dirname(fileURLToPath(import.meta.resolve('mermaid'))));
  const target = path.join(out, '_codelabgen', 'mermaid');
  mkdirSync(path.join(target, 'chunks'), { recursive: true });
  cpSync(path.join(dist, 'mermaid.esm.min.mjs'), path.join(target, 'mermaid.esm.min.mjs'));
  cpSync(path.join(dist, 'chunks', 'mermaid.esm.min'), path.join(target, 'chunks', 'mermaid.esm.min'), { recursive: true });
}

interface AstroRun {
  root: string;
  out: string;
  base: string;
  site?: string | undefined;
  drafts: boolean;
  cacheDir: string;
  port?: number;
}

/** A private folder per run under the package's node_modules (so bundles resolve its packages). */
function workDir(repo: string): string {
  const parent = path.join(repo, 'node_modules', '.cache', 'codelabgen');
  try {
    mkdirSync(parent, { recursive: true });
    return mkdtempSync(path.join(parent, 'astro-'));
  } catch {
    return mkdtempSync(path.join(os.tmpdir(), 'codelabgen-astro-')); // read-only install
  }
}

/** Runs Astro with the course handed over in $CODELABGEN_SITE and a private cache folder. */
export async function runAstro(mode: 'build' | 'dev' | 'preview', run: AstroRun): Promise<{ stop(): Promise<void> } | null> {
  const repo = packageRoot();
  const work = workDir(repo);
  const publicDir = path.join(work, 'public');
  mkdirSync(publicDir);
  if (mode === 'dev') copyMermaid(publicDir);
  process.env.CODELABGEN_SITE = JSON.stringify({ course: realpathSync(run.root), drafts: run.drafts || mode === 'dev', dev: mode === 'dev', diagramCache: run.cacheDir });
  process.env.CODELABGEN_SITE_PUBLIC = publicDir;
  process.env.CODELABGEN_SITE_SITEMAP = run.site ? '1' : '0';
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const astro = await import('astro');
  const config = {
    root: repo,
    configFile: 'astro.config.mjs',
    outDir: run.out,
    base: run.base,
    ...(run.site ? { site: run.site } : {}),
    cacheDir: path.join(work, 'cache'),
    logLevel: mode === 'build' ? ('error' as const) : ('info' as const),
    vite: { cacheDir: path.join(work, 'vite') },
    ...(run.port ? { server: { port: run.port, host: '127.0.0.1' } } : {}),
  };
  const cleanup = () => rmSync(work, { recursive: true, force: true });
  if (mode === 'build') {
    // Astro puts its prerender bundle in <cwd>/.astro/ when outDir is outside the cwd: a private
    // cwd keeps concurrent builds apart (the bundle still resolves node_modules from the repo).
    const cwd = process.cwd();
    process.chdir(work);
    try {
      await astro.build(config);
    } finally {
      process.chdir(cwd);
      cleanup();
    }
    return null;
  }
  const server = mode === 'dev' ? await astro.dev(config) : await astro.preview(config);
  return { stop: async () => { await server.stop(); cleanup(); } };
}
