// The test code cache (scripts/test-code-cache.mjs) names its entries by content, so each edit adds
// some and none is ever replaced: scripts/node-tests.ts bounds it before a run. Past `maxBytes`
// (stripped sources and Node's compile cache together) the whole folder goes, and the run fills it
// again with what it uses (a full run: about 4 MB stripped and 17 MB of compile cache).
import { type Dirent, lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/** The cache is removed past this size: a few dozen full runs' worth of edits. */
export const CODE_CACHE_MAX_BYTES = 256 * 1024 * 1024;

/** Bytes of the regular files under `folder` (0 when it does not exist); symbolic links are not followed. */
export function folderBytes(folder: string): number {
  let total = 0;
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) total += folderBytes(file);
    else if (entry.isFile()) total += lstatSync(file).size;
  }
  return total;
}

/** Removes `folder` when it holds more than `maxBytes`; says whether it did. */
export function boundCodeCache(folder: string, maxBytes = CODE_CACHE_MAX_BYTES): boolean {
  if (folderBytes(folder) <= maxBytes) return false;
  rmSync(folder, { recursive: true, force: true });
  return true;
}
