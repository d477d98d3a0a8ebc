// The hash of a lesson's code: every file in the lesson folder except docs/, dependency and cache
// folders. It scopes a verification verdict (drift = the code changed after it passed). Files are
// read in chunks and the walk is bounded (lesson-walk.ts): a huge or deep tree is a refusal.
import { CODE_LIMITS, hashFileInto, walkFiles } from './lesson-walk.ts';
import { VCS_FOLDERS } from '../course/vcs.ts';

export const IGNORED_DIRS = new Set([
  ...VCS_FOLDERS,
  'docs',
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.cache',
  'dist',
  'build',
  'coverage',
  '.turbo',
  '.next',
  '.astro',
  '.tox',
  '.uv-cache',
]);
const IGNORED_FILES = new Set(['.DS_Store']);

const skipDir = (relative: string, name: string) =>
  (relative === '' && name === 'docs') || IGNORED_DIRS.has(name) || name.endsWith('.egg-info');
const codeFiles = (lessonDir: string, label: string) =>
  walkFiles(lessonDir, label, CODE_LIMITS, skipDir).filter(
    (file) => !IGNORED_FILES.has(file.relative.split('/').at(-1)!) && !file.relative.endsWith('.pyc'),
  );

/** Code files of a lesson, relative to its folder, sorted; docs/ and dependency folders skipped. `label` names the folder in refusals. */
export function listLessonCodeFiles(lessonDir: string, label = lessonDir): string[] {
  return codeFiles(lessonDir, label).map((file) => file.relative);
}

/**
 * `sha256:<hex>` over each file's path, size and bytes (a symlink counts by its target text, never
 * followed: it may point out of the course). Refuses (LessonLimitError, naming the path under
 * `label`) a file over 100 MiB, folders nested over 32 deep, more than 20,000 files and folders, a
 * path too long for the system.
 */
export function hashLessonCode(lessonDir: string, label = lessonDir): string {
  // node:crypto loads on the first hash, not with this module: `state next` imports it and seldom hashes.
  const hash = process.getBuiltinModule('node:crypto').createHash('sha256');
  const update = (header: string, chunk?: Buffer) => {
    if (header !== '') hash.update(header);
    if (chunk !== undefined) hash.update(chunk);
  };
  for (const file of codeFiles(lessonDir, label)) hashFileInto(update, lessonDir, label, file, CODE_LIMITS);
  return `sha256:${hash.digest('hex')}`;
}
