// The course sidebar's modules and lessons (only the lessons a build includes). A lesson page lists
// its own module's lessons; the other modules are filled from one shared file when opened
// (site/routes/sidebar.json.ts), so a 200-lesson course does not repeat 200 links on every page.
// No Astro here: site/lib/page-data.test.ts calls it on a course read from disk.
import { lessonLink } from '../../pipeline/read/index.ts';

export interface SidebarLesson {
  id: string;
  title: string;
  href: string;
}
export interface SidebarModule {
  id: string;
  title: string;
  lessons: SidebarLesson[];
}

interface CourseData {
  curriculum: { modules: { id: string; title: string; lessons: { id: string; slug: string; title: string }[] }[] };
  lessons: { id: string; included: boolean }[];
}

/** The modules with included lessons, links under `linkBase` (site/lib/url.ts href('')). */
export function sidebarModules(course: CourseData | undefined, linkBase: string): SidebarModule[] {
  const included = new Set(course?.lessons.filter((l) => l.included).map((l) => l.id) ?? []);
  return (course?.curriculum.modules ?? [])
    .map((m) => ({
      id: m.id,
      title: m.title,
      lessons: m.lessons
        .filter((l) => included.has(l.id))
        .map((l) => ({ id: l.id, title: l.title, href: lessonLink(linkBase, l) })),
    }))
    .filter((m) => m.lessons.length > 0);
}

/** A tiny stable hash (FNV-1a) for cache-busting query strings. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
