// `astro dev` with a course: watches the course folder (each new server calls this, also after a
// restart), refreshes the course collections once the files of a save are written (one sync, so one
// update of the open page: site/components/DevLive.astro), then checks the course: renders new
// diagrams with the build-time renderer, and prints new problems as `error:` lines (and sends them
// to the page's banner).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PHASES } from '../../content-schemas/fast.ts';
import { ARTIFACTS, SITE_OUT_DIR, abs, courseAt } from '../course/course.ts';
import { readStateFile } from '../store/state-file.ts';
import { watchFolder, type CourseWatcher } from './course-watch.ts';
import { findChromium, readCachedDiagram, renderDiagrams } from './diagrams.ts';
import type { SiteOptions } from './options.ts';
import { prepareSite, type Prepared } from './prepare.ts';

export const LOADERS = ['course', 'lessons', 'glossary', 'sources', 'report', 'mdx'].map(
  (name) => `codelabgen-${name}`,
);
/** The newest generation the loaders have read (site/lib/course-snapshot.ts sets it; same process, other module graph). */
export const LOADED_GENERATION = Symbol.for('codelabgen.loadedGeneration');
/** The newest generation asked for, set before asking: a sync Astro starts itself reads the course as of it. */
export const ASKED_GENERATION = Symbol.for('codelabgen.askedGeneration');
/** The trace function (CODELABGEN_DEV_TRACE=1), for the loaders' own lines. */
export const DEV_TRACE = Symbol.for('codelabgen.devTrace');
/** No curriculum.yaml before the curriculum is approved is where the course is (site dev from `init` on), not a problem. */
function curriculumNotDue(root: string): boolean {
  try {
    const course = courseAt(root);
    if (existsSync(abs(course, ARTIFACTS.curriculum))) return false;
    const phase = readStateFile(course)?.phase;
    return phase !== undefined && PHASES.indexOf(phase) <= PHASES.indexOf('gate_plan');
  } catch {
    return false; // a state that does not read: the error stays shown
  }
}

/** The problems last printed (site/lib/dev-problems.ts reads them for the page's banner). */
export const DEV_PROBLEMS_KEY = Symbol.for('codelabgen.devProblems');
/** The HMR event that sends them to the page: the name site/lib/dev-problems.ts listens for (its test checks they agree). */
export const DEV_PROBLEMS_EVENT = 'codelabgen:problems';
/** The HMR event with `{ sync }`, sent once the pages serve a sync: an open page that shows an older one
 * (site/components/DevLive.astro reads its own from the banner's `data-dev-sync`) fetches itself until it
 * shows that one, whatever came of the reloads Astro sent (a fetch answered before the sync was served). */
export const DEV_SERVED_EVENT = 'codelabgen:served';
/** The HMR event a page sends with `{ shows, served }` when its fetches of itself keep showing an older sync
 * than the one served (STALE_ASK of site/components/DevLive.astro): servedGeneration() read the store the
 * pages should read, and they did not. The server then reads all its modules again (`reloadModules`). */
export const DEV_STALE_EVENT = 'codelabgen:stale';
/** ms before trying a refresh again that Astro skipped. */
const RETRY_MS = 100;
/** ms of quiet after a change before the collections are synced: the files of one save (an editor
 * that truncates and then writes, readalong and notes saved together) make one sync, so one reload. */
const QUIET_MS = 60;
/** A sync starts at the latest this long after the first change it waits for (saves in a row). */
const MAX_WAIT_MS = 300;
/** ms after the sync that read the last change before the course check (problems, new diagrams):
 * the check reads the whole course and blocks the server meanwhile, so the open page's fetch of
 * itself after the sync (site/components/DevLive.astro) goes first. */
const SETTLE_MS = 400;
/** ms after the last change before the course check even when no sync has finished since. */
const CHECK_ANYWAY_MS = 3000;
/** ms of asking Astro for a sync it does not run before the terminal says so (once). */
const STALL_MS = 10_000;

interface Watched {
  refreshContent: ((options: { loaders: string[]; context: Record<string, unknown> }) => Promise<void>) | undefined;
  site: SiteOptions;
  /** Prints one terminal line (`error: ...`). */
  print: (line: string) => void;
  /** Called with the whole list each time the problems change (the page's banner). */
  onProblems?: (problems: string[]) => void;
  /** The sync the pages' content store holds (its course entry's), or null when it cannot be told. */
  served?: () => Promise<number | null>;
  /** Makes the pages read the content store again (as Astro does once it wrote it). */
  reload?: () => void;
  /** Tells the open pages to update themselves (after a reload() that served them the sync at last). */
  updatePages?: () => void;
  /** Called with each sync the pages serve from now on (DEV_SERVED_EVENT). */
  onServed?: (sync: number) => void;
  /** Makes the pages' server read all its modules again (a page still showed an older sync: DEV_STALE_EVENT). */
  reloadModules?: () => void;
}

/** The course's watcher under `site dev`, which also hears what the open pages say. */
export interface DevWatcher extends CourseWatcher {
  /** A page's fetches of itself kept showing sync `shows` where the pages serve `sync` (DEV_STALE_EVENT). */
  stale: (shows: number | null, sync: number) => void;
}

/** Checks of the pages' store after a sync, 250 ms apart, before the terminal says they stay stale. */
const SERVED_TRIES = 20;
const SERVED_RETRY_MS = 250;

/**
 * Whether the pages serve sync `wanted` (or a newer one), and how many reloads that took (-1: they
 * never did): asks `served`, and while they serve an older one has them read the store again
 * (`reload`) and asks again, up to SERVED_TRIES times.
 * Astro invalidates the store's module itself once it wrote it; on a loaded machine a page has been
 * seen to keep the store of the sync before for good (`site dev` showed a save only after the next).
 */
export async function confirmServed(
  wanted: number,
  served: () => Promise<number | null>,
  reload: () => void,
  trace: (line: string) => void,
  retryMs = SERVED_RETRY_MS,
): Promise<number> {
  for (let tries = 0; ; tries++) {
    const serving = await served().catch(() => null);
    trace(`the pages serve sync ${serving ?? '(unknown)'}`);
    if (serving === null || serving >= wanted) return tries;
    if (tries === SERVED_TRIES) return -1;
    trace(`reloading the content store (the pages serve sync ${serving} after sync ${wanted})`);
    reload();
    await new Promise((resolve) => setTimeout(resolve, retryMs));
  }
}

/**
 * The course is watched here, not by Vite's watcher: Astro reloads its content config on every
 * .md, .json or .yaml change Vite reports, and a sync that starts meanwhile is skipped.
 */
export function watchCourse({
  refreshContent,
  site,
  print,
  onProblems,
  served,
  reload,
  updatePages,
  onServed,
  reloadModules,
}: Watched): DevWatcher {
  // CODELABGEN_DEV_TRACE=1: what was reported and synced, to tell a missed save from a stale page.
  const trace = process.env.CODELABGEN_DEV_TRACE === '1' ? (line: string) => print(`trace: ${line}`) : () => {};
  if (process.env.CODELABGEN_DEV_TRACE === '1') Reflect.set(globalThis, DEV_TRACE, trace);
  // Numbered on from the last server's syncs (a restart calls this again): the loaders' count goes on.
  let generation = generationAt(ASKED_GENERATION);
  let settle: NodeJS.Timeout | undefined;
  let quiet: NodeJS.Timeout | undefined;
  let firstChange = 0;
  let checking: Promise<void> = Promise.resolve();
  let shown = new Set<string>();
  const chromium = findChromium();
  // One sync at a time, and one more after it when the course changed meanwhile: the last change
  // is always read by a sync that started after it. A sync can be skipped (an edit of the site's
  // own files reloads Astro's content config): then it is tried again.
  let syncing = false;
  let dirty = false;
  const asked = new AskedChanges();
  let checkAfter = false;
  let stallShown = false;
  let staleShown = false;
  let missedShown = false;
  const refresh = async (thenCheck: boolean) => {
    dirty = true;
    checkAfter ||= thenCheck;
    if (syncing) return;
    syncing = true;
    let stalledSince: number | null = null;
    try {
      while (dirty) {
        dirty = false;
        const wanted = ++generation;
        asked.ask();
        Reflect.set(globalThis, ASKED_GENERATION, wanted);
        trace(`sync ${wanted} asked`);
        await refreshContent?.({ loaders: LOADERS, context: { generation: wanted } });
        trace(`sync ${wanted} returned; the collections have read sync ${loadedGeneration()}`);
        const reloads =
          loadedGeneration() >= wanted && served && reload ? await confirmServed(wanted, served, reload, trace) : 0;
        if (reloads > 0) updatePages?.();
        if (reloads >= 0 && loadedGeneration() >= wanted) onServed?.(wanted);
        if (reloads === -1 && !staleShown) {
          staleShown = true;
          print(
            `warning: the pages still show the course as it was before sync ${wanted} (Astro did not reload its ` +
              'content store); reload the page, or restart site dev if it stays stale',
          );
        }
        if (loadedGeneration() < wanted) {
          dirty = true;
          // Astro runs no sync while its content config is (re)loading, and none at all when that
          // failed: say so rather than leave the page stale without a word.
          stalledSince ??= Date.now();
          if (!stallShown && Date.now() - stalledSince > STALL_MS) {
            stallShown = true;
            print(
              `warning: the course changed ${Math.round((Date.now() - stalledSince) / 1000)} s ago and Astro has not ` +
                'read it yet (its content config is still loading or failed to load); still trying',
            );
          }
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    } finally {
      syncing = false;
      if (checkAfter && quiet === undefined) {
        checkAfter = false;
        clearTimeout(settle);
        settle = setTimeout(queueCheck, SETTLE_MS);
      }
    }
  };
  const report = (all: string[]) => {
    // A problem is known by its first line; the lines after it (mermaid's parse errors point at
    // the line there) are printed indented under it.
    const problems = all.map((problem) => problem.split('\n')[0] ?? problem);
    all.forEach((problem, i) => {
      if (shown.has(problems[i]!)) return;
      const [first, ...rest] = problem.split(/\r?\n/);
      print(`error: ${first}`);
      for (const line of rest) if (line.trim() !== '') print(`  ${line}`);
    });
    const changed = problems.length !== shown.size || problems.some((p) => !shown.has(p));
    shown = new Set(problems);
    Reflect.set(globalThis, DEV_PROBLEMS_KEY, [...shown]);
    if (changed) onProblems?.([...shown]);
  };
  const check = async () => {
    let prepared: Prepared;
    try {
      prepared = prepareSite(site.course, true);
    } catch (error) {
      return report(curriculumNotDue(site.course) ? [] : [(error as Error).message]);
    }
    const stats = await renderDiagrams(prepared.diagrams, site.diagramCache, chromium);
    if (stats.rendered + stats.failed > 0) await refresh(false);
    report([...prepared.problems, ...diagramErrors(prepared, site.diagramCache)]);
  };
  const queueCheck = () =>
    (checking = checking.then(check).catch((error: unknown) => print(`error: ${(error as Error).message}`)));
  const syncSoon = () => {
    const now = Date.now();
    if (quiet === undefined) firstChange = now;
    clearTimeout(quiet);
    quiet = setTimeout(
      () => {
        quiet = undefined;
        refresh(true).catch((error: unknown) => print(`error: ${(error as Error).message}`));
      },
      Math.max(0, Math.min(QUIET_MS, firstChange + MAX_WAIT_MS - now)),
    );
  };
  const onMissed = (file: string) => {
    if (missedShown) return;
    missedShown = true;
    print(
      `warning: the file watcher did not report a change to ${path.relative(site.course, file)}; ` +
        'a rescan of the course found it (changes may show a few seconds late)',
    );
  };
  // `site build` writing the course's site-out/ is no change to show.
  const watcher = watchFolder(
    site.course,
    (file) => {
      if (asked.isEcho(file)) {
        trace(
          `change ${path.relative(site.course, file)} (gone before the last sync read the course: nothing to sync)`,
        );
        return;
      }
      asked.changed(file);
      trace(`change ${path.relative(site.course, file)}`);
      syncSoon();
      // Set again (sooner) when the sync is done; this one in case syncs keep being skipped.
      clearTimeout(settle);
      settle = setTimeout(queueCheck, CHECK_ANYWAY_MS);
    },
    { ignore: isBuildOutput, onMissed },
  );
  queueCheck();
  // The newest sync a page said it did not get (DEV_STALE_EVENT): one reload of the modules per sync.
  let staleAsked = 0;
  return {
    ready: watcher.ready,
    stale: (shows, sync) => {
      if (!Number.isInteger(sync) || sync <= staleAsked || sync > generation) return;
      staleAsked = sync;
      trace(
        `a page shows sync ${shows ?? '(none)'} where the pages serve sync ${sync}: reloading the server's modules`,
      );
      reloadModules?.();
      onServed?.(sync);
    },
    close: () => {
      clearTimeout(quiet);
      clearTimeout(settle);
      return watcher.close();
    },
  };
}

/**
 * The files changed since a sync was last asked for, to tell a late report of a file already gone then
 * (an editor's atomic save: `notes.md.tmp` written, renamed over `notes.md`, its removal reported after
 * the sync of the save was asked on a loaded machine) from a change: the sync read the course without
 * it, and it is still gone, so a second sync would read the same course (one save made two).
 */
export class AskedChanges {
  #since = new Set<string>();
  #goneAtAsk = new Set<string>();
  readonly #exists: (file: string) => boolean;
  constructor(exists: (file: string) => boolean = existsSync) {
    this.#exists = exists;
  }

  /** A change was reported (and will be synced). */
  changed(file: string): void {
    this.#since.add(file);
  }

  /** A sync is asked for: the files changed since the last one that are gone now are what it reads as gone. */
  ask(): void {
    this.#goneAtAsk = new Set([...this.#since].filter((file) => !this.#exists(file)));
    this.#since.clear();
  }

  /** A report of a file that was gone when the last sync was asked and still is: nothing new to read. */
  isEcho(file: string): boolean {
    return this.#goneAtAsk.has(file) && !this.#exists(file);
  }
}

/** A path (relative to the course) in the course's own site output or its staging folders. */
function isBuildOutput(file: string): boolean {
  const first = file.split(/[\\/]/)[0] ?? '';
  return first === SITE_OUT_DIR || first.startsWith(`.${SITE_OUT_DIR}.building-`);
}

function generationAt(key: symbol): number {
  const value: unknown = Reflect.get(globalThis, key);
  return typeof value === 'number' ? value : 0;
}

function loadedGeneration(): number {
  return generationAt(LOADED_GENERATION);
}

export function diagramErrors(prepared: Prepared, cacheDir: string): string[] {
  return prepared.diagrams.flatMap((d) => {
    const error = readCachedDiagram(cacheDir, d.hash)?.error;
    return error ? [`lesson ${d.lesson} diagram ${d.label} ("${d.title}"): ${error}`] : [];
  });
}
