// Where site builds keep their caches (Astro's content store, bundles and run folders): per user,
// never in the install or a fixed shared path, so another user's build never meets files it cannot
// write (docs/site.md "Caches"). Astro's bundles there import the package's dependencies, so the
// folder gets `node_modules` links to the folders Node would search from the package itself.
// Each install (each path the package runs from: a global install, npx's cache, a project) has a
// folder there; those of installs unused for INSTALL_KEEP_MS are removed by the others (sweepInstalls).
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** How many node_modules folders of the package's lookup chain the cache links (own, hoisted, one more). */
const LINKED_LEVELS = 3;
const DAY_MS = 24 * 3600_000;
/** An install folder unused this long is removed: as long as its content caches are kept (cache-sweep.ts). */
export const INSTALL_KEEP_MS = 7 * DAY_MS;
/** Install folders are swept at most this often (one stat of SWEPT per build otherwise). */
const SWEEP_EVERY_MS = DAY_MS;
/** A process that keeps an install folder (a `site dev` open for days) marks it used this often. */
const IN_USE_EVERY_MS = 3600_000;
/** In an install folder: touched by every process that uses it (its mtime is the last use). */
const USED = 'used';
/** In the cache base: touched by the last sweep of install folders. */
const SWEPT = '.swept';
/** The prefix of an install folder being removed (renamed first, so no build starts in it). */
const REMOVING = '.removing-';
let privateBase: string | null = null;
const inUse = new Set<string>();

/** The per-user folders tried, in order: $XDG_CACHE_HOME/codelabgen/site, ~/.cache/codelabgen/site. */
export function siteCacheCandidates(env: NodeJS.ProcessEnv): string[] {
  const xdg = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : null;
  const home = env.HOME && path.isAbsolute(env.HOME) ? env.HOME : os.homedir();
  return [...(xdg ? [xdg] : []), path.join(home, '.cache')].map((base) => path.join(base, 'codelabgen', 'site'));
}

/** The first candidate this user can make and write into; else a private temp folder (0700) for this process. */
function userBase(env: NodeJS.ProcessEnv): string {
  for (const dir of siteCacheCandidates(env)) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      accessSync(dir, constants.W_OK | constants.X_OK);
      if (ownFolder(dir, 0o022) && ownFolder(path.dirname(dir), 0o002)) return dir;
    } catch {
      // not this user's, or read-only (a shared or locked-down home): try the next
    }
  }
  if (privateBase === null) {
    const made = mkdtempSync(path.join(os.tmpdir(), 'codelabgen-site-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    privateBase = made;
  }
  return privateBase;
}

/**
 * A real folder (not a symlink) of this user that no one else may write: Astro imports the bundles
 * kept in the cache, so a folder another user planted or could swap (a shared XDG_CACHE_HOME) would
 * run their code as this user. Root passes every access check, so this is checked by owner and mode
 * (the folder made 0700; its parent, made under the user's umask, at least not writable by all).
 */
export function ownFolder(dir: string, othersMayNotWrite: number): boolean {
  const stats = lstatSync(dir);
  const uid = process.getuid?.();
  return stats.isDirectory() && (uid === undefined || stats.uid === uid) && (stats.mode & othersMayNotWrite) === 0;
}

/**
 * The cache folder of this user for the install at `packageRoot`: `<base>/<install>/l1/l0`, whose
 * `node_modules` (l0, l1, <install>) link to the package's own node_modules and the ones above it
 * that Node would search, in that order, so the bundles resolve exactly what the package does.
 */
export function siteCacheRoot(env: NodeJS.ProcessEnv, packageRoot: string): string {
  const install = createHash('sha256').update(packageRoot).digest('hex').slice(0, 12);
  const base = userBase(env);
  const folder = path.join(base, `install-${install}`);
  const root = path.join(folder, 'l1', 'l0');
  mkdirSync(root, { recursive: true, mode: 0o700 });
  markInUse(folder);
  const chain = dependencyFolders(packageRoot);
  chain.forEach((target, level) => linkTo(path.join(root, ...Array<string>(level).fill('..'), 'node_modules'), target));
  if (base !== privateBase) sweepInstalls(base, folder, Date.now());
  return root;
}

/**
 * Touches the install folder's USED marker now and, while this process lives, every IN_USE_EVERY_MS
 * (a timer that never keeps the process alive), so a folder in use never looks unused to a sweep.
 */
function markInUse(folder: string): void {
  writeFileSync(path.join(folder, USED), '');
  if (inUse.size === 0) setInterval(touchInUse, IN_USE_EVERY_MS).unref();
  inUse.add(folder);
}

/** Touches the USED marker of every install folder this process uses (exported for the tests). */
export function touchInUse(): void {
  for (const folder of inUse) {
    try {
      writeFileSync(path.join(folder, USED), '');
    } catch {
      // removed meanwhile (unused for a week before this process started?): the next build makes it again
    }
  }
}

/**
 * At most once a day (SWEPT): removes the folders of other installs unused for INSTALL_KEEP_MS, and
 * what a killed sweep left. A folder is renamed away before it is removed, and put back when its
 * marker turns out fresh after all (a build of that install started in between); the removal runs
 * in the background, so the build that sweeps does not wait for it.
 */
export function sweepInstalls(base: string, own: string, now: number): void {
  const swept = path.join(base, SWEPT);
  try {
    if (now - statSync(swept).mtimeMs < SWEEP_EVERY_MS) return;
  } catch {
    // never swept
  }
  try {
    writeFileSync(swept, '');
    for (const name of readdirSync(base)) {
      const dir = path.join(base, name);
      if (dir === own || !(name.startsWith('install-') || name.startsWith(REMOVING))) continue;
      try {
        if (now - lastUsed(dir) <= INSTALL_KEEP_MS) continue;
        let doomed = dir;
        if (!name.startsWith(REMOVING)) {
          doomed = path.join(base, `${REMOVING}${name}-${process.pid}`);
          renameSync(dir, doomed);
          if (now - lastUsed(doomed) <= INSTALL_KEEP_MS) {
            renameSync(doomed, dir);
            continue;
          }
        }
        rm(doomed, { recursive: true, force: true }).catch(() => {});
      } catch {
        // another process renamed, removed or put it back first: left to it
      }
    }
  } catch {
    // the base became unreadable: the next build's sweep tries again
  }
}

/**
 * When an install folder was last used: its USED marker's mtime; for a folder from before the
 * marker, the newest of the folder and the content caches in it (each build touches its own).
 */
function lastUsed(dir: string): number {
  const marker = statSync(path.join(dir, USED), { throwIfNoEntry: false });
  if (marker) return marker.mtimeMs;
  const caches = path.join(dir, 'l1', 'l0');
  let newest = statSync(dir).mtimeMs;
  for (const name of existsSync(caches) ? readdirSync(caches) : [])
    if (name.startsWith('content-')) newest = Math.max(newest, statSync(path.join(caches, name)).mtimeMs);
  return newest;
}

/** The node_modules folders the package's dependencies resolve from, nearest first (its own, then hoisted ones). */
export function dependencyFolders(packageRoot: string): string[] {
  const lookup = createRequire(path.join(packageRoot, 'package.json')).resolve.paths('astro') ?? [];
  return lookup.filter((dir) => existsSync(dir)).slice(0, LINKED_LEVELS);
}

/** Makes `link` a symlink to `target` (replaced atomically when it points elsewhere). */
function linkTo(link: string, target: string): void {
  try {
    if (readlinkSync(link) === target) return;
  } catch {
    // missing (or not a link): made below
  }
  const temp = `${link}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  symlinkSync(target, temp, 'dir');
  renameSync(temp, link);
}
