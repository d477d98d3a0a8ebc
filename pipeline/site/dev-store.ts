// What `site dev`'s watcher (pipeline/site/dev-watch.ts) asks of Astro's dev server about the
// content store the pages read: which sync it holds, and reading it again. Astro keeps the store
// as a module (`astro:data-layer-content`) that it invalidates once it wrote a sync to disk; the
// pages read it through `astro:content` in the server's own module runner, as served() does here.
import type { ViteDevServer } from 'vite';

/** Astro's id of the content store's module (its RESOLVED_DATA_STORE_VIRTUAL_ID). */
const STORE_MODULE = '\0astro:data-layer-content';

interface Runner {
  import: (id: string) => Promise<unknown>;
  evaluatedModules: { getModuleById: (id: string) => unknown; invalidateModule: (node: never) => void };
}

function runnerOf(environment: object | undefined): Runner | null {
  const runner = environment !== undefined && 'runner' in environment ? (environment.runner as Runner) : null;
  return runner !== null && typeof runner.import === 'function' ? runner : null;
}

/** The sync the pages' store holds: its course entry's `generation` (site/collections.ts), or null. */
export async function servedGeneration(server: ViteDevServer): Promise<number | null> {
  const runner = runnerOf(server.environments.ssr);
  if (runner === null) return null;
  const content = (await runner.import('astro:content')) as {
    getEntry?: (collection: string, id: string) => Promise<{ data?: { generation?: unknown } } | undefined>;
  };
  const generation = (await content.getEntry?.('codelabgen-course', 'course'))?.data?.generation;
  return typeof generation === 'number' ? generation : null;
}

/** Has the pages read the store from disk again: what Astro does after it wrote one (its invalidateDataStore). */
export function reloadStore(server: ViteDevServer): void {
  const timestamp = Date.now();
  for (const [name, environment] of Object.entries(server.environments)) {
    if (name === 'client') continue;
    const node = environment.moduleGraph.getModuleById(STORE_MODULE);
    if (node) environment.moduleGraph.invalidateModule(node, undefined, timestamp, true);
    const runner = runnerOf(environment);
    const evaluated = runner?.evaluatedModules.getModuleById(STORE_MODULE);
    if (evaluated) runner!.evaluatedModules.invalidateModule(evaluated as never);
    environment.hot.send('astro:content-changed', {});
  }
}

/**
 * Has the pages' server read every module again, the content store's among them: what a page that
 * keeps showing an older sync than servedGeneration() says asks for (DEV_STALE_EVENT,
 * pipeline/site/dev-watch.ts). The store is reloaded as reloadStore() does, every transformed module
 * of the pages' environment is dropped, and its module runner gets the full reload Vite sends it
 * when a file it ran changed (it forgets what it ran and runs its entry points again).
 */
export function reloadModules(server: ViteDevServer): void {
  reloadStore(server);
  const pages = server.environments.ssr;
  if (pages === undefined) return;
  pages.moduleGraph.invalidateAll();
  pages.hot.send({ type: 'full-reload' });
}
