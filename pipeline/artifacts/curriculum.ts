// curriculum.yaml's lessons as `register` records them, checked (duplicate ids, two lessons sharing a
// folder, unsafe paths, bad prerequisites), and their folders on disk.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Curriculum, RegisteredLesson } from '../../content-schemas/index.ts';
import { CurriculumParser, parseDataFile } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, insideCourse, lessonDirName, type Course } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { problemsOf } from './problems.ts';

export function readCurriculum(course: Course): Curriculum {
  return parseDataFile(CurriculumParser, abs(course, ARTIFACTS.curriculum), ARTIFACTS.curriculum);
}

/** The lessons of a curriculum as registered lessons; refuses duplicates, bad prerequisites, unsafe dirs (the first problem, the others as hints). */
export function curriculumLessons(course: Course, curriculum: Curriculum): RegisteredLesson[] {
  const { lessons, problems } = checkCurriculum(course, curriculum);
  const shared = problems.some((problem) => problem.includes(' both map to the folder '))
    ? ['change one of their slugs (or ids) so that each lesson has its own folder']
    : [];
  if (problems.length > 0) refuse(problems[0]!, ...problems.slice(1), ...shared);
  return lessons;
}

/**
 * Every problem `register` would refuse a curriculum for, one line each (duplicate module or lesson
 * ids, prerequisites unknown or not earlier, unsafe or shared folders), and the lessons it gives.
 * The curriculum phase's gate checks the same.
 */
export function checkCurriculum(
  course: Course,
  curriculum: Curriculum,
): { lessons: RegisteredLesson[]; problems: string[] } {
  const file = ARTIFACTS.curriculum;
  const problems: string[] = [];
  const modules = new Set<string>();
  const seen = new Map<string, string>();
  const folders = new Map<string, { id: string; field: string }>(); // lowercased folder → its lesson
  const lessons: RegisteredLesson[] = [];
  const allIds = new Set(curriculum.modules.flatMap((module) => module.lessons.map((lesson) => lesson.id)));
  curriculum.modules.forEach((module, m) => {
    if (modules.has(module.id)) problems.push(`${file}: modules[${m}].id: duplicate module id "${module.id}"`);
    modules.add(module.id);
    module.lessons.forEach((lesson, l) => {
      const field = `modules[${m}].lessons[${l}]`;
      const earlier = seen.get(lesson.id);
      if (earlier) problems.push(`${file}: ${field}.id: duplicate lesson id "${lesson.id}" (also at ${earlier})`);
      lesson.prerequisites.forEach((prerequisite, p) => {
        if (prerequisite === lesson.id)
          problems.push(`${file}: ${field}.prerequisites[${p}]: lesson ${lesson.id} cannot be its own prerequisite`);
        else if (!allIds.has(prerequisite))
          problems.push(`${file}: ${field}.prerequisites[${p}]: unknown lesson "${prerequisite}"`);
        else if (!seen.has(prerequisite))
          problems.push(
            `${file}: ${field}.prerequisites[${p}]: "${prerequisite}" comes later in the curriculum; a prerequisite must be an earlier lesson`,
          );
      });
      if (!earlier) seen.set(lesson.id, field);
      const dir = lessonDirName(module.id, module.slug, lesson.id, lesson.slug);
      const unsafe = problemsOf(() => insideCourse(course, dir, `${file}: ${field} folder`));
      if (unsafe.length > 0) return void problems.push(...unsafe);
      // Lowercased too: on a case-insensitive file system "A" and "a" are one folder.
      const sharing = folders.get(dir.toLowerCase());
      if (sharing)
        problems.push(
          `${file}: ${field}: lessons ${sharing.id} (${sharing.field}) and ${lesson.id} both map to the folder ${dir}`,
        );
      folders.set(dir.toLowerCase(), { id: lesson.id, field });
      lessons.push({
        id: lesson.id,
        title: lesson.title,
        slug: lesson.slug,
        module_id: module.id,
        module_slug: module.slug,
        module_title: module.title,
        dir,
      });
    });
  });
  return { lessons, problems };
}

/**
 * The `<dir>/docs/` folders (course-relative) missing for these lessons, which `register` makes in
 * its change, and the lesson folders they belong to.
 */
export function missingLessonFolders(
  course: Course,
  lessons: readonly RegisteredLesson[],
): { folders: string[]; created: string[] } {
  const folders: string[] = [];
  const created: string[] = [];
  for (const lesson of lessons) {
    const docs = path.posix.join(lesson.dir, 'docs');
    if (existsSync(insideCourse(course, docs, `lesson ${lesson.id} folder`))) continue;
    folders.push(docs);
    created.push(lesson.dir);
  }
  return { folders, created };
}
