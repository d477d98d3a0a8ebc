// The codelabgen package's root folder, where astro.config.mjs and site/ live.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Package root: where astro.config.mjs and site/ live (works from source and from dist/). */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'astro.config.mjs'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('astro.config.mjs not found above the codelabgen code');
    dir = parent;
  }
  return dir;
}
