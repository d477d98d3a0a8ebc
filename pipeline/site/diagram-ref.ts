// A diagram of a lesson doc: its cache key and title. Apart from pipeline/site/segments.ts (which
// renders docs with marked and sanitize-html) so that what only lists or checks diagrams (check,
// pipeline/site/diagram-files.ts) does not load the renderer.
import { createHash } from 'node:crypto';

export interface DiagramRef {
  /** Content hash of the source: the cache key. */
  hash: string;
  source: string;
  /** Where it came from, e.g. `docs/readalong.md:12` or `docs/diagrams/flow.mmd`. */
  label: string;
  title: string;
  lesson: string;
}

export function diagramHash(source: string): string {
  return createHash('sha256').update(source.trim()).digest('hex').slice(0, 16);
}

/** Title from a first line `%% title: ...`, else the fallback. */
export function diagramTitle(source: string, fallback: string): string {
  return /^\s*%%\s*title:\s*(.+)$/m.exec(source.split('\n')[0] ?? '')?.[1]?.trim() ?? fallback;
}
