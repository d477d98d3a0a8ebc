// One Astro run (build, dev or preview) of the course site, forked by pipeline/site/worker-fork.ts: it
// receives a SiteJob, reports progress and the result over IPC, and turns every failure into one
// `failed` message (never a stack trace), then exits.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AstroInlineConfig } from 'astro';
import { astroSubRequests } from './astro-subrequests.ts';
import { dependencyFolders } from './cache-root.ts';
import { packageRoot, siteDir } from './package-root.ts';
import type { SiteBuildResult, SiteJob, WorkerMessage } from './site-job.ts';
import { failure } from './failure.ts';
import codelabgen, { type BuildSummary } from './integration.ts';
import { listPages, pageWeights } from './stats.ts';

// Astro loads while the CLI takes the build's lock and sends the job (pipeline/site/worker-fork.ts forkWorker).
const astroLoading = import('astro');
astroLoading.catch(() => {}); // a failure is reported by run(), which awaits it

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

async function fail(error: unknown, mode: string): Promise<never> {
  await send({ kind: 'failed', ...failure(error, mode) });
  process.exit(1);
}

function astroConfig(
  job: SiteJob,
  integration: ReturnType<typeof codelabgen> | null,
  integrations: AstroInlineConfig['integrations'] = [],
): AstroInlineConfig {
  // Astro writes .astro/ (content-modules.mjs, content-assets.mjs: which module renders which
  // entry) under its root, so each course gets a root of its own: builds of two courses at once
  // must not overwrite each other's. The pages and components stay in the package's site folder
  // (siteDir()), outside that root: their <script>/<style> sub-requests need /@fs ids
  // (pipeline/site/astro-subrequests.ts; the integration gives them to the package's pages in a host's build).
  const root = path.join(job.cacheDir, 'root');
  mkdirSync(root, { recursive: true });
  return {
    root,
    configFile: false,
    srcDir: siteDir(),
    // Paths that end up in the bundle stay the same from run to run (else no page is ever kept).
    publicDir: path.join(job.cacheDir, 'public'),
    outDir: job.out,
    base: job.base,
    ...(job.site ? { site: job.site } : {}),
    cacheDir: job.cacheDir,
    trailingSlash: 'ignore',
    // Two pages at a time: one waiting for its diagrams (pipeline/site/diagrams.ts draws them
    // meanwhile) does not hold up the next; diagrams.css waits for them all.
    build: { format: 'directory', inlineStylesheets: 'never', concurrency: 2 },
    devToolbar: { enabled: false },
    // Lesson pages give a cacheKey (their entry digests): unchanged ones are restored, not rendered.
    experimental: { incrementalBuild: true },
    logLevel: job.mode === 'build' ? 'silent' : 'info',
    integrations: [...(integration ? [integration] : []), ...(integrations ?? [])],
    vite: {
      build: { chunkSizeWarningLimit: 4000 },
      logLevel: 'error',
      cacheDir: path.join(job.cacheDir, 'vite'),
      plugins: [astroSubRequests(root)],
      // The dev server serves files outside its root by /@fs only from these folders: the root under
      // the cache is no project, so Vite's default (its workspace) would leave out the site's own
      // stylesheet in an installed package (a 403). Never the course (its docs reach pages through
      // the loader, its images as copies under the root) nor the project it is installed in: any
      // client of the server (`--host 0.0.0.0`: the network) could read every file there.
      server: { fs: { allow: [root, siteDir(), ...dependencyFolders(packageRoot())] } },
    },
    ...(job.port || job.host || job.open
      ? {
          server: {
            ...(job.port ? { port: job.port, host: '127.0.0.1' } : {}),
            ...(job.host ? { host: job.host } : {}),
            ...(job.open ? { open: true } : {}),
          },
        }
      : {}),
  };
}

async function run(job: SiteJob): Promise<void> {
  const started = Date.now();
  let summary: BuildSummary | null = null;
  const integration = codelabgen({
    course: job.course,
    drafts: job.drafts,
    diagramCache: job.diagramCache,
    command: job.command,
    ...(job.publishedOut ? { recordedOut: job.publishedOut } : {}),
    strictDiagrams: job.strictDiagrams ?? false,
    progress: (step, detail) => void send({ kind: 'progress', step, detail }),
    onBuilt: (built) => (summary = built),
  });
  const astro = await astroLoading;
  if (job.mode === 'build') {
    const sitemap = job.site ? [(await import('@astrojs/sitemap')).default()] : [];
    await astro.build(astroConfig(job, integration, sitemap));
    if (summary === null) throw new Error('the codelabgen integration did not finish the build');
    const done: BuildSummary = summary;
    const result: SiteBuildResult = {
      out: job.out,
      pages: listPages(job.out),
      ...done,
      weights: job.stats ? pageWeights(job.out, job.base) : null,
      ms: Date.now() - started,
    };
    await send({ kind: 'built', result });
    // A pending content-store write may still be armed: it lands in the kept cacheDir, or dies here.
    process.exit(0);
  }
  const server =
    job.mode === 'dev'
      ? await astro.dev(astroConfig(job, integration))
      : // A preview serves a built folder: it needs no course (the one it was built from may be elsewhere).
        await astro.preview(astroConfig(job, null));
  process.once('SIGTERM', () => void server.stop().finally(() => process.exit(0)));
  await send({ kind: 'ready' });
}

// The CLI went away (killed): so does its Astro run.
process.once('disconnect', () => process.exit(0));
process.once('message', (job: SiteJob) => {
  process.on('uncaughtException', (error) => void fail(error, job.mode));
  process.on('unhandledRejection', (error) => void fail(error, job.mode));
  run(job).catch((error: unknown) => fail(error, job.mode));
});
