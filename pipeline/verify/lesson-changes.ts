// What a test run changed in its lesson folder that it may not: the lesson's docs (any change), a git
// repository made (removed) or changed in it, and more bytes than verify.max_write_mb. A snapshot before the
// test command, one after, compared; verify-lesson.ts turns a finding into a failed run. Bounded
// walks (artifacts/lesson-walk.ts).
import { createHash } from 'node:crypto';
import { lstatSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isVcsFolder } from '../course/vcs.ts';
import {
  CODE_LIMITS,
  hashFileInto,
  LessonLimitError,
  mebibytes,
  walkFiles,
  type WalkLimits,
} from '../artifacts/lesson-walk.ts';

/** The whole lesson folder, dependencies included, is measured: deeper trees (nested node_modules) and more files than code. */
const MEASURE_LIMITS: WalkLimits = { maxDepth: 64, maxFiles: 500_000, maxFileBytes: Number.MAX_SAFE_INTEGER };

export interface LessonSnapshot {
  /** `docs/<path>` → sha256 of its bytes (a symlink: of its target text); `docs` → `symlink` when docs/ itself is one. */
  docs: Map<string, string>;
  /** Path → apparent size in bytes of every file in the folder (a sparse file counts whole). */
  sizes: Map<string, number>;
}

/** What a snapshot covers. */
export interface SnapshotScope {
  /** Top-level folders left out of the sizes (python-uv's `.venv`, which `uv run` fills with the dependencies during the run). */
  unmeasured: readonly string[];
  /** Whether docs/ is hashed: not when the sandbox binds it read-only (nothing a test does changes it, and a host edit is no test's doing). */
  docs: boolean;
}

const WHOLE: SnapshotScope = { unmeasured: [], docs: true };

/** The lesson's docs and file sizes now; `label` names the folder in refusals (a tree over the walk limits). */
export function snapshotLesson(lessonDir: string, label: string, scope: SnapshotScope = WHOLE): LessonSnapshot {
  const sizes = new Map(
    walkFiles(
      lessonDir,
      label,
      MEASURE_LIMITS,
      (relative, name) => relative === '' && scope.unmeasured.includes(name),
    ).map((file) => [file.relative, file.bytes]),
  );
  return { docs: scope.docs ? docsHashes(lessonDir, label) : new Map(), sizes };
}

function docsHashes(lessonDir: string, label: string): Map<string, string> {
  const docs = path.join(lessonDir, 'docs');
  const hashes = new Map<string, string>();
  let kind: 'missing' | 'symlink' | 'folder' | 'other' = 'missing';
  try {
    const stat = lstatSync(docs);
    kind = stat.isSymbolicLink() ? 'symlink' : stat.isDirectory() ? 'folder' : 'other';
  } catch {
    kind = 'missing'; // no docs yet: nothing to hash
  }
  if (kind === 'symlink' || kind === 'other') hashes.set('docs', kind);
  if (kind !== 'folder') return hashes;
  for (const file of walkFiles(docs, `${label}/docs`, CODE_LIMITS)) {
    const hash = createHash('sha256');
    hashFileInto(
      (header, chunk) => {
        hash.update(header);
        if (chunk !== undefined) hash.update(chunk);
      },
      docs,
      `${label}/docs`,
      file,
      CODE_LIMITS,
    );
    hashes.set(`docs/${file.relative}`, hash.digest('hex'));
  }
  return hashes;
}

/**
 * Why the run must fail, or null: a changed, added or removed file under docs/ (named), else a git
 * repository the run made (named and removed) or changed (named), else more than `maxWriteBytes` written (the folder
 * grew by that much; the file that grew most is named).
 * A lesson folder the run left over the walk limits is a failure naming the path too.
 */
export function forbiddenChanges(
  lessonDir: string,
  label: string,
  before: LessonSnapshot,
  maxWriteBytes: number,
  scope: SnapshotScope = WHOLE,
): string | null {
  let after: LessonSnapshot;
  try {
    after = snapshotLesson(lessonDir, label, scope);
  } catch (error) {
    if (error instanceof LessonLimitError) return `the tests left ${error.message}`;
    throw error;
  }
  const docsChange = changedDocs(before.docs, after.docs);
  if (docsChange !== null)
    return `the tests changed the lesson's docs: ${docsChange}; tests may write their lesson folder but never its docs/ (docs/verify.md)`;
  const repositories = repositoriesWritten(lessonDir, before.sizes, after.sizes);
  if (repositories.length > 0)
    return (
      `the tests made or changed a version-control repository in the lesson folder: ${repositories.join(', ')}; ` +
      "git or hg run in that folder, as by a shell prompt showing the branch, would obey its config (git's " +
      "core.fsmonitor, hg's hooks run a command) outside the sandbox: a test's repository belongs in a temporary " +
      'folder'
    );
  const total = (sizes: Map<string, number>) => [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0);
  const grown = total(after.sizes) - total(before.sizes);
  if (grown <= maxWriteBytes) return null;
  const largest = [...after.sizes]
    .map(([file, bytes]) => [file, bytes - (before.sizes.get(file) ?? 0)] as const)
    .sort((a, b) => b[1] - a[1])[0];
  return (
    `the tests wrote ${mebibytes(grown)} into ${label}, over verify.max_write_mb (${maxWriteBytes / 1024 ** 2})` +
    `${largest === undefined ? '' : `; largest: ${largest[0]} (${mebibytes(largest[1])})`}`
  );
}

/**
 * The version-control folders and files (`.git`, `.hg`, ...: pipeline/course/vcs.ts; a gitfile or link
 * naming a repository elsewhere) under which the run added or resized a file, each named `(removed)` or
 * `(changed)`: one that held nothing before is removed (never followed: rmSync unlinks a link); one that
 * was there (a submodule's gitfile) is left for the user to look at. No system tracks its own folder, so
 * a lesson's code never holds one.
 */
function repositoriesWritten(lessonDir: string, before: Map<string, number>, after: Map<string, number>): string[] {
  const written = new Set<string>();
  for (const [file, bytes] of after) {
    if (before.get(file) === bytes) continue;
    const parts = file.split('/');
    const at = parts.findIndex(isVcsFolder);
    if (at >= 0) written.add(parts.slice(0, at + 1).join('/'));
  }
  const existed = (repository: string) =>
    [...before.keys()].some((file) => file === repository || file.startsWith(`${repository}/`));
  return [...written].sort().map((repository) => {
    if (existed(repository)) return `${repository} (changed)`;
    rmSync(path.join(lessonDir, repository), { recursive: true, force: true });
    return `${repository} (removed)`;
  });
}

function changedDocs(before: Map<string, string>, after: Map<string, string>): string | null {
  for (const [file, hash] of after) {
    if (!before.has(file)) return `${file} (added)`;
    if (before.get(file) !== hash) return `${file} (changed)`;
  }
  for (const file of before.keys()) if (!after.has(file)) return `${file} (removed)`;
  return null;
}
