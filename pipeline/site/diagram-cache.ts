// The per-user diagram cache folder, shared by the build's renderer (pipeline/site/diagrams.ts keeps
// drawn SVGs there) and the parser (pipeline/site/diagram-parse.ts keeps whether a source parses), and
// the mermaid version both key their entries by. Small on purpose: `state set` loads it.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ownFolder } from './cache-root.ts';

/** Cache folder: $CODELABGEN_DIAGRAM_CACHE, else $XDG_CACHE_HOME/codelabgen/diagrams, else ~/.cache. */
export function diagramCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  const dir = env.CODELABGEN_DIAGRAM_CACHE
    ? path.resolve(env.CODELABGEN_DIAGRAM_CACHE)
    : path.join(base, 'codelabgen', 'diagrams');
  // Cached SVGs go into pages as they are: a folder another user planted or may write is passed over.
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (ownFolder(dir, 0o002)) return dir;
  } catch {
    // cannot be made here: a private folder below
  }
  privateDiagramCache ??= privateFolder();
  return privateDiagramCache;
}

let privateDiagramCache: string | null = null;

function privateFolder(): string {
  const made = mkdtempSync(path.join(os.tmpdir(), 'codelabgen-diagrams-'));
  process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  return made;
}

let version: string | null = null;

/** The installed mermaid's version (its package.json), or `none` when mermaid is not installed. */
export function mermaidVersion(): string {
  if (version === null) {
    try {
      version = (createRequire(import.meta.url)('mermaid/package.json') as { version: string }).version;
    } catch {
      version = 'none';
    }
  }
  return version;
}

/** Writes a cache entry whole: a temp file renamed into place, so a reader never sees half of one. */
export function writeCacheEntry(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}
