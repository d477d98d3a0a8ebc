// Test helper (imported only by *.test.ts): pack this repository with npm, write a course
// repository's package.json and lock that install the tarball from the local npm cache, and run
// processes without blocking.
import { spawn, spawnSync, type SpawnOptions, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './testing.ts';

interface Lock {
  packages: Record<
    string,
    {
      version?: string;
      dev?: boolean;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    }
  >;
}

/**
 * Installed beside codelabgen in the consumer: the optional peers a course with diagrams needs
 * (README.md), and Starlight, for the test that mounts the course in a Starlight site.
 */
export const DIAGRAM_PACKAGES = ['mermaid', 'playwright', '@astrojs/starlight'];

/** Lock keys of `names` and everything they depend on, resolved as Node does (nearest node_modules up). */
function lockClosure(lock: Lock, names: string[]): Set<string> {
  const keys = new Set<string>();
  const visit = (key: string) => {
    const entry = lock.packages[key];
    if (entry === undefined || keys.has(key)) return;
    keys.add(key);
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      let at = key;
      for (;;) {
        const candidate = `${at}/node_modules/${dep}`;
        if (lock.packages[candidate] !== undefined) {
          visit(candidate);
          break;
        }
        const up = at.lastIndexOf('/node_modules/');
        if (up === -1) {
          visit(`node_modules/${dep}`);
          break;
        }
        at = at.slice(0, up);
      }
    }
  };
  for (const name of names) visit(`node_modules/${name}`);
  return keys;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A process run without blocking the event loop, so that a test's independent steps run at once. */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export function npm(
  args: string[],
  options: SpawnSyncOptions,
): { code: number | null; stdout: string; stderr: string } {
  // Under `npm test` the npm that runs us is npm_execpath; alone, the one on PATH.
  const execpath = process.env.npm_execpath;
  const [command, prefix] = execpath?.endsWith('.js') ? [process.execPath, [execpath]] : ['npm', []];
  const result = spawnSync(command, [...prefix, ...args], { encoding: 'utf8', timeout: 300_000, ...options });
  return { code: result.status, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') };
}

/** `npm pack` of the built repository into `dir`: the tarball's file name and the files it holds. */
export function packInto(dir: string): { filename: string; files: string[] } {
  const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO_ROOT });
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { filename: packed!.filename, files: packed!.files.map((file) => file.path) };
}

/**
 * Writes `dir`/package.json and package-lock.json depending on the tarball at `dir`/`tarball`, with
 * codelabgen's own dependencies locked as in this repository. `npm ci` of this repository caches
 * exactly those tarballs (npm keeps no registry metadata for them, so a lockless install could not
 * resolve offline), and the repository's overrides come along so the lock is consistent.
 */
export function writeConsumer(dir: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const spec = `file:${tarball}`;
  const integrity = `sha512-${createHash('sha512')
    .update(readFileSync(path.join(dir, tarball)))
    .digest('base64')}`;
  // The course has diagrams: it installs the optional peers too, at the versions this repository locks.
  const peers = Object.fromEntries(
    DIAGRAM_PACKAGES.map((name) => [name, lock.packages[`node_modules/${name}`]!.version!]),
  );
  const diagramKeys = lockClosure(lock, DIAGRAM_PACKAGES);
  const packages: Record<string, unknown> = {
    '': { dependencies: { codelabgen: spec, ...peers } },
    'node_modules/codelabgen': {
      version: pkg.version,
      resolved: spec,
      integrity,
      license: pkg.license,
      dependencies: pkg.dependencies,
      peerDependencies: pkg.peerDependencies,
      peerDependenciesMeta: pkg.peerDependenciesMeta,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith('node_modules/')) continue;
    if (!entry.dev) packages[key] = entry;
    else if (diagramKeys.has(key)) packages[key] = { ...entry, dev: undefined };
  }
  // "$mermaid" means "the version of the root's mermaid dependency": the consumer's root has none.
  const pinned = JSON.parse(JSON.stringify(pkg.overrides ?? {}), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith('$')
      ? lock.packages[`node_modules/${value.slice(1)}`]?.version
      : value,
  );
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ private: true, dependencies: { codelabgen: spec, ...peers }, overrides: pinned }, null, 2)}\n`,
  );
  writeFileSync(
    path.join(dir, 'package-lock.json'),
    `${JSON.stringify({ name: 'course', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}
