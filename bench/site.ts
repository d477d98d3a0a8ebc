// Site build: generated courses (readalong, notes, 3 code files, 1 diagram per lesson) built clean
// and again with caches by `codelabgen site build`; pages per second and bytes per lesson page; and the
// same content built by bench/bare-astro (Astro with no codelabgen features) in the same run: the floor.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCourse } from './generate-course.ts';
import { CLI } from './state-course.ts';
import { ratio, round, since } from './stats.ts';
import { fileURLToPath } from 'node:url';

export interface DiagramsCold {
  kind: 'flow' | 'mixed';
  diagrams: number;
  /** Wall time of the diagram step alone on an empty cache (bench/diagrams-cold.ts). */
  ms: number;
  stats: { rendered: number; cached: number; failed: number; client: number };
}

export interface SiteBench {
  /** "50 diagrams rendered cold": the generated course's flowcharts, and ten mixed types. */
  diagrams_cold: DiagramsCold[];
  rows: SiteRow[];
}

export interface SiteRow {
  lessons: number;
  clean_ms: number;
  rebuild_ms: number;
  /** Rebuild after editing one lesson's notes. */
  edit_one_ms: number;
  /**
   * A clean build (no output, no Astro caches: a copy of the course at another path) whose diagrams
   * are in the diagram cache already, as on an author's machine after the first build or in a CI
   * that keeps the cache (docs/deploy/github-pages.yml): the build's own work without Chromium.
   */
  clean_cached_diagrams_ms: number;
  /** Lesson pages each build rendered (the others were kept from the last build): clean, again, edit one. */
  lesson_pages_rendered: { clean: number; rebuild: number; edit_one: number };
  pages: number;
  pages_per_s_clean: number;
  bytes_per_lesson_page: { html: number; css: number; js: number };
  bare_astro: {
    clean_ms: number;
    rebuild_ms: number;
    pages: number;
    bytes_per_lesson_page: { html: number; css: number; js: number };
  };
  clean_vs_bare: number | null;
  clean_cached_diagrams_vs_bare: number | null;
  rebuild_vs_bare: number | null;
  edit_one_vs_clean: number | null;
}

const BARE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-astro', 'build.mjs');
const COLD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'diagrams-cold.ts');

function diagramsCold(kind: 'flow' | 'mixed', n: number): DiagramsCold {
  const result = spawnSync(process.execPath, [COLD, kind, String(n)], {
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`diagrams-cold ${kind} exited ${result.status}: ${result.stderr.slice(0, 800)}`);
  return JSON.parse(result.stdout) as DiagramsCold;
}

function bareBuild(root: string, out: string, cache: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [BARE, root, out, cache], {
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`bare astro build exited ${result.status}: ${result.stderr.slice(0, 800)}`);
  return since(start);
}

/** One `site build`: its wall time, and how many lesson pages it rendered (not kept). */
function build(root: string, out: string, env: NodeJS.ProcessEnv): { ms: number; rendered: number } {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [CLI, 'site', 'build', '--course', root, '--out', out], {
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`site build exited ${result.status}: ${result.stderr.slice(0, 800)}`);
  const ms = since(start);
  const rendered = /^lesson pages: (\d+) rendered/m.exec(result.stdout)?.[1];
  if (rendered === undefined) throw new Error(`site build printed no "lesson pages:" line:\n${result.stdout}`);
  return { ms, rendered: Number(rendered) };
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** Average HTML bytes of lesson pages, and the CSS/JS they reference (each asset counted once per page). */
function pageWeights(out: string): { pages: number; html: number; css: number; js: number } {
  const all = files(out);
  const pages = all.filter((f) => f.endsWith('.html'));
  const lessonPages = pages.filter((f) => /^\d[^/]*\/[^/]+\/index\.html$|lessons?\//.test(path.relative(out, f)));
  const sample = lessonPages.length > 0 ? lessonPages : pages;
  let html = 0,
    css = 0,
    js = 0;
  for (const page of sample) {
    const text = readFileSync(page, 'utf8');
    html += Buffer.byteLength(text);
    for (const match of text.matchAll(/(?:href|src)="([^"?]+\.(css|js|mjs))(?:\?[^"]*)?"/g)) {
      const asset = all.find((f) => f.endsWith(match[1]!.replace(/^.*?\/(_astro|assets)\//, '/$1/')));
      if (asset) match[2] === 'css' ? (css += statSync(asset).size) : (js += statSync(asset).size);
    }
  }
  const n = Math.max(1, sample.length);
  return { pages: pages.length, html: Math.round(html / n), css: Math.round(css / n), js: Math.round(js / n) };
}

export async function benchSite(quick: boolean): Promise<SiteBench> {
  const rows: SiteRow[] = [];
  const cold = quick ? 10 : 50;
  const diagrams_cold = [diagramsCold('flow', cold), diagramsCold('mixed', cold)];
  const sizes = process.env.BENCH_SITE_LESSONS
    ? process.env.BENCH_SITE_LESSONS.split(',').map(Number)
    : quick
      ? [10]
      : [50, 200];
  for (const lessons of sizes) {
    const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-bench-site-'));
    try {
      const root = path.join(dir, 'course');
      const { dirs } = await generateCourse(root, { lessons, perModule: 10 });
      const env = { ...process.env, NO_COLOR: '1', CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'cache') };
      const first = build(root, path.join(dir, 'out'), env);
      const again = build(root, path.join(dir, 'out'), env);
      appendFileSync(
        path.join(root, dirs[Math.floor(lessons / 2)]!, 'docs', 'notes.md'),
        '\n\nOne edited paragraph.\n',
      );
      const edited = build(root, path.join(dir, 'out'), env);
      const [clean, rebuild, editOne] = [first.ms, again.ms, edited.ms];
      const weights = pageWeights(path.join(dir, 'out'));
      const copy = path.join(dir, 'course-copy');
      cpSync(root, copy, { recursive: true });
      const cleanCached = build(copy, path.join(dir, 'out-copy'), env).ms;
      const bareClean = bareBuild(root, path.join(dir, 'bare-out'), path.join(dir, 'bare-cache'));
      const bareRebuild = bareBuild(root, path.join(dir, 'bare-out'), path.join(dir, 'bare-cache'));
      const bare = pageWeights(path.join(dir, 'bare-out'));
      rows.push({
        lessons,
        clean_ms: round(clean, 0),
        rebuild_ms: round(rebuild, 0),
        edit_one_ms: round(editOne, 0),
        clean_cached_diagrams_ms: round(cleanCached, 0),
        lesson_pages_rendered: { clean: first.rendered, rebuild: again.rendered, edit_one: edited.rendered },
        pages: weights.pages,
        pages_per_s_clean: round(weights.pages / (clean / 1000), 1),
        bytes_per_lesson_page: { html: weights.html, css: weights.css, js: weights.js },
        bare_astro: {
          clean_ms: round(bareClean, 0),
          rebuild_ms: round(bareRebuild, 0),
          pages: bare.pages,
          bytes_per_lesson_page: { html: bare.html, css: bare.css, js: bare.js },
        },
        clean_vs_bare: ratio(clean, bareClean),
        clean_cached_diagrams_vs_bare: ratio(cleanCached, bareClean),
        rebuild_vs_bare: ratio(rebuild, bareRebuild),
        edit_one_vs_clean: ratio(editOne, clean),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { diagrams_cold, rows };
}
