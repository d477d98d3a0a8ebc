// The resume hint of an interrupted task: files of its lesson (folder and .codelabgen/lessons/<id>/)
// changed since the task started, by mtime, which a crashed worker may have left half-written.
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { LessonState } from '../../content-schemas/index.ts';
import { DOT_DIR, insideCourse, type Course } from '../course/course.ts';
import { VCS_FOLDERS } from '../course/vcs.ts';

const SKIPPED_DIRS = new Set([
  ...VCS_FOLDERS,
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.benchmarks',
  'dist',
  'build',
]);
const MAX_FILES = 50;

/** Course-relative paths of the lesson's files modified at or after `since`, sorted, at most 50. */
export function lessonFilesChangedSince(course: Course, lesson: LessonState, since: string): string[] {
  const sinceMs = Date.parse(since);
  const changed: string[] = [];
  const walk = (dirRel: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(insideCourse(course, dirRel, `lesson ${lesson.id} dir`), { withFileTypes: true });
    } catch {
      return; // missing or outside the course: nothing there to point at
    }
    for (const entry of entries) {
      const rel = `${dirRel}/${entry.name}`;
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) walk(rel);
      else if (entry.isFile() && lstatSync(path.join(course.root, rel)).mtimeMs >= sinceMs) changed.push(rel);
    }
  };
  walk(lesson.dir);
  walk(`${DOT_DIR}/lessons/${lesson.id}`);
  return changed.sort().slice(0, MAX_FILES);
}
