// Watches a course folder for `site dev` (pipeline/site/dev-watch.ts) with chokidar, the watcher
// Vite uses: a bare recursive `fs.watch` on Linux misses later writes to a file replaced by a rename
// (an editor's atomic save, `sed -i`) and changes in folders made after it started.
import { statSync } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';

/** Folders of a course that never hold anything the site shows (installed code, caches). */
const IGNORED = new Set([
  'node_modules',
  '.git',
  '__pycache__',
  '.pytest_cache',
  '.venv',
  '.astro',
  '.mypy_cache',
  '.ruff_cache',
]);

/** ms after a report before it is repeated: past chokidar's throttle windows (50 and 100 ms). */
const TRAILING_MS = 120;

export interface CourseWatcher {
  /** Resolves once the initial scan is done: changes after it are reported. */
  ready: Promise<void>;
  close: () => Promise<void>;
}

/** Calls `onChange(path)` for every file or folder added, changed or removed under `dir`. */
export function watchFolder(dir: string, onChange: (file: string) => void): CourseWatcher {
  const watcher: FSWatcher = watch(dir, {
    ignoreInitial: true,
    ignored: (file: string) => file.split(/[\\/]/).some((part) => IGNORED.has(part)),
    // A rename-save is reported as one change, not an unlink and an add.
    atomic: true,
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  // chokidar drops a file's change events for 50 ms after one it reported (and removes for 100 ms):
  // a save in that window would go unseen. So each file is looked at again once the window is over,
  // and reported again only when it changed meanwhile (one save is one report, not two).
  const trailing = new Map<string, NodeJS.Timeout>();
  watcher.on('all', (_event, file) => {
    const seen = signature(file); // before the report: a write during it is caught below
    onChange(file);
    clearTimeout(trailing.get(file));
    trailing.set(
      file,
      setTimeout(() => {
        trailing.delete(file);
        if (signature(file) !== seen) onChange(file);
      }, TRAILING_MS),
    );
  });
  // A folder that cannot be read (removed meanwhile, permissions) is not a reason to stop watching.
  watcher.on('error', () => {});
  return {
    ready,
    close: () => {
      for (const timer of trailing.values()) clearTimeout(timer);
      trailing.clear();
      return watcher.close();
    },
  };
}

/** What tells two versions of a file apart without reading it: inode, size, modification time (ns). */
function signature(file: string): string {
  try {
    const stat = statSync(file, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return 'missing';
  }
}
