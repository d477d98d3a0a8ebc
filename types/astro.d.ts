// Types of `codelabgen/astro` (the bundle dist/astro.mjs, built from pipeline/site/integration.ts):
// the options a host site passes. Kept in step with CodelabgenOptions there.
import type { AstroIntegration } from 'astro';
import type { ExpressiveCodePlugin } from 'astro-expressive-code';

export interface CodelabgenOptions {
  /** The course folder, relative to the Astro project root (or absolute). */
  course: string;
  /** Where the course goes under the site's base, e.g. '/course'; default: the site root. */
  prefix?: string;
  /** Every lesson with its stage instead of published lessons only (always on in `astro dev`). */
  drafts?: boolean;
  /** Build-time diagram cache; default $CODELABGEN_DIAGRAM_CACHE or ~/.cache/codelabgen/diagrams. */
  diagramCache?: string;
  /** A course under a prefix links back to the host from its header: the site's base, "Home", unless told; false for none. */
  home?: { href?: string; label?: string } | false;
  /** A publish build of a course with no lesson to publish: its home page only ("coming soon") with a warning, instead of failing. */
  allowEmpty?: boolean;
  /** Fail before anything is written when a diagram would be drawn in the reader's browser. */
  strictDiagrams?: boolean;
}

/** Mounts a course's pages in an Astro site (docs/site.md, "Mounting a course"). */
export default function codelabgen(options: CodelabgenOptions): AstroIntegration;

/** Expressive Code's line numbers, for a Starlight host's ec.config.mjs. */
export function pluginLineNumbers(): ExpressiveCodePlugin;
