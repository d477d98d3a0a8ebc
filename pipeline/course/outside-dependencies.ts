// A course repository's own install must work in a fresh clone (the deploy workflow's `npm ci`):
// a `file:` dependency (`npm install ../codelabgen-0.1.0.tgz` writes one) that points outside the
// repository is not in the clone. `init --ci github` refuses it and `codelabgen check` reports it.
import { existsSync } from 'node:fs';
import { readRegularFile } from '../../content-schemas/fast.ts';
import path from 'node:path';
import { isInside } from './inside.ts';
import { VCS_FOLDERS } from './vcs.ts';

const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

export interface OutsideDependency {
  /** The package.json that names it. */
  packageJson: string;
  field: (typeof FIELDS)[number];
  name: string;
  spec: string;
  /** Where it resolves, absolute. */
  target: string;
  /** The repository root: the nearest folder up with a .git, else the package.json's folder. */
  repository: string;
}

/** The nearest package.json from `dir` up, or null. */
function nearestPackageJson(dir: string): string | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'package.json'))) return path.join(at, 'package.json');
    if (path.dirname(at) === at) return null;
  }
}

function repositoryRoot(from: string): string {
  for (let at = from; ; at = path.dirname(at)) {
    if (VCS_FOLDERS.some((name) => existsSync(path.join(at, name)))) return at;
    if (path.dirname(at) === at) return from;
  }
}

/** The `file:` (or bare path) dependencies of the package.json that holds `dir` that resolve outside its repository. */
export function dependenciesOutsideRepository(dir: string): OutsideDependency[] {
  const packageJson = nearestPackageJson(dir);
  if (packageJson === null) return [];
  let manifest: Record<string, unknown>;
  try {
    // Through the regular-file reader: a pipe or a huge file planted as package.json is refused at once.
    manifest = JSON.parse(readRegularFile(packageJson, 4 * 1024 * 1024).toString('utf8')) as Record<string, unknown>;
  } catch {
    return []; // npm itself says what is wrong with a package.json it cannot read
  }
  const folder = path.dirname(packageJson);
  const repository = repositoryRoot(folder);
  const outside: OutsideDependency[] = [];
  for (const field of FIELDS) {
    const deps = manifest[field];
    if (typeof deps !== 'object' || deps === null) continue;
    for (const [name, spec] of Object.entries(deps as Record<string, unknown>)) {
      if (typeof spec !== 'string') continue;
      const local = /^file:(.*)$/.exec(spec)?.[1] ?? (/^(\.{1,2}\/|\/)/.test(spec) ? spec : null);
      if (local === null) continue;
      const target = path.resolve(folder, local);
      if (!isInside(target, repository)) outside.push({ packageJson, field, name, spec, target, repository });
    }
  }
  return outside;
}

/** One line: what is outside, and why CI cannot install it. */
export function outsideDependencyProblem(dep: OutsideDependency, cwd: string): string {
  const where = path.relative(cwd, dep.packageJson) || 'package.json';
  return `${where}: ${dep.field}.${dep.name} is "${dep.spec}", outside the repository (${dep.repository}): a CI clone (npm ci) has no such file`;
}

/** The fix: install a copy inside the repository (a tarball into vendor/, a folder packed there first). */
export function outsideDependencyFix(dep: OutsideDependency): string {
  const flag =
    dep.field === 'devDependencies' ? '--save-dev ' : dep.field === 'optionalDependencies' ? '--save-optional ' : '';
  const inRepo = path.relative(path.dirname(dep.packageJson), dep.repository).split(path.sep).join('/') || '.';
  const install = (what: string) => `npm install ${flag}${inRepo}/vendor/${what}`;
  if (/\.t(ar\.)?gz$/.test(dep.target)) {
    const file = path.basename(dep.target);
    const copy = `mkdir -p ${inRepo}/vendor && cp ${dep.target} ${inRepo}/vendor/`;
    return `copy it into the repository and install that copy: ${copy} && ${install(file)}; commit vendor/ and package-lock.json`;
  }
  const pack = `npm pack ${dep.target} --pack-destination ${inRepo}/vendor`;
  return `install it from a git URL (npm install ${flag}github:OWNER/${dep.name}), or pack it into the repository: ${pack}, then ${install('<the .tgz>')}`;
}
