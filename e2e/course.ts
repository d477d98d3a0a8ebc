// What the tests compare the site with: the demo course's curriculum and lesson files on disk,
// and the URLs of the two builds (set by global-setup.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';

export interface Lesson {
  id: string;
  slug: string;
  title: string;
  module: { id: string; slug: string; title: string };
}

interface Curriculum {
  title: string;
  modules: Array<{
    id: string;
    slug: string;
    title: string;
    lessons: Array<{ id: string; slug: string; title: string }>;
  }>;
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests with playwright (global-setup.ts sets it)`);
  return value;
}

/** The demo course directory. */
export function courseDir(): string {
  return env('E2E_COURSE');
}

/** The site built at base `/` (with build-time diagrams) or at BASE_PATH (client-side diagrams). */
export function siteUrl(build: 'root' | 'base' = 'root'): string {
  return env(build === 'root' ? 'E2E_ROOT_URL' : 'E2E_BASE_URL');
}

export function curriculum(): Curriculum {
  return load(readFileSync(path.join(courseDir(), '.codelabgen', 'curriculum.yaml'), 'utf8')) as Curriculum;
}

/** Every lesson in curriculum order. */
export function lessons(): Lesson[] {
  return curriculum().modules.flatMap((m) =>
    m.lessons.map((l) => ({
      id: l.id,
      slug: l.slug,
      title: l.title,
      module: { id: m.id, slug: m.slug, title: m.title },
    })),
  );
}

export function lessonUrl(lesson: Lesson, build: 'root' | 'base' = 'root'): string {
  return `${siteUrl(build)}lessons/${lesson.id}-${lesson.slug}/`;
}

/** The lesson's folder in the demo course. */
export function lessonDir(lesson: Lesson, course = courseDir()): string {
  return path.join(course, `${lesson.module.id}-${lesson.module.slug}`, `${lesson.id}-${lesson.slug}`);
}

export function readLessonFile(lesson: Lesson, relative: string): string {
  return readFileSync(path.join(lessonDir(lesson), relative), 'utf8');
}
