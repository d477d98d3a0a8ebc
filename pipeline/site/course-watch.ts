// Watches a course folder for `site dev` (pipeline/site/dev-watch.ts) with chokidar, the watcher
// Vite uses: a bare recursive `fs.watch` on Linux misses later writes to a file replaced by a rename
// (an editor's atomic save, `sed -i`) and changes in folders made after it started. Behind it, a
// rescan of the folder every few seconds reports what the file watcher never did: inotify drops
// events when its queue overflows (Node's fs.watch does not say so) and stops on its limits, and a
// save that no one reports is a page that silently stays stale.
import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { VCS_FOLDERS } from '../course/vcs.ts';

/** Folders of a course that never hold anything the site shows (installed code, caches). */
const IGNORED = new Set([
  ...VCS_FOLDERS,
  'node_modules',
  '__pycache__',
  '.pytest_cache',
  '.venv',
  '.astro',
  '.mypy_cache',
  '.ruff_cache',
]);

/** ms after a report before it is repeated: past chokidar's throttle windows (50 and 100 ms). */
const TRAILING_MS = 120;

/** ms between rescans at the least; more on a course that takes long to scan (RESCAN_SHARE). */
const RESCAN_MS = 2000;
/** A rescan takes at most this share of the CPU (a scan of 20 ms: one every 2 s; of 200 ms: every 10 s). */
const RESCAN_SHARE = 0.02;
/** ms between rescans at the most, however long a scan took: a missed save shows within about this. */
const RESCAN_MAX_MS = 15_000;
/** ms the file watcher has to report a change a scan saw before the rescan reports it itself. */
const GRACE_MS = 3000;

export interface WatchOptions {
  /** A path relative to the folder (either separator) that is never reported, nor scanned below. */
  ignore?: (relative: string) => boolean;
  /** Called once per file the rescan found changed that the file watcher had not reported. */
  onMissed?: (file: string) => void;
  /** Only for tests: no file-system events, so that what the rescan finds alone is seen. */
  events?: boolean;
  /** Only for tests: the file-system events this returns true for are dropped (as inotify drops them). */
  dropEvent?: (file: string) => boolean;
  /** Only for tests: ms between rescans. */
  rescanMs?: number;
}

export interface CourseWatcher {
  /** Resolves once the initial scan is done: changes after it are reported. */
  ready: Promise<void>;
  close: () => Promise<void>;
}

/** Calls `onChange(path)` for every file or folder added, changed or removed under `dir`. */
export function watchFolder(dir: string, onChange: (file: string) => void, options: WatchOptions = {}): CourseWatcher {
  const root = path.resolve(dir);
  // Only the path inside the course counts: a course may itself sit under a folder named like one of these.
  const skipped = (file: string) => {
    const relative = path.relative(root, path.resolve(root, file));
    if (relative === '') return false;
    return relative.split(/[\\/]/).some((part) => IGNORED.has(part)) || options.ignore?.(relative) === true;
  };
  const watcher: FSWatcher = watch(root, {
    ignoreInitial: true,
    ignored: skipped,
    // A rename-save is reported as one change, not an unlink and an add.
    atomic: true,
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const rescan = startRescan(root, skipped, onChange, options);
  // chokidar drops a file's change events for 50 ms after one it reported (and removes for 100 ms):
  // a save in that window would go unseen. So each file is looked at again once the window is over,
  // and reported again only when it changed meanwhile (one save is one report, not two).
  const trailing = new Map<string, NodeJS.Timeout>();
  if (options.events !== false)
    watcher.on('all', (_event, file) => {
      if (options.dropEvent?.(file) === true) return;
      const seen = signature(file); // before the report: a write during it is caught below
      rescan.reported(file, seen);
      onChange(file);
      clearTimeout(trailing.get(file));
      trailing.set(
        file,
        setTimeout(() => {
          trailing.delete(file);
          const now = signature(file);
          if (now === seen) return;
          rescan.reported(file, now);
          onChange(file);
        }, TRAILING_MS),
      );
    });
  // A folder that cannot be read (removed meanwhile, permissions) is not a reason to stop watching;
  // what a failing watch misses, the rescan finds.
  watcher.on('error', () => {});
  return {
    ready,
    close: () => {
      rescan.stop();
      for (const timer of trailing.values()) clearTimeout(timer);
      trailing.clear();
      return watcher.close();
    },
  };
}

/**
 * Scans `dir` every few seconds and reports each file whose version (signature) is not the one last
 * reported, by the file watcher or by a rescan, once a scan has seen it so for GRACE_MS: an event
 * still on its way (a busy event loop runs timers before I/O; chokidar's throttle) is not reported
 * twice. Comparing with what was reported, not with the last scan, also finds the write that came
 * just after a reported one and was itself never reported (a truncate reported, its write lost).
 */
function startRescan(
  dir: string,
  skipped: (file: string) => boolean,
  onChange: (file: string) => void,
  options: WatchOptions,
): { reported: (file: string, version: string) => void; stop: () => void } {
  // file → the version last reported (or found by the first scan); a file that is gone has none.
  const reported = scanFolder(dir, skipped);
  const suspects = new Map<string, { version: string; since: number }>(); // seen unreported, since
  let timer: NodeJS.Timeout | undefined;
  // Paced by the scan's own CPU time, not the clock: on a loaded machine a small scan can take a
  // second of wall time (the process waiting for a core), which spaced the next scan by 50 s.
  const schedule = (lastScanCpuMs: number) => {
    timer = setTimeout(scan, options.rescanMs ?? rescanDelay(lastScanCpuMs));
    timer.unref();
  };
  const scan = () => {
    const started = Date.now();
    const cpu = process.cpuUsage();
    const now = scanFolder(dir, skipped);
    const missed: string[] = [];
    for (const file of new Set([...reported.keys(), ...now.keys(), ...suspects.keys()])) {
      const version = now.get(file) ?? MISSING;
      if (version === (reported.get(file) ?? MISSING)) {
        suspects.delete(file);
        continue;
      }
      const suspect = suspects.get(file);
      // A version seen for the first time starts its grace; one seen unreported past it is missed.
      if (suspect?.version !== version) suspects.set(file, { version, since: started });
      else if (started - suspect.since >= GRACE_MS) {
        suspects.delete(file);
        setVersion(reported, file, version);
        missed.push(file);
      }
    }
    for (const file of missed) {
      options.onMissed?.(file);
      onChange(file);
    }
    const spent = process.cpuUsage(cpu);
    schedule((spent.user + spent.system) / 1000);
  };
  schedule(0);
  return {
    reported: (file, version) => {
      if (version !== FOLDER) setVersion(reported, path.resolve(file), version);
    },
    stop: () => clearTimeout(timer),
  };
}

function setVersion(versions: Map<string, string>, file: string, version: string): void {
  if (version === MISSING) versions.delete(file);
  else versions.set(file, version);
}

/** ms until the next rescan after one that took `scanCpuMs` of CPU: RESCAN_SHARE of the time, within bounds. */
export function rescanDelay(scanCpuMs: number): number {
  return Math.min(RESCAN_MAX_MS, Math.max(RESCAN_MS, scanCpuMs / RESCAN_SHARE));
}

/** Every file under `dir` (absolute path → signature), skipping what the watcher ignores. */
function scanFolder(dir: string, skipped: (file: string) => boolean): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // removed meanwhile, or unreadable: the watcher's business
    }
    for (const entry of entries) {
      const file = path.join(folder, entry.name);
      if (skipped(file)) continue;
      if (entry.isDirectory()) walk(file);
      else files.set(file, signature(file));
    }
  };
  walk(dir);
  return files;
}

const MISSING = 'missing';
/** A folder's version: the files in it are reported and compared, not the folder. */
const FOLDER = 'folder';

/** What tells two versions of a file apart without reading it: inode, size, modification time (ns). */
function signature(file: string): string {
  try {
    const stat = statSync(file, { bigint: true });
    return stat.isDirectory() ? FOLDER : `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return MISSING;
  }
}
