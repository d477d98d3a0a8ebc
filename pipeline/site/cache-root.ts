// Where site builds keep their caches (Astro's content store, bundles and run folders): per user,
// never in the install or a fixed shared path, so another user's build never meets files it cannot
// write (docs/site.md "Caches"). Astro's bundles there import the package's dependencies, so the
// folder gets `node_modules` links to the folders Node would search from the package itself.
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** How many node_modules folders of the package's lookup chain the cache links (own, hoisted, one more). */
const LINKED_LEVELS = 3;
let privateBase: string | null = null;

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
  const root = path.join(userBase(env), `install-${install}`, 'l1', 'l0');
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const chain = dependencyFolders(packageRoot);
  chain.forEach((target, level) => linkTo(path.join(root, ...Array<string>(level).fill('..'), 'node_modules'), target));
  return root;
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
