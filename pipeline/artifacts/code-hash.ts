// The hash of a lesson's code: every file in the lesson folder except docs/, dependency and cache
// folders. It scopes a verification verdict (drift = the code changed after it passed).
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

export const IGNORED_DIRS = new Set(['docs', 'node_modules', '.venv', 'venv', '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.git', '.cache', 'dist', 'build', 'coverage', '.turbo', '.next', '.astro', '.tox', '.uv-cache']);
const IGNORED_FILES = new Set(['.DS_Store']);

/** Code files of a lesson, relative to its folder, sorted; docs/ and dependency folders skipped. */
export function listLessonCodeFiles(lessonDir: string): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    const entries = readdirSync(path.join(lessonDir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const rel = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!(relative === '' && entry.name === 'docs') && !IGNORED_DIRS.has(entry.name) && !entry.name.endsWith('.egg-info')) walk(rel);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && !IGNORED_FILES.has(entry.name) && !entry.name.endsWith('.pyc')) {
        files.push(rel);
      }
    }
  };
  walk('');
  return files.sort();
}

/** `sha256:<hex>` over each file's path and bytes (a symlink counts by its target, never followed). */
export function hashLessonCode(lessonDir: string): string {
  // node:crypto loads on the first hash, not with this module: `state next` imports it and seldom hashes.
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  for (const file of listLessonCodeFiles(lessonDir)) {
    const full = path.join(lessonDir, file);
    // A symlink counts by its target text, never followed (it may point out of the course).
    const content = lstatSync(full).isSymbolicLink() ? Buffer.from(`symlink:${safeReadlink(full)}`) : readFileSync(full);
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  return `sha256:${hash.digest('hex')}`;
}

function safeReadlink(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '?';
  }
}
