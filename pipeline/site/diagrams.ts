// Build-time mermaid: the diagrams of a build drawn by one Chromium while Astro makes the pages (each
// page waits only for its own), and cached by content hash outside the course, so an unchanged
// diagram is never drawn again.
export { diagramCacheDir } from './diagram-cache.ts';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { isInside } from '../course/inside.ts';
import { CHROMIUM_PLACES } from './chromium.ts';
import { mermaidVersion, writeCacheEntry } from './diagram-cache.ts';
import { isThemedType, SENTINEL_VARIABLES, themeSvg } from './diagram-theme.ts';
import { ChecksFailedError, RefusalError } from '../course/errors.ts';
import type { DiagramRef } from './segments.ts';

export interface CachedDiagram {
  /** One SVG themed by CSS variables (pipeline/site/diagram-theme.ts), or null: then light + dark. */
  svg: string | null;
  light: string | null;
  dark: string | null;
  /** Mermaid's message when the source does not parse. */
  error: string | null;
}

export interface DiagramStats {
  rendered: number;
  cached: number;
  failed: number;
  /** Diagrams left to client-side mermaid (no Chromium, or the renderer could not draw them). */
  client: number;
}

export const MERMAID_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Bump when the render settings below change, so cached SVGs are drawn again. */
const RENDER_SETTINGS = 4;
/** Mermaid's dark edge-label background is too close to its text colour (WCAG contrast). */
const DARK_VARIABLES = { edgeLabelBackground: '#2d333b' };

/** The renderer a cached SVG comes from: mermaid's version and the render settings. */
export function diagramRenderer(): string {
  return `mermaid${mermaidVersion()}-r${RENDER_SETTINGS}`;
}

/** Cache entries are per renderer: a mermaid upgrade renders every diagram again. */
function cacheFile(dir: string, hash: string): string {
  return path.join(dir, `${hash}-${diagramRenderer()}.json`);
}

export function readCachedDiagram(dir: string, hash: string): CachedDiagram | null {
  try {
    return JSON.parse(readFileSync(cacheFile(dir, hash), 'utf8')) as CachedDiagram;
  } catch {
    return null; // not cached (or a torn file): render again
  }
}

function writeCachedDiagram(dir: string, hash: string, entry: CachedDiagram): void {
  writeCacheEntry(cacheFile(dir, hash), JSON.stringify(entry));
}

/**
 * mermaid and playwright are optional peer dependencies (about 200 MB together): a course without
 * diagrams, or whose diagrams are all in the cache, builds without them. mermaid draws the
 * diagrams (and is the reader's fallback), playwright drives the Chromium that draws them.
 */
export function missingDiagramPackages(
  chromium: string | null,
  resolve: (id: string) => string = (id) => createRequire(import.meta.url).resolve(id),
): string[] {
  const wanted: Array<[string, string]> = [
    ['mermaid', 'mermaid/dist/mermaid.min.js'],
    ...(chromium === null ? [] : [['playwright', 'playwright'] as [string, string]]),
  ];
  return wanted
    .filter(([, id]) => {
      try {
        resolve(id);
        return false;
      } catch {
        return true;
      }
    })
    .map(([name]) => name);
}

/** Refuses diagrams to draw when the packages drawing them are not installed (exit 2, nothing written). */
export function requireDiagramPackages(
  todo: DiagramRef[],
  chromium: string | null,
  resolve?: (id: string) => string,
): void {
  const first = todo[0];
  if (first === undefined) return;
  const missing = missingDiagramPackages(chromium, resolve);
  if (missing.length === 0) return;
  const count =
    todo.length === 1
      ? 'a mermaid diagram'
      : `${todo.length} mermaid diagrams (the first: lesson ${first.lesson} ${first.label})`;
  throw new RefusalError(
    `the course has ${count} to draw, but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not ` +
      'installed: diagrams need the optional packages mermaid and playwright',
    ['install them beside codelabgen: npm install --save-dev mermaid playwright'],
  );
}

export { findChromium } from './chromium.ts';

/**
 * What a build says once when it leaves diagrams to the reader's browser (their pages then load
 * mermaid from `_codelabgen/mermaid/` and draw them there): why, and how to draw them at build time.
 * `chromium` is the browser the build drew with (null: none, as findChromium with the same `env`).
 */
export function leftToBrowserWarning(
  count: number,
  chromium: string | null,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const them = count === 1 ? 'it' : 'them';
  const why =
    chromium === null && env.CODELABGEN_CHROMIUM === 'none'
      ? `CODELABGEN_CHROMIUM=none turns build-time drawing off; unset it to draw ${them} at build time`
      : chromium === null
        ? `no Chromium found (at ${CHROMIUM_PLACES}); install one with ` +
          'npx playwright install chromium, or set CODELABGEN_CHROMIUM to the path of a Chromium'
        : `the Chromium at ${chromium} could not draw ${them}; the next build tries again`;
  return `${count} mermaid diagram${count === 1 ? '' : 's'} left to the reader's browser, not drawn at build time: ${why}`;
}

const SYNTAX = /parse error|syntax error|lexical error|no diagram type detected|unknown diagram|expecting/i;

/** What a page shows for a diagram: one SVG themed by CSS variables, a light and a dark one, the error, or the source. */
export type DiagramOutcome = 'themed' | 'paired' | 'error' | 'client';

/**
 * The outcome of a diagram: from its cache entry, else what this renderer makes of it when it is
 * being drawn (a syntax error it finds shows up at the next read), else client-side mermaid.
 */
export function diagramOutcome(cached: CachedDiagram | null, source: string, beingDrawn: boolean): DiagramOutcome {
  if (cached !== null) return cached.error !== null ? 'error' : cached.svg !== null ? 'themed' : 'paired';
  if (!beingDrawn) return 'client';
  return isThemedType(source) ? 'themed' : 'paired';
}

/** A batch of diagrams being drawn: the build's pages wait only for their own (pipeline/read/index.ts). */
export interface DiagramJob {
  /** The counts the build prints, once every diagram is drawn; rejects when Chromium cannot start. */
  done: Promise<DiagramStats>;
  /** Settles when this diagram's cache entry is written, or when it will not be (drawn client-side). */
  drawn(hash: string): Promise<void>;
  /** The diagrams this job draws (the uncached ones, when there is a Chromium). */
  drawing: ReadonlySet<string>;
  /**
   * Settles once Chromium has started (at once when there is nothing to draw); rejects as `done` does
   * when it cannot start, so that a build can stop before it makes any page (pipeline/site/integration.ts).
   */
  started: Promise<void>;
}

/** Renders the uncached diagrams in one batch; returns the counts the build prints. */
export function renderDiagrams(
  diagrams: DiagramRef[],
  cacheDir: string,
  chromium: string | null,
): Promise<DiagramStats> {
  return startDiagrams(diagrams, cacheDir, chromium).done;
}

/** One mermaid render: a diagram's themed SVG, or the light or dark one of a pair. */
interface Draw {
  hash: string;
  role: 'themed' | 'light' | 'dark';
  source: string;
  config: Record<string, unknown>;
}

type Drawing = { svg: string } | { error: string };

/**
 * Starts drawing the uncached diagrams, in the order given (a page's diagrams come when the build
 * reaches it), with one Chromium and a page per core that loads mermaid once and draws one diagram
 * after another. Each diagram is written to the cache as soon as its renders are done.
 */
export function startDiagrams(diagrams: DiagramRef[], cacheDir: string, chromium: string | null): DiagramJob {
  const unique = new Map<string, DiagramRef>();
  for (const diagram of diagrams) unique.set(diagram.hash, diagram);
  const todo = [...unique.values()].filter((d) => readCachedDiagram(cacheDir, d.hash) === null);
  requireDiagramPackages(todo, chromium);
  const stats: DiagramStats = { rendered: 0, cached: unique.size - todo.length, failed: 0, client: 0 };
  if (todo.length === 0 || chromium === null) {
    stats.client = todo.length;
    return {
      done: Promise.resolve(stats),
      drawn: () => Promise.resolve(),
      drawing: new Set(),
      started: Promise.resolve(),
    };
  }
  const base = { startOnLoad: false, securityLevel: 'strict', fontFamily: 'system-ui, sans-serif' };
  const draws = todo.flatMap((d): Draw[] =>
    isThemedType(d.source)
      ? [
          {
            hash: d.hash,
            role: 'themed',
            source: d.source,
            config: { ...base, theme: 'base', themeVariables: SENTINEL_VARIABLES },
          },
        ]
      : [
          { hash: d.hash, role: 'light', source: d.source, config: { ...base, theme: 'default' } },
          {
            hash: d.hash,
            role: 'dark',
            source: d.source,
            config: { ...base, theme: 'dark', themeVariables: DARK_VARIABLES },
          },
        ],
  );
  // Each diagram being drawn: the renders it still waits for, their SVGs, and its settling.
  const waits = new Map<string, Promise<void>>();
  const open = new Map<
    string,
    { resolve(): void; left: number; svgs: Partial<Record<Draw['role'], string>>; error: string | null }
  >();
  for (const d of todo) {
    let resolve = () => {};
    waits.set(d.hash, new Promise<void>((settle) => (resolve = settle)));
    open.set(d.hash, { resolve, left: isThemedType(d.source) ? 1 : 2, svgs: {}, error: null });
  }
  const close = (hash: string, outcome: 'drawn' | 'unfinished') => {
    const diagram = open.get(hash)!;
    const { svgs, error } = diagram;
    if (outcome === 'unfinished') stats.client++;
    else if (error === null) {
      writeCachedDiagram(
        cacheDir,
        hash,
        svgs.themed !== undefined
          ? { svg: themeSvg(svgs.themed), light: null, dark: null, error: null }
          : { svg: null, light: svgs.light!, dark: svgs.dark!, error: null },
      );
      stats.rendered++;
    } else if (SYNTAX.test(error)) {
      writeCachedDiagram(cacheDir, hash, { svg: null, light: null, dark: null, error });
      stats.failed++;
    } else stats.client++; // the renderer could not draw it: the page falls back to client-side mermaid
    open.delete(hash);
    diagram.resolve();
  };
  const record = (draw: Draw, result: Drawing) => {
    const diagram = open.get(draw.hash)!;
    if ('svg' in result) diagram.svgs[draw.role] = result.svg;
    // mermaid's first three lines, as lines: a parse error points at the place on the third.
    else diagram.error ??= result.error.split('\n').slice(0, 3).join('\n').slice(0, 300);
    if (--diagram.left === 0) close(draw.hash, 'drawn');
  };
  let launched = () => {};
  const done = drawAll(draws, chromium, record, () => launched())
    .finally(() => {
      for (const hash of [...open.keys()]) close(hash, 'unfinished');
    })
    .then(() => stats);
  done.catch(() => {}); // the build awaits it; pages only wait for their own diagrams
  const started = Promise.race([new Promise<void>((resolve) => (launched = resolve)), done.then(() => {})]);
  started.catch(() => {}); // the build awaits it too
  return {
    done,
    drawn: (hash) => waits.get(hash) ?? Promise.resolve(),
    drawing: new Set(waits.keys()),
    started,
  };
}

/**
 * The diagram job as the pages see it: a build that cannot succeed stops at the first page that waits
 * for a diagram, instead of after every page is made (Astro ends a build at a page that throws). Such a
 * page throws when mermaid could not parse its diagram and `syntaxErrors` is given (a publish build: it
 * makes the error naming them), and when Chromium could not start: a second line behind the build's own
 * wait for `started` in astro:build:start, which stops such a build before any page. A diagram the
 * renderer left undrawn for another reason is drawn client-side, as before.
 */
export function failingAtTheirPage(job: DiagramJob, cacheDir: string, syntaxErrors: (() => Error) | null): DiagramJob {
  return {
    ...job,
    async drawn(hash) {
      await job.drawn(hash);
      if (!job.drawing.has(hash)) return;
      const cached = readCachedDiagram(cacheDir, hash);
      if (cached === null)
        // Not drawn: the whole job failed (it says why as it settles), or only this diagram (client-side).
        await job.done.catch((error: unknown) => {
          throw new ChecksFailedError(`site build failed: ${error instanceof Error ? error.message : String(error)}`);
        });
      else if (cached.error !== null && syntaxErrors !== null) throw syntaxErrors();
    },
  };
}

// The page mermaid draws in, served by Playwright from the package (no network, no file:// page).
const ORIGIN = 'https://codelabgen.invalid';
const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" ' +
  'href="/katex/katex.min.css"><script src="/mermaid.min.js"></script></head><body></body></html>';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

// Runs in the page (a string, so no bundler helper leaks into it). Every font is loaded first, so
// labels are measured alike in every page; mermaid draws into a hidden box; the SVG is parsed as
// HTML and serialized as XML, so it is well-formed whatever mermaid emitted.
const IN_PAGE = `(async () => {
  await Promise.all(Array.from(document.fonts, (font) => font.load()));
  const box = Object.assign(document.createElement('div'), { ariaHidden: 'true' });
  box.style.cssText = 'max-height:0;opacity:0;overflow:hidden';
  document.body.append(box);
  let current = null;
  window.cgDraw = async (id, source, config) => {
    if (current !== JSON.stringify(config)) mermaid.initialize(config), (current = JSON.stringify(config));
    try {
      const { svg } = await mermaid.render(id, source, box);
      return { svg: new XMLSerializer().serializeToString(new DOMParser().parseFromString(svg, 'text/html').getElementsByTagName('svg')[0]) };
    } catch (error) {
      return { error: String((error && error.message) || error) };
    }
  };
})()`;

async function drawAll(
  draws: Draw[],
  executablePath: string,
  record: (draw: Draw, result: Drawing) => void,
  launched: () => void,
): Promise<void> {
  const mermaidFile = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');
  // KaTeX (mermaid's own dependency) styles math in labels: its stylesheet and fonts are served too.
  const katexDir = path.dirname(createRequire(mermaidFile).resolve('katex/dist/katex.min.css'));
  // Required, not imported: an import of the package makes Node's ES module loader scan
  // playwright-core's 3.6 MB CommonJS bundle for its export names (its index.js re-exports it),
  // about 0.15 s of CPU in every build that draws a diagram (docs/performance.md).
  const { chromium } = createRequire(import.meta.url)('playwright') as typeof import('playwright');
  const browser = await chromium
    .launch({ executablePath, args: MERMAID_FLAGS, headless: true })
    .catch((error: unknown) => {
      const why = String((error as Error)?.message ?? error)
        .split('\n')[0]!
        .replace(/^browserType\.launch: /, '')
        .slice(0, 200);
      throw new Error(
        `could not start Chromium at ${executablePath} to draw the diagrams (${why}); point ` +
          `$CODELABGEN_CHROMIUM at a working Chromium, or set it to none to leave the diagrams to the reader's ` +
          'browser',
      );
    });
  launched();
  try {
    const context = await browser.newContext();
    // Nothing leaves the page: a diagram's labels may name any address (an image, a style's url()),
    // and the build's machine would fetch it (a loopback or private service, a tracker). Routes run
    // last-registered first, so the page's own origin below is served and every other request refused.
    await context.route('**/*', (route) => route.abort('blockedbyclient'));
    await context.route(`${ORIGIN}/**`, (route) => {
      const url = new URL(route.request().url()).pathname;
      if (url === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
      const katex = url.startsWith('/katex/')
        ? path.resolve(katexDir, `.${path.sep}${decodeURIComponent(url.slice('/katex/'.length))}`)
        : null;
      const file =
        url === '/mermaid.min.js'
          ? mermaidFile
          : katex !== null && katex !== katexDir && isInside(katex, katexDir)
            ? katex
            : null;
      if (file === null || !existsSync(file)) return route.fulfill({ status: 404 });
      return route.fulfill({ path: file, contentType: TYPES[path.extname(file)] ?? 'application/octet-stream' });
    });
    // A page per core, each loading mermaid once (about as costly as drawing a dozen diagrams).
    const pages = Math.max(1, Math.min(availableParallelism(), Math.ceil(draws.length / 12)));
    let next = 0;
    await Promise.all(
      Array.from({ length: pages }, async () => {
        const page = await context.newPage();
        await page.goto(`${ORIGIN}/`);
        await page.evaluate(IN_PAGE);
        while (next < draws.length) {
          const draw = draws[next++]!;
          const id = `m${draw.hash}${draw.role === 'light' ? 'l' : draw.role === 'dark' ? 'd' : ''}`;
          const result = await page
            .evaluate(
              ([id, source, config]) =>
                (window as unknown as { cgDraw(...args: unknown[]): Promise<Drawing> }).cgDraw(id, source, config),
              [id, draw.source, draw.config] as const,
            )
            .catch((error: unknown): Drawing => ({ error: `the renderer failed: ${(error as Error).message}` }));
          record(draw, result);
        }
      }),
    );
  } finally {
    await browser.close();
  }
}
