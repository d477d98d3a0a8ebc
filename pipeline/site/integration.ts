// The codelabgen Astro integration (`codelabgen/astro`): mounts a course's pages in an Astro site.
// Options reach the pages through a virtual module; a build checks the course and renders its
// diagrams first, then adds the search index, mermaid fallback and site.build event when done.
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import expressiveCode from 'astro-expressive-code';
import { commit, courseAt, escapeControl, isInside, loadConfig, ChecksFailedError, decideSiteBuild } from '../index.ts';
import { reloadModules, reloadStore, servedGeneration } from './dev-store.ts';
import {
  DEV_PROBLEMS_EVENT,
  DEV_SERVED_EVENT,
  DEV_STALE_EVENT,
  type DevWatcher,
  diagramErrors as diagramProblemsOf,
  watchCourse,
} from './dev-watch.ts';
import { imageStageDir } from './doc-images.ts';
import {
  diagramCacheDir,
  findChromium,
  leftToBrowserWarning,
  failingAtTheirPage,
  startDiagrams,
  type DiagramJob,
} from './diagrams.ts';
import { cssLayerPlugin, STARLIGHT_EC_LAYER } from './css-layer.ts';
import { expressiveCodeOptions } from './expressive-code.ts';
import { copyMermaid, mermaidDist } from './mermaid-assets.ts';
import { checkOutsideCourse } from './out-folder.ts';
import { siteDir, siteImports, siteModule } from './package-root.ts';
import { normalizePrefix, optionsPlugin, type SiteOptions } from './options.ts';
import * as contentSchemas from '../../content-schemas/index.ts';
import * as pipelineRead from '../read/index.ts';
import { readSiteAssets } from './assets.ts';
import { prepareSite, type Prepared } from './prepare.ts';
import { PROGRESS_EVENTS, reviewPagePath, serveProgress } from './progress-live.ts';
import { indexSite } from './search.ts';
import { sanitizeSvgFiles } from './svg-sanitize.ts';
import { restrictedGuardPlugin } from './restricted-guard.ts';
import { svgDevGuard } from './svg-dev-guard.ts';
import { astroSubRequests } from './astro-subrequests.ts';
import { listPages } from './stats.ts';

import type { Progress } from './build-step.ts';
import type { BuildSummary } from './site-job.ts';

export type { BuildStep, Progress } from './build-step.ts';

/** For a Starlight host's ec.config.mjs: the course pages' code blocks number their lines with it (docs/site.md). */
export { pluginLineNumbers } from '@expressive-code/plugin-line-numbers';

export interface CodelabgenOptions {
  /** The course folder, relative to the Astro project root (or absolute). */
  course: string;
  /** Where the course goes under the site's base, e.g. '/course'; default: the site root. */
  prefix?: string;
  /** Every lesson with its stage instead of done lessons only (always on in `astro dev`). */
  drafts?: boolean;
  /** Build-time diagram cache; default $CODELABGEN_DIAGRAM_CACHE or ~/.cache/codelabgen/diagrams. */
  diagramCache?: string;
  /**
   * A course mounted under a prefix links back to the host site from its header: to the site's base,
   * labelled "Home", unless given another `href` or `label`; `false` for no link.
   */
  home?: { href?: string; label?: string } | false;
  /** The command line recorded with the site.build event. */
  command?: string;
  /** `codelabgen site build` only: the folder the site.build event names (Astro's outDir is a staging
   * folder). Without it (a host's build) nothing is recorded in the course, and a build of 0 lessons
   * is refused in the integration's words, or only warned about with `allowEmpty`. */
  recordedOut?: string;
  /**
   * A host's publish build of a course with no lesson to publish fails with one line saying why and
   * what to set; `true` builds the course's home (every lesson "coming soon") with that line as a warning.
   */
  allowEmpty?: boolean;
  /** Fail before anything is written when a diagram would be drawn in the reader's browser. */
  strictDiagrams?: boolean;
  progress?: Progress;
  /** Called at the end of a successful build (the CLI prints it). */
  onBuilt?: (summary: BuildSummary) => void;
}

export type { BuildSummary };

/**
 * A build whose lessons show no doc image gets site/lib/image-files-off.ts for image-files.ts, so
 * astro:assets stays out of it (it costs about a second on every build, rebuilds included). `site
 * dev` and builds with images keep the real one. (In the package both are compiled to .js.)
 */
export function imagesOffPlugin(current: () => Prepared | null) {
  const real = siteModule('lib/image-files.ts');
  return {
    name: 'codelabgen:images-off',
    enforce: 'pre' as const,
    async resolveId(
      this: { resolve(source: string, importer?: string, options?: object): Promise<{ id: string } | null> },
      source: string,
      importer: string | undefined,
      options: object,
    ) {
      const prepared = current();
      if (!/image-files\.[jt]s$/.test(source) || prepared === null || prepared.images > 0) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === real ? siteModule('lib/image-files-off.ts') : null;
    },
  };
}

const SHARED_MODULES = Symbol.for('codelabgen.sharedModules');

/**
 * The site's pages and collections import content-schemas/index.ts and pipeline/read/index.ts (in
 * the package: their dist/ builds). Vite would compile both, with everything they import (about 60
 * files), on every build and dev start, and bundle them into the pages again: about a second of
 * CPU (docs/performance.md). Each is served instead as a few lines that re-export the module this
 * integration already loaded (one instance in the process: the course read before Astro starts and
 * the content loaders share it), handed over on globalThis.
 */
export function sharedPipelinePlugin() {
  const files = siteImports();
  const modules: Record<string, Record<string, unknown>> = {
    [files.contentSchemas]: contentSchemas,
    [files.pipelineRead]: pipelineRead,
  };
  Reflect.set(globalThis, SHARED_MODULES, modules);
  return {
    name: 'codelabgen:shared-pipeline',
    enforce: 'pre' as const,
    load(id: string) {
      const module = Object.hasOwn(modules, id) ? modules[id] : undefined;
      if (module === undefined) return null;
      const lines = [
        `const shared = globalThis[Symbol.for(${JSON.stringify(SHARED_MODULES.description)})][${JSON.stringify(id)}];`,
      ];
      for (const name of Object.keys(module))
        lines.push(name === 'default' ? 'export default shared.default;' : `export const ${name} = shared.${name};`);
      return lines.join('\n');
    },
  };
}

const ROUTES = [
  'index',
  'lessons/[lesson]',
  'lessons/[lesson]/files',
  'glossary',
  'sources',
  'report',
  'progress',
  'progress/[artifact]',
  'search',
];
/** Routes of the producer view: drafts builds, site dev, and publish builds with site.report: true. */
const PRODUCER_ROUTES = new Set(['report', 'progress', 'progress/[artifact]']);

export default function codelabgen(options: CodelabgenOptions): AstroIntegration {
  const progress = options.progress ?? (() => {});
  const prefix = normalizePrefix(options.prefix ?? '');
  let site: SiteOptions;
  let prepared: Prepared | null = null;
  let summary: Omit<
    BuildSummary,
    'diagrams' | 'diagramErrors' | 'browserDiagrams' | 'lessonPagesRendered' | 'searchPages' | 'searchKept' | 'recorded'
  > | null = null;
  let diagrams: DiagramJob | null = null;
  let chromium: string | null = null;
  let courseWatcher: DevWatcher | undefined;
  let liveBoard: ReturnType<typeof serveProgress> | undefined;
  let cacheDir: string | undefined;
  let assetsDir = '_astro';
  return {
    name: 'codelabgen',
    hooks: {
      'astro:config:setup': async ({ config, command, injectRoute, updateConfig, logger }) => {
        const dev = command === 'dev';
        site = {
          course: path.resolve(fileURLToPath(config.root), options.course),
          drafts: (options.drafts ?? false) || dev,
          dev,
          diagramCache: options.diagramCache ?? diagramCacheDir(),
          imageStage: imageStageDir(fileURLToPath(config.cacheDir)),
          prefix,
          hostHome:
            prefix === '' || options.home === false
              ? null
              : {
                  href: options.home?.href ?? `${config.base.replace(/\/+$/, '')}/`,
                  label: options.home?.label ?? 'Home',
                },
        };
        // Learner builds have no report page unless config.yaml opts in (site.report: true).
        const courseConfig = loadConfig(courseAt(site.course)).site;
        const report = site.drafts || courseConfig.report;
        // A build has a Glossary and a Sources page only when they have entries (`site dev` always: they may come).
        const course = courseAt(site.course);
        const empty = new Set(
          dev
            ? []
            : [
                ...(pipelineRead.readGlossary(course).length === 0 ? ['glossary'] : []),
                ...(pipelineRead.readSources(course).length === 0 ? ['sources'] : []),
              ],
        );
        for (const route of ROUTES.filter((r) => (!PRODUCER_ROUTES.has(r) || report) && !empty.has(r)))
          injectRoute({
            pattern: `${prefix}/${route === 'index' ? '' : route}` || '/',
            entrypoint: siteModule(`routes/${route}.astro`),
            prerender: true,
          });
        if (prefix === '')
          injectRoute({ pattern: '/404', entrypoint: siteModule('routes/404.astro'), prerender: true });
        // One file each, fetched once per site: the pages' script, the sidebar's lessons, the diagrams' styles.
        for (const [file, entry] of [
          ['page.js', 'page.js.ts'],
          ['sidebar.json', 'sidebar.json.ts'],
          ['diagrams.css', 'diagrams.css.ts'],
        ])
          injectRoute({
            pattern: `${prefix}/_codelabgen/${file}`,
            entrypoint: siteModule(`routes/${entry}`),
            prerender: true,
          });
        // Each lesson's code, beside its page (site/routes/lesson-code.zip.ts).
        injectRoute({
          pattern: `${prefix}/lessons/[lesson]/[folder].zip`,
          entrypoint: siteModule('routes/lesson-code.zip.ts'),
          prerender: true,
        });
        // The settings hold functions: the <Code> component (run in Vite) only gets them as an import.
        const ec = expressiveCode({
          customConfigPreprocessors: {
            preprocessAstroIntegrationConfig: ({ ecConfig }) => ({ ...(ecConfig as object), ...expressiveCodeOptions }),
            preprocessComponentConfig:
              `import { expressiveCodeOptions } from ${JSON.stringify(siteImports().expressiveCode)}; export ` +
              'default ({ ecConfig }) => ({ ...ecConfig, ...expressiveCodeOptions });',
          },
        });
        const hasEc = config.integrations.some(
          (i) => i.name === 'astro-expressive-code' || i.name === '@astrojs/starlight',
        );
        const inStarlight = config.integrations.some((i) => i.name === '@astrojs/starlight');
        // .mdx docs (site.mdx: true) are compiled by @astrojs/mdx: added here unless the site has it.
        const hasMdx = config.integrations.some((i) => i.name === '@astrojs/mdx');
        const mdx = courseConfig.mdx === true && !hasMdx ? [(await import('@astrojs/mdx')).default()] : [];
        updateConfig({
          integrations: [...(hasEc ? [] : [ec]), ...mdx],
          vite: {
            plugins: [
              astroSubRequests(fileURLToPath(config.root), siteDir()),
              optionsPlugin(site),
              imagesOffPlugin(() => prepared),
              sharedPipelinePlugin(),
              // site dev: first of all middlewares, a file outside Vite's allow-list gets a 403 that names
              // none of the allowed folders, a URL that does not decode a 400 (never Vite's page, with its stack).
              restrictedGuardPlugin(),
              ...(inStarlight ? [cssLayerPlugin(path.join(siteDir(), 'styles'), STARLIGHT_EC_LAYER)] : []),
            ],
            resolve: { noExternal: ['codelabgen'] },
          },
        });
        if (command === 'build') {
          progress('loading', 'reading the course');
          // The pages' links: the same base and prefix as site/lib/url.ts gives them, so the content
          // loaders can take these docs as rendered (pipeline/read/index.ts, PreparedCourse).
          const linkBase = `${config.base.replace(/\/+$/, '')}${prefix}/`;
          prepared = prepareSite(site.course, site.drafts, linkBase);
          pipelineRead.setPreparedCourse({
            root: site.course,
            linkBase,
            drafts: site.drafts,
            view: prepared.view,
            docs: prepared.docs,
          });
          readSiteAssets(site.course, loadConfig(courseAt(site.course)).site); // a bad logo or favicon is refused before anything is built
          if (prepared.problems.length > 0) throw contentProblems(prepared.problems);
          // A build of nothing is a mistake (a hand-written course under the `done` rule): `site build` refuses
          // it, and so does a host's build unless it allows an empty course (the host's other pages go out).
          if (!site.drafts && prepared.included.length === 0) {
            const host = options.recordedOut === undefined;
            const why = pipelineRead.nothingPublished(prepared.view, host);
            if (!host) throw new ChecksFailedError(why);
            if (options.allowEmpty !== true)
              throw new ChecksFailedError(
                `${why}; codelabgen({ allowEmpty: true }) builds the empty course with a warning`,
              );
            logger.warn(why.replace(/^codelabgen: /, ''));
          }
          // Syntax errors already in the cache stop a publish build here; new ones when the pages are made.
          const knownErrors = diagramProblemsOf(prepared, site.diagramCache);
          if (knownErrors.length > 0 && !site.drafts) throw contentProblems(knownErrors);
          progress('diagrams', `${prepared.diagrams.length} diagrams`);
          // Drawn while Astro bundles and renders: each lesson page waits only for its own diagrams.
          chromium = findChromium();
          diagrams = startDiagrams(prepared.diagrams, site.diagramCache, chromium);
          // Without a Chromium, --strict-diagrams knows at once (the job is already done).
          const undrawn = chromium === null ? (await diagrams.done).client : 0;
          if (options.strictDiagrams && undrawn > 0) throw leftToBrowser(undrawn);
          const publishing = prepared;
          pipelineRead.setDiagramJob(
            failingAtTheirPage(
              diagrams,
              site.diagramCache,
              site.drafts ? null : () => contentProblems(diagramProblemsOf(publishing, site.diagramCache)),
            ),
          );
          const shallowClone = pipelineRead.gitHistory(site.course) === 'shallow';
          // `codelabgen site build` prints it from the summary (its Astro logs nothing); a host's build says it here.
          if (shallowClone && options.onBuilt === undefined)
            logger.warn(`${pipelineRead.SHALLOW_CLONE_WARNING}; ${pipelineRead.SHALLOW_CLONE_HINT}`);
          summary = { lessons: prepared.included.map((l) => l.id), excluded: prepared.excluded, shallowClone };
          progress('pages', `${prepared.included.length} lessons`);
        }
      },
      'astro:config:done': ({ config, buildOutput }) => {
        cacheDir = fileURLToPath(config.cacheDir);
        assetsDir = config.build.assets;
        // Refuses an output folder inside or around the course before anything is written.
        if (buildOutput === 'static' && prepared !== null)
          checkOutsideCourse(site.course, fileURLToPath(config.outDir));
      },
      'astro:server:setup': ({ server, refreshContent }) => {
        void courseWatcher?.close();
        // The page's banner (site/components/DevLive.astro) follows the problems as they change.
        const onProblems = (problems: string[]) =>
          server.environments.client.hot.send({ type: 'custom', event: DEV_PROBLEMS_EVENT, data: { problems } });
        courseWatcher = watchCourse({
          refreshContent,
          site,
          // Course text (file names, problems) on the terminal: one line, control characters escaped.
          print: (line) => process.stderr.write(`${escapeControl(line)}\n`),
          onProblems,
          served: () => servedGeneration(server),
          reload: () => reloadStore(server),
          // DevLive.astro updates the open page on Vite's full reload.
          updatePages: () => server.environments.client.hot.send({ type: 'full-reload', path: '*' }),
          // ... and fetches it again until it shows the sync the pages serve.
          onServed: (sync) =>
            server.environments.client.hot.send({ type: 'custom', event: DEV_SERVED_EVENT, data: { sync } }),
          reloadModules: () => reloadModules(server),
        });
        // A page whose fetches of itself keep showing an older sync than the one served says so.
        const watching = courseWatcher;
        server.environments.client.hot.on(DEV_STALE_EVENT, (data: { shows?: unknown; served?: unknown }) =>
          watching.stale(typeof data?.shows === 'number' ? data.shows : null, Number(data?.served)),
        );
        const root = `${server.config.base.replace(/\/$/, '')}${prefix}/`;
        // Doc images come straight from the course folder here: an SVG among them must run nothing.
        server.middlewares.use(svgDevGuard);
        // The /progress/ board's live updates: a server-sent events stream fed by a tail of events.jsonl.
        liveBoard?.close();
        liveBoard = serveProgress(site.course, `${root}${PROGRESS_EVENTS}`, {
          lesson: (lesson) => pipelineRead.lessonLink(root, lesson),
          artifact: (file) => {
            const page = reviewPagePath(file);
            return page === null ? null : `${root}${page}`;
          },
        });
        server.middlewares.use(liveBoard.middleware);
        // Pages whose diagrams were not rendered at build time load mermaid's prebuilt ESM from here.
        const url = `${root}_codelabgen/mermaid/`;
        server.middlewares.use((req, res, next) => {
          if (!req.url?.startsWith(url)) return next();
          let dist: string;
          try {
            dist = mermaidDist();
          } catch {
            return next(); // mermaid (an optional peer) is not installed: dev-watch says so
          }
          const file = path.join(
            dist,
            path.normalize(decodeURIComponent(req.url.slice(url.length).split('?')[0] ?? '')),
          );
          if (!isInside(file, dist) || !existsSync(file)) return next();
          res.setHeader('content-type', 'text/javascript');
          createReadStream(file).pipe(res);
        });
      },
      'astro:server:done': async () => {
        await courseWatcher?.close();
        liveBoard?.close();
      },
      // A Chromium that cannot start fails the build here, before Vite bundles and renders the pages
      // (it failed in astro:build:done, after all of them); it launches while the content syncs, so a
      // good build seldom waits here.
      'astro:build:start': async () => {
        await diagrams?.started;
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (summary === null || prepared === null || diagrams === null) return;
        const drawn = await diagrams.done;
        const diagramErrors = diagramProblemsOf(prepared, site.diagramCache);
        if (diagramErrors.length > 0 && !site.drafts) throw contentProblems(diagramErrors);
        if (options.strictDiagrams && drawn.client > 0) throw leftToBrowser(drawn.client);
        const out = path.join(fileURLToPath(dir), prefix);
        if (drawn.client > 0) copyMermaid(out);
        // Said once: `codelabgen site build` prints it from the summary, a host's build here.
        const browserDiagrams = drawn.client > 0 ? leftToBrowserWarning(drawn.client, chromium) : null;
        if (browserDiagrams !== null && options.onBuilt === undefined) logger.warn(browserDiagrams);
        // Doc images are served from the site's own origin: an SVG among them must run nothing.
        await sanitizeSvgFiles(path.join(fileURLToPath(dir), assetsDir));
        progress('search', 'indexing');
        // `site build` replaces its output folder: an index made from the same pages is kept.
        const previous =
          options.recordedOut && cacheDir
            ? { out: path.join(options.recordedOut, prefix), record: path.join(cacheDir, 'search-index.json') }
            : undefined;
        const search = await indexSite(out, previous);
        const pages = listPages(out).length;
        // Only `codelabgen site build` records the build: a host's `astro build` leaves the course's files as they are.
        const recorded =
          !site.drafts &&
          options.recordedOut !== undefined &&
          (await recordBuild(
            site.course,
            options.recordedOut,
            pages,
            summary.lessons,
            options.command ?? 'codelabgen site build',
          ));
        progress('done', `${pages} pages`);
        options.onBuilt?.({
          ...summary,
          diagrams: drawn,
          diagramErrors,
          browserDiagrams,
          lessonPagesRendered: pipelineRead.lessonPagesRendered(),
          searchPages: search.pages,
          searchKept: search.kept,
          recorded,
        });
      },
    },
  };
}

function leftToBrowser(count: number): ChecksFailedError {
  return new ChecksFailedError(
    `site build: ${count} diagram${count === 1 ? '' : 's'} left to the reader's browser (no Chromium found, ` +
      `or it could not draw ${count === 1 ? 'it' : 'them'}); install Chromium or set $CODELABGEN_CHROMIUM, or ` +
      'drop --strict-diagrams to accept that',
  );
}

function contentProblems(all: string[]): ChecksFailedError {
  // One error line: a problem's own lines (mermaid's pointer at a parse error) joined.
  const problems = all.map((problem) => problem.replace(/\s*\n\s*/g, ' '));
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more: ${problems.slice(1, 4).join('; ')})` : '';
  return new ChecksFailedError(`site build failed: ${problems[0]}${more}`);
}

/** A publish build of a course with a state is recorded (so `assembly` can be left). */
async function recordBuild(
  root: string,
  out: string,
  pages: number,
  lessons: string[],
  command: string,
): Promise<boolean> {
  const course = courseAt(root);
  if (!existsSync(path.join(course.dir, 'state.json'))) return false;
  await commit(course, { command }, () => decideSiteBuild({ out, pages, lessons }));
  return true;
}
