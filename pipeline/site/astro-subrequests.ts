// The ids of an Astro component's processed <script>s and <style>s (`X.astro?astro&type=script&index=0&lang.ts`)
// in the form Astro reads back. Astro's load hook maps such an id to its component's compile
// metadata through vite-plugin-utils normalizeFilename, which takes an absolute path that shares no
// top-level folder with Astro's root for a root-relative one (`/work/site/x.astro` with root
// `/home/u/.cache/…/root` becomes `/home/u/.cache/…/root/work/site/x.astro`) and then finds no
// metadata: the build fails with "No cached compile metadata found". Our root is a per-user cache
// folder (pipeline/site/cache-root.ts) and srcDir the package's site/, anywhere else on disk, so
// the ids of components outside the root get Vite's explicit file-system prefix `/@fs`, which
// normalizeFilename strips. Every machine takes the same path, whether or not the two folders
// happen to share a top-level folder. (Such a script is emitted as a file under _astro/, never
// inlined: Astro inlines small scripts only under the id it discovered them by.)
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { isInside } from '../course/inside.ts';

const SUB_REQUEST = /\.astro\?(?:.*&)?astro(?:&|=|$)/;

/**
 * The `/@fs` form of a sub-request id of a component outside `root` (and inside `within`, when
 * given); null for any other id (left to Vite).
 */
export function fsSubRequestId(id: string, root: string, within?: string): string | null {
  if (!SUB_REQUEST.test(id) || !path.isAbsolute(id) || id.startsWith('/@fs/')) return null;
  const file = id.slice(0, id.indexOf('?'));
  if (isInside(file, root) || (within !== undefined && !isInside(file, within))) return null;
  return !existsSync(file) ? null : `/@fs${file.startsWith('/') ? '' : '/'}${id}`;
}

/**
 * A Vite plugin that resolves the sub-requests of components outside `root` to their `/@fs` ids:
 * in codelabgen's own builds every such component's (the worker's root is a cache folder); in a
 * host's build only the package's own pages' (`within`): a host's other components, Starlight's
 * among them, resolve their relative imports from the ids Vite gave them.
 */
export function astroSubRequests(root: string, within?: string): Plugin {
  return {
    name: 'codelabgen:astro-subrequests',
    enforce: 'pre',
    resolveId: {
      filter: { id: SUB_REQUEST },
      handler: (id) => fsSubRequestId(id, root, within),
    },
  };
}
