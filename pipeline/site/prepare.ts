// Before Astro runs: read the course, pick the lessons (publish: by site.publish, pipeline/read/index.ts), check every code
// reference and collect every diagram of the build, so problems are named before any page is made.
import {
  docLinks,
  isPublished,
  leftOutReason,
  lessonLink,
  readCourse,
  readDiagramFiles,
  readLessonDocs,
  refuseUnallowedMdx,
  type CourseView,
  type DiagramRef,
  type LessonDocs,
  type SiteLesson,
} from '../read/index.ts';

export interface Prepared {
  view: CourseView;
  included: SiteLesson[];
  /** Lessons a publish build leaves out, with their stage and why (leftOutReason). */
  excluded: { id: string; title: string; stage: string; reason: string }[];
  diagrams: DiagramRef[];
  /** `lesson <id> <doc>:<line>: code reference ...` (or link, image) */
  problems: string[];
  /** How many doc images the included lessons show (none: the build leaves astro:assets out). */
  images: number;
  /** Each included lesson's docs, rendered with links under `linkBase`. */
  docs: Map<string, LessonDocs>;
}

/** `linkBase`: the site's base and prefix, ending in / (the pages' links), or '' for relative ones. */
export function prepareSite(root: string, drafts: boolean, linkBase = ''): Prepared {
  const view = readCourse(root);
  refuseUnallowedMdx(view);
  const included = view.lessons.filter((lesson) => drafts || isPublished(view, lesson));
  const excluded = view.lessons
    .filter((lesson) => !included.includes(lesson))
    .map((l) => ({ id: l.id, title: l.title, stage: l.stage ?? 'no state', reason: leftOutReason(view, l) }));
  const diagrams: DiagramRef[] = [];
  const problems: string[] = [];
  let images = 0;
  const rendered = new Map<string, LessonDocs>();
  const links = docLinks(
    view,
    (lesson) => included.includes(lesson),
    (lesson, anchor) => lessonLink(linkBase, lesson, anchor),
  );
  for (const lesson of included) {
    const docs = readLessonDocs(view.course, lesson, view.config.site.mdx === true, links);
    rendered.set(lesson.id, docs);
    for (const doc of Object.values(docs)) {
      if (doc === null) continue;
      diagrams.push(...doc.diagrams);
      problems.push(...doc.problems);
      images += doc.images.length;
    }
    diagrams.push(...readDiagramFiles(view.course, lesson));
  }
  return { view, included, excluded, diagrams, problems, images, docs: rendered };
}
