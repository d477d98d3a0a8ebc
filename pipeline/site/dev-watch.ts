// `astro dev` with a course: watches the course folder (each new server calls this, also after a
// restart), refreshes the course collections on every change and once more when the saves settle,
// renders new diagrams with the build-time renderer, and prints new problems as `error:` lines.
import path from 'node:path';
import { SITE_OUT_DIR } from '../course/course.ts';
import { watchFolder, type CourseWatcher } from './course-watch.ts';
import { findChromium, readCachedDiagram, renderDiagrams } from './diagrams.ts';
import type { SiteOptions } from './options.ts';
import { prepareSite, type Prepared } from './prepare.ts';

export const LOADERS = ['course', 'lessons', 'glossary', 'sources', 'report', 'mdx'].map((name) => `codelabgen-${name}`);
/** The newest generation the loaders have read (site/collections.ts sets it; same process, other module graph). */
export const LOADED_GENERATION = Symbol.for('codelabgen.loadedGeneration');
/** ms before trying a refresh again that Astro skipped. */
const RETRY_MS = 100;
/** ms of quiet after the last change before the course check (problems, new diagrams). */
const SETTLE_MS = 250;

interface Watched {
  refreshContent: ((options: { loaders: string[]; context: Record<string, unknown> }) => Promise<void>) | undefined;
  site: SiteOptions;
  /** Prints one terminal line (`error: ...`). */
  print: (line: string) => void;
}

/**
 * The course is watched here, not by Vite's watcher: Astro reloads its content config on every
 * .md, .json or .yaml change Vite reports, and a sync that starts meanwhile is skipped.
 */
export function watchCourse({ refreshContent, site, print }: Watched): CourseWatcher {
  let generation = 0;
  let settle: NodeJS.Timeout | undefined;
  let checking: Promise<void> = Promise.resolve();
  let shown = new Set<string>();
  const chromium = findChromium();
  // One sync at a time, and one more after it when the course changed meanwhile: the last change
  // is always read by a sync that started after it. A sync can be skipped (an edit of the site's
  // own files reloads Astro's content config): then it is tried again.
  let syncing = false;
  let dirty = false;
  const refresh = async () => {
    dirty = true;
    if (syncing) return;
    syncing = true;
    try {
      while (dirty) {
        dirty = false;
        const wanted = ++generation;
        await refreshContent?.({ loaders: LOADERS, context: { generation: wanted } });
        if (loadedGeneration() < wanted) {
          dirty = true;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    } finally {
      syncing = false;
    }
  };
  const report = (problems: string[]) => {
    problems = problems.map((problem) => problem.split('\n')[0] ?? problem);
    for (const problem of problems) if (!shown.has(problem)) print(`error: ${problem}`);
    shown = new Set(problems);
  };
  const check = async () => {
    let prepared: Prepared;
    try {
      prepared = prepareSite(site.course, true);
    } catch (error) {
      return report([(error as Error).message]);
    }
    const stats = await renderDiagrams(prepared.diagrams, site.diagramCache, chromium);
    if (stats.rendered + stats.failed > 0) await refresh();
    report([...prepared.problems, ...diagramErrors(prepared, site.diagramCache)]);
  };
  const queueCheck = () => (checking = checking.then(check).catch((error: unknown) => print(`error: ${(error as Error).message}`)));
  const watcher = watchFolder(site.course, (file) => {
    if (isBuildOutput(path.relative(site.course, file))) return; // `site build` writing the course's site-out/
    refresh().catch((error: unknown) => print(`error: ${(error as Error).message}`));
    clearTimeout(settle);
    settle = setTimeout(queueCheck, SETTLE_MS);
  });
  queueCheck();
  return watcher;
}

/** A path (relative to the course) in the course's own site output or its staging folders. */
function isBuildOutput(file: string): boolean {
  const first = file.split(/[\\/]/)[0] ?? '';
  return first === SITE_OUT_DIR || first.startsWith(`.${SITE_OUT_DIR}.building-`);
}

function loadedGeneration(): number {
  const value: unknown = Reflect.get(globalThis, LOADED_GENERATION);
  return typeof value === 'number' ? value : 0;
}

export function diagramErrors(prepared: Prepared, cacheDir: string): string[] {
  return prepared.diagrams.flatMap((d) => {
    const error = readCachedDiagram(cacheDir, d.hash)?.error;
    return error ? [`lesson ${d.lesson} diagram ${d.label} ("${d.title}"): ${error}`] : [];
  });
}
