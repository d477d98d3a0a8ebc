// Which lesson files may go into a lesson's download (the .zip a learner unzips, on any system): a
// name is a forward-slash path of plain segments. A backslash (a separator to Windows extractors:
// `..\..\Startup\evil.bat`), a control character, a character Windows refuses in a name, or a `.`,
// `..` or empty segment leaves the file out, and `check` names it. Used by pipeline/read and check.
import { existsSync } from 'node:fs';
import type { State } from '../../content-schemas/index.ts';
import { CONTROL_CHARACTER, lessonFolderPath, printable, type Course } from '../course/course.ts';
import { listLessonCodeFiles } from './code-hash.ts';

/** Characters Windows refuses in a file name (a backslash is refused first, as a separator). */
const WINDOWS_RESERVED = /[<>:"|?*]/;

/** Why `relative` (a lesson file's `/`-separated path) cannot be a zip entry name, or null when it can. */
export function downloadNameProblem(relative: string): string | null {
  if (relative.includes('\\')) return 'its name holds a backslash, a folder separator to Windows';
  const control = CONTROL_CHARACTER.exec(relative);
  if (control !== null) return `its name holds a control character ("${printable(control[0])}")`;
  const reserved = WINDOWS_RESERVED.exec(relative);
  if (reserved !== null) return `its name holds "${reserved[0]}", which Windows refuses in a file name`;
  if (relative.startsWith('/') || relative.split('/').some((part) => part === '' || part === '.' || part === '..'))
    return 'its path has an empty, "." or ".." part';
  return null;
}

/** The warning `check` gives for a file left out of its lesson's download. */
export function leftOutOfDownload(lessonId: string, relative: string, problem: string): string {
  return `lesson ${lessonId}: ${printable(relative, 240)} is left out of the lesson's download: ${problem}; rename it`;
}

/** `check`'s warnings: every file of every lesson that its download leaves out for its name. */
export function downloadNameWarnings(course: Course, state: State): string[] {
  const warnings: string[] = [];
  for (const id of state.lesson_order) {
    const lesson = state.lessons[id];
    if (lesson === undefined) continue;
    let dir: string;
    try {
      dir = lessonFolderPath(course, lesson.dir, `lesson ${id} dir`);
    } catch {
      continue; // a folder outside the course, or a symlink: the artifact checks report it
    }
    if (!existsSync(dir)) continue;
    for (const file of listLessonCodeFiles(dir)) {
      const problem = downloadNameProblem(file);
      if (problem !== null) warnings.push(leftOutOfDownload(id, file, problem));
    }
  }
  return warnings;
}
