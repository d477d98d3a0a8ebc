// `codelabgen register`: the curriculum's lessons into state (pending, in curriculum order) and
// their folders on disk. Refuses duplicate ids, two lessons sharing a folder, unsafe paths, bad
// prerequisites, and dropping or moving a lesson that has progressed unless explicitly allowed.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Curriculum, EventDraft, RegisteredLesson, State } from '../content-schemas/index.ts';
import { CurriculumParser, parseDataFile } from '../content-schemas/fast.ts';
import { ARTIFACTS, abs, insideCourse, lessonDirName, type Course } from './course.ts';
import { refuse } from './errors.ts';
import { getOwn } from './state/keyed.ts';

export function readCurriculum(course: Course): Curriculum {
  return parseDataFile(CurriculumParser, abs(course, ARTIFACTS.curriculum), ARTIFACTS.curriculum);
}

/** The lessons of a curriculum as registered lessons; refuses duplicates, bad prerequisites, unsafe dirs. */
export function curriculumLessons(course: Course, curriculum: Curriculum): RegisteredLesson[] {
  const file = ARTIFACTS.curriculum;
  const modules = new Set<string>();
  const seen = new Map<string, string>();
  const folders = new Map<string, { id: string; field: string }>(); // lowercased folder → its lesson
  const lessons: RegisteredLesson[] = [];
  const allIds = new Set(curriculum.modules.flatMap((module) => module.lessons.map((lesson) => lesson.id)));
  curriculum.modules.forEach((module, m) => {
    if (modules.has(module.id)) refuse(`${file}: modules[${m}].id: duplicate module id "${module.id}"`);
    modules.add(module.id);
    module.lessons.forEach((lesson, l) => {
      const field = `modules[${m}].lessons[${l}]`;
      const earlier = seen.get(lesson.id);
      if (earlier) refuse(`${file}: ${field}.id: duplicate lesson id "${lesson.id}" (also at ${earlier})`);
      lesson.prerequisites.forEach((prerequisite, p) => {
        if (prerequisite === lesson.id) refuse(`${file}: ${field}.prerequisites[${p}]: lesson ${lesson.id} cannot be its own prerequisite`);
        if (!allIds.has(prerequisite)) refuse(`${file}: ${field}.prerequisites[${p}]: unknown lesson "${prerequisite}"`);
        if (!seen.has(prerequisite)) refuse(`${file}: ${field}.prerequisites[${p}]: "${prerequisite}" comes later in the curriculum; a prerequisite must be an earlier lesson`);
      });
      seen.set(lesson.id, field);
      const dir = lessonDirName(module.id, module.slug, lesson.id, lesson.slug);
      insideCourse(course, dir, `${file}: ${field} folder`);
      // Lowercased too: on a case-insensitive file system "A" and "a" are one folder.
      const sharing = folders.get(dir.toLowerCase());
      if (sharing) refuse(`${file}: ${field}: lessons ${sharing.id} (${sharing.field}) and ${lesson.id} both map to the folder ${dir}`, 'change one of their slugs (or ids) so that each lesson has its own folder');
      folders.set(dir.toLowerCase(), { id: lesson.id, field });
      lessons.push({ id: lesson.id, title: lesson.title, slug: lesson.slug, module_id: module.id, module_slug: module.slug, module_title: module.title, dir });
    });
  });
  return lessons;
}

export interface RegisterPlan {
  draft: EventDraft;
  added: string[];
  updated: string[];
  removed: string[];
  /** True when the event would change nothing in state. */
  unchanged: boolean;
}

/** The lessons.register event; refuses dropping or moving a progressed lesson unless allowDrop. */
export function decideRegister(state: State, lessons: RegisteredLesson[], allowDrop: boolean): RegisterPlan {
  const ids = new Set(lessons.map((lesson) => lesson.id));
  const removed = state.lesson_order.filter((id) => !ids.has(id));
  for (const id of removed) {
    const lesson = state.lessons[id];
    if (lesson && lesson.stage !== 'pending' && !allowDrop) refuse(`lesson ${id} (at ${lesson.stage}) is no longer in the curriculum; register refuses to drop a lesson that has progressed`, 'put it back in curriculum.yaml, or drop it explicitly: codelabgen register --allow-drop');
  }
  const added: string[] = [];
  const updated: string[] = [];
  for (const lesson of lessons) {
    const existing = getOwn(state.lessons, lesson.id);
    if (!existing) {
      added.push(lesson.id);
      continue;
    }
    if (existing.dir !== lesson.dir && existing.stage !== 'pending' && !allowDrop) {
      refuse(`lesson ${lesson.id} (at ${existing.stage}) would move from ${existing.dir} to ${lesson.dir}; register refuses to renumber or move a lesson that has progressed`, 'keep its module and slug in curriculum.yaml, or move it explicitly: codelabgen register --allow-drop (then move its folder yourself)');
    }
    const changed = (['title', 'slug', 'module_id', 'module_slug', 'module_title', 'dir'] as const).some((key) => existing[key] !== lesson[key]);
    if (changed) updated.push(lesson.id);
  }
  const sameOrder = lessons.length === state.lesson_order.length && lessons.every((lesson, i) => state.lesson_order[i] === lesson.id);
  const unchanged = added.length === 0 && updated.length === 0 && removed.length === 0 && sameOrder;
  return { draft: { kind: 'lessons.register', lessons, removed }, added, updated, removed, unchanged };
}

/** Creates `<dir>/docs/` for every lesson (idempotent); returns the folders created. */
export function createLessonDirs(course: Course, lessons: readonly RegisteredLesson[]): string[] {
  const created: string[] = [];
  for (const lesson of lessons) {
    const docs = insideCourse(course, path.posix.join(lesson.dir, 'docs'), `lesson ${lesson.id} folder`);
    if (mkdirSync(docs, { recursive: true }) !== undefined) created.push(lesson.dir);
  }
  return created;
}
