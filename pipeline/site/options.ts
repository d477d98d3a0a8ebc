// What the codelabgen integration hands the course pages: a JSON object served as the Vite virtual
// module `virtual:codelabgen/options` (pages and loaders import it; nothing global is set).
export const OPTIONS_MODULE = 'virtual:codelabgen/options';

export interface SiteOptions {
  /** Absolute course folder. */
  course: string;
  /** Every lesson (with stage badges) instead of done lessons only. */
  drafts: boolean;
  /** `astro dev`: loaders watch the course. */
  dev: boolean;
  /** Where build-time diagram SVGs are cached (pipeline/site/diagrams.ts). */
  diagramCache: string;
  /** Where doc images are staged by content hash for astro:assets (pipeline/site/doc-images.ts). */
  imageStage: string;
  /** Route prefix of the course under the site's base: '' (the site is the course) or '/course'. */
  prefix: string;
  /** A course mounted in a host site: the header's link back to the host's pages (null: none). */
  hostHome?: { href: string; label: string } | null;
}

/** A Vite plugin serving `options` as the virtual module. */
export function optionsPlugin(options: SiteOptions) {
  const resolved = `\0${OPTIONS_MODULE}`;
  return {
    name: 'codelabgen-options',
    resolveId: (id: string) => (id === OPTIONS_MODULE ? resolved : undefined),
    load: (id: string) => (id === resolved ? `export default ${JSON.stringify(options)};` : undefined),
  };
}

/** '' or '/a/b': a route prefix has a leading slash and no trailing one. */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}
