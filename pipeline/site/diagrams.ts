// Build-time mermaid: every diagram of a build rendered in ONE browser batch (light and dark), cached
// by content hash outside the course, so an unchanged diagram is never rendered again.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os, { availableParallelism } from 'node:os';
import path from 'node:path';
import { isThemedType, SENTINEL_VARIABLES, themeSvg } from './diagram-theme.ts';
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

export const MERMAID_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Cache folder: $CODELABGEN_DIAGRAM_CACHE, else $XDG_CACHE_HOME/codelabgen/diagrams, else ~/.cache. */
export function diagramCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CODELABGEN_DIAGRAM_CACHE) return path.resolve(env.CODELABGEN_DIAGRAM_CACHE);
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'codelabgen', 'diagrams');
}

let mermaidVersion: string | null = null;
/** Bump when the render settings below change, so cached SVGs are drawn again. */
const RENDER_SETTINGS = 3;
/** Mermaid's dark edge-label background is too close to its text colour (WCAG contrast). */
const DARK_VARIABLES = { edgeLabelBackground: '#2d333b' };

/** Cache entries are per mermaid version: an upgrade renders every diagram again. */
function cacheFile(dir: string, hash: string): string {
  mermaidVersion ??= (createRequire(import.meta.url)('mermaid/package.json') as { version: string }).version;
  return path.join(dir, `${hash}-mermaid${mermaidVersion}-r${RENDER_SETTINGS}.json`);
}

export function readCachedDiagram(dir: string, hash: string): CachedDiagram | null {
  try {
    return JSON.parse(readFileSync(cacheFile(dir, hash), 'utf8')) as CachedDiagram;
  } catch {
    return null; // not cached (or a torn file): render again
  }
}

function writeCachedDiagram(dir: string, hash: string, entry: CachedDiagram): void {
  mkdirSync(dir, { recursive: true });
  const temp = `${cacheFile(dir, hash)}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(entry));
  renameSync(temp, cacheFile(dir, hash));
}

/** Chromium for build-time rendering: $CODELABGEN_CHROMIUM, /usr/bin/chromium, Playwright's own. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CODELABGEN_CHROMIUM === 'none') return null;
  for (const candidate of [env.CODELABGEN_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  try {
    const { chromium } = createRequire(import.meta.url)('playwright') as { chromium: { executablePath(): string } };
    const own = chromium.executablePath();
    return existsSync(own) ? own : null;
  } catch {
    return null; // no playwright browser either
  }
}

const SYNTAX = /parse error|syntax error|lexical error|no diagram type detected|unknown diagram|expecting/i;

/** Renders the uncached diagrams in one batch; returns the counts the build prints. */
export async function renderDiagrams(diagrams: DiagramRef[], cacheDir: string, chromium: string | null): Promise<DiagramStats> {
  const unique = new Map<string, DiagramRef>();
  for (const diagram of diagrams) unique.set(diagram.hash, diagram);
  const todo = [...unique.values()].filter((d) => readCachedDiagram(cacheDir, d.hash) === null);
  const stats: DiagramStats = { rendered: 0, cached: unique.size - todo.length, failed: 0, client: 0 };
  if (todo.length === 0) return stats;
  if (chromium === null) return { ...stats, client: todo.length };
  const { createMermaidRenderer } = await import('mermaid-isomorphic');
  const render = createMermaidRenderer({ launchOptions: { executablePath: chromium, args: MERMAID_FLAGS, headless: true } });
  const base = { securityLevel: 'strict' as const, fontFamily: 'system-ui, sans-serif' };
  const themed = todo.filter((d) => isThemedType(d.source));
  const paired = todo.filter((d) => !isThemedType(d.source));
  const jobs = [
    { list: themed, prefix: 'cgxt', config: { ...base, theme: 'base' as const, themeVariables: SENTINEL_VARIABLES } },
    { list: paired, prefix: 'cgxl', config: { ...base, theme: 'default' as const } },
    { list: paired, prefix: 'cgxd', config: { ...base, theme: 'dark' as const, themeVariables: DARK_VARIABLES } },
  ];
  // One browser; each page loads mermaid and draws its diagrams one after the other, so the batch is
  // split over as many pages as there are cores (a page per ~12 diagrams at least: loading mermaid
  // costs about as much as drawing a dozen).
  const pages = Math.max(1, Math.min(availableParallelism(), Math.ceil((themed.length + 2 * paired.length) / 12)));
  const [single = [], light = [], dark = []] = await Promise.all(
    jobs.map(async ({ list, prefix, config }) => {
      if (list.length === 0) return [];
      const share = Math.max(1, Math.round((pages * list.length) / (themed.length + 2 * paired.length)));
      const size = Math.ceil(list.length / share);
      const chunks = Array.from({ length: Math.ceil(list.length / size) }, (_, c) => list.slice(c * size, (c + 1) * size));
      const results = await Promise.all(chunks.map((chunk, c) => render(chunk.map((d) => d.source), { prefix: `${prefix}${c}`, mermaidConfig: config })));
      // Each result's ids carry its chunk's prefix; settle() below renames them by content hash.
      return results.flatMap((rendered, c) => rendered.map((r, j) => ({ result: r, id: `${prefix}${c}-${j}` })));
    }),
  );
  const settle = (diagram: DiagramRef, results: PromiseSettledResult<{ svg: string }>[], entry: (svgs: string[]) => CachedDiagram) => {
    const failed = results.find((r) => r?.status !== 'fulfilled');
    if (failed === undefined) {
      writeCachedDiagram(cacheDir, diagram.hash, entry(results.map((r) => (r as PromiseFulfilledResult<{ svg: string }>).value.svg)));
      stats.rendered++;
      return;
    }
    const reason = failed?.status === 'rejected' ? failed.reason : 'no result';
    const message = String((reason as Error)?.message ?? reason).split('\n').slice(0, 3).join(' ').slice(0, 300);
    if (SYNTAX.test(message)) {
      writeCachedDiagram(cacheDir, diagram.hash, { svg: null, light: null, dark: null, error: message });
      stats.failed++;
    } else stats.client++; // the renderer could not draw it: the page falls back to client-side mermaid
  };
  themed.forEach((diagram, i) => settle(diagram, [single[i]!.result], ([svg]) => ({ svg: themeSvg(renameIds(svg!, single[i]!.id, `m${diagram.hash}`)), light: null, dark: null, error: null })));
  paired.forEach((diagram, i) => settle(diagram, [light[i]!.result, dark[i]!.result], ([l, d]) => ({ svg: null, light: renameIds(l!, light[i]!.id, `m${diagram.hash}l`), dark: renameIds(d!, dark[i]!.id, `m${diagram.hash}d`), error: null })));
  return stats;
}

/** Gives each SVG ids unique to its content hash, so diagrams never clash on a page. */
function renameIds(svg: string, from: string, to: string): string {
  return svg.replace(new RegExp(`${from}(?![0-9])`, 'g'), to);
}
