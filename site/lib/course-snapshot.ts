// One read of the course per content sync, shared by the six collections of site/collections.ts, and
// the handshake with `site dev`'s watcher (pipeline/site/dev-watch.ts, same process, another module
// graph: hence globalThis keys, which site/lib/course-snapshot.test.ts checks both sides name alike).
//
// dev-watch numbers each sync it asks Astro for (a generation, passed as the loaders' context) and
// publishes the newest number before asking; the loaders publish the newest one they have read. A
// sync Astro starts on its own (start-up, a reload of the content config) carries no generation:
// it reads the course as of the newest sync asked, never a read made before a change was reported.
// (It used to share one read kept for every such sync: Astro's own sync after a save stored the
// course as it was at start-up, and the page stayed stale until the next save.)

/** The newest sync dev-watch has asked for (set before it asks). */
export const ASKED_GENERATION = Symbol.for('codelabgen.askedGeneration');
/** The newest sync the collections have read (dev-watch asks again until it is its own). */
export const LOADED_GENERATION = Symbol.for('codelabgen.loadedGeneration');
/** dev-watch's trace (CODELABGEN_DEV_TRACE=1): a function printing one `trace:` line, else unset. */
export const DEV_TRACE = Symbol.for('codelabgen.devTrace');

function numberAt(key: symbol): number {
  const value: unknown = Reflect.get(globalThis, key);
  return typeof value === 'number' ? value : 0;
}

function devTrace(line: string): void {
  const trace: unknown = Reflect.get(globalThis, DEV_TRACE);
  if (typeof trace === 'function') trace(line);
}

/** The sync a loader's read stands for: its own generation, or for Astro's own sync the newest one asked. */
export function syncOf(generation: unknown): number {
  return typeof generation === 'number' ? generation : numberAt(ASKED_GENERATION);
}

/**
 * `read` at most once per sync: the collections of one sync share the read of the first of them. The
 * returned function takes the course folder and the sync's generation (undefined for Astro's own).
 */
export function courseSnapshots<T>(read: (root: string) => T): (root: string, generation: unknown) => T {
  let snapshot: { root: string; generation: number; view: T } | null = null;
  return (root, generation) => {
    const own = typeof generation === 'number';
    const key = syncOf(generation);
    const fresh = snapshot?.root !== root || snapshot.generation !== key;
    if (!own && key > 0)
      devTrace(`a sync Astro started reads the course as of sync ${key}${fresh ? '' : ' (already read)'}`);
    if (fresh) snapshot = { root, generation: key, view: read(root) };
    return snapshot!.view;
  };
}

/** Tells dev-watch which sync the collections have read (a generation, or nothing for Astro's own). */
export function markLoaded(generation: unknown): void {
  if (typeof generation === 'number' && generation > numberAt(LOADED_GENERATION))
    Reflect.set(globalThis, LOADED_GENERATION, generation);
}
