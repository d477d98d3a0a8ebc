// Test helper (imported only by cli/testing.ts): course fixtures made once per built CLI and shared by
// every test file of a run, so that set-up walks (init, phases, lessons through their stages) cost a
// copy instead of dozens of CLI processes per file. Keyed by the hash of dist/ and of the fixture code.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What a fixture depends on besides its key: the built CLI, what init copies, the fixture makers. */
const FIXTURE_INPUTS = ['dist', 'templates', 'bin', 'cli/testing.ts', 'cli/protocol-fixture.ts', 'cli/course-cache.ts'];
const LOCK_STALE_MS = 300_000; // a lock this old was left by a test file that crashed while making a fixture
const WAIT_LIMIT_MS = 600_000;

let cacheFolder: string | undefined;

function inputFiles(entry: string): string[] {
  const at = path.join(REPO_ROOT, entry);
  if (statSync(at).isFile()) return [entry];
  return readdirSync(at, { recursive: true, encoding: 'utf8' })
    .filter((file) => !file.endsWith('.map') && statSync(path.join(at, file)).isFile())
    .filter((file) => entry !== 'dist' || !file.startsWith(`site${path.sep}`)) // the Astro site: no state command loads it
    .sort()
    .map((file) => path.join(entry, file));
}

/**
 * Every file a fixture depends on: FIXTURE_INPUTS, and the project's modules their TypeScript imports,
 * followed through relative imports (cli/protocol-fixture.ts imports pipeline modules directly: a change
 * there must make new fixtures even when dist/ is not rebuilt, as with $CODELABGEN_TEST_CLI).
 */
export function fixtureInputFiles(): string[] {
  const files = new Set(FIXTURE_INPUTS.flatMap(inputFiles));
  // Re-exports too (a barrel such as content-schemas/index.ts): cli/source-scan.ts moduleImports() reads
  // imports only, and importing it here would make a cycle through cli/testing.ts.
  const follow = (file: string): void => {
    if (!file.endsWith('.ts')) return;
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const [, specifier] of text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*'(\.{1,2}\/[^']+)'/gm)) {
      const imported = path.join(path.dirname(file), specifier!);
      if (files.has(imported)) continue;
      files.add(imported);
      follow(imported);
    }
  };
  for (const file of [...files]) follow(file);
  return [...files].sort();
}

/** tmp/codelabgen-fixtures-UID/HASH: one folder per build of the CLI (one unused for a day is removed). */
function fixtureFolder(): string {
  if (cacheFolder !== undefined) return cacheFolder;
  const hash = createHash('sha256');
  for (const file of fixtureInputFiles()) hash.update(`${file}\0`).update(readFileSync(path.join(REPO_ROOT, file)));
  const parent = path.join(tmpdir(), `codelabgen-fixtures-${process.getuid?.() ?? 0}`);
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  cacheFolder = path.join(parent, hash.digest('hex').slice(0, 16));
  if (!existsSync(cacheFolder)) removeOldBuilds(parent);
  mkdirSync(cacheFolder, { recursive: true });
  const now = new Date();
  utimesSync(cacheFolder, now, now); // in use: not old
  return cacheFolder;
}

function removeOldBuilds(parent: string): void {
  for (const name of readdirSync(parent)) {
    const folder = path.join(parent, name);
    if (Date.now() - statSync(folder).mtimeMs > 86_400_000) rmSync(folder, { recursive: true, force: true });
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * The folder holding the course `make` builds for `key` (at `<folder>/course`), made once per build of
 * the CLI and shared by the test files of a run. Six files run at once: one makes it in a folder of its
 * own and renames it into place under a lock; the others wait for it. `make` must depend only on its
 * key, the built CLI and the fixture files (FIXTURE_INPUTS), never on the calling test file.
 */
export function cachedCourse(key: string, make: (root: string) => void): string {
  const name = createHash('sha256').update(key).update('\0').update(make.toString()).digest('hex').slice(0, 16);
  const ready = path.join(fixtureFolder(), name);
  const lock = `${ready}.lock`;
  for (let waited = 0; !existsSync(ready); waited += 100) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is making it: wait, unless its lock was left by a crash.
      if (waited > WAIT_LIMIT_MS) throw new Error(`cli/course-cache.ts: waited 10 minutes for the fixture ${key}`);
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(pause, 0, 0, 100);
      continue;
    }
    try {
      if (!existsSync(ready)) makeInto(ready, make);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return ready;
}

function makeInto(ready: string, make: (root: string) => void): void {
  const building = `${ready}.${process.pid}.tmp`;
  rmSync(building, { recursive: true, force: true });
  try {
    mkdirSync(building);
    make(path.join(building, 'course'));
    renameSync(building, ready);
  } catch (error) {
    // Made meanwhile by a test file that broke a lock it took for stale: the one in place serves.
    if (!existsSync(path.join(ready, 'course'))) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}
