// The codelabgen package's root folder (the package.json named codelabgen), and where the site the
// integration mounts lives there: site/ from source, its compiled copy dist/site/ in the bundle.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Defined (true) by scripts/build.mjs in the bundle.
declare const CODELABGEN_BUNDLED: boolean | undefined;

let root: string | null = null;

/** Package root: the folder of codelabgen's package.json (works from source and from dist/). */
export function packageRoot(): string {
  if (root !== null) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!isCodelabgenRoot(dir)) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("codelabgen's package.json not found above the codelabgen code");
    dir = parent;
  }
  root = dir;
  return dir;
}

function isCodelabgenRoot(dir: string): boolean {
  try {
    return (
      (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'codelabgen'
    );
  } catch {
    return false; // no package.json here (or not JSON): look further up
  }
}

const bundled = typeof CODELABGEN_BUNDLED === 'boolean';

/**
 * The site's folder: site/ when the integration runs from source (the repository's own
 * astro.config.mjs); in the bundle, dist/site/, where scripts/build-site.mjs compiled it to JavaScript
 * (the package ships no TypeScript source).
 */
export function siteDir(): string {
  return path.join(packageRoot(), ...(bundled ? ['dist', 'site'] : ['site']));
}

/** A module of the site by its source path in site/ ('lib/image-files.ts'): its compiled .js in the bundle. */
export function siteModule(source: string): string {
  return path.join(siteDir(), bundled ? source.replace(/\.ts$/, '.js') : source);
}

/**
 * The files that stand for the pipeline modules the site and Vite import: content-schemas/index.ts
 * and pipeline/read/index.ts (served by the integration as its own instances), and the expressive
 * code settings the <Code> component imports. In the bundle, their dist/ builds (scripts/build.mjs).
 */
export function siteImports(): { contentSchemas: string; pipelineRead: string; expressiveCode: string } {
  const at = (...parts: string[]) => path.join(packageRoot(), ...parts);
  if (bundled)
    return {
      contentSchemas: at('dist', 'schemas.mjs'),
      pipelineRead: at('dist', 'site-read.mjs'),
      expressiveCode: at('dist', 'site-expressive-code.mjs'),
    };
  return {
    contentSchemas: at('content-schemas', 'index.ts'),
    pipelineRead: at('pipeline', 'read', 'index.ts'),
    expressiveCode: at('pipeline', 'site', 'expressive-code.ts'),
  };
}
