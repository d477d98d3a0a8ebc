// The state of one site build in this process, shared by the Astro integration and the pages: the
// course read before Astro started, the diagrams being drawn, the lesson pages rendered. One
// instance per process: import it only through pipeline/read/index.ts (pipeline/site/integration.ts).
import type { DiagramJob } from '../site/diagrams.ts';
import type { CourseView } from './course-data.ts';
import type { LessonDocs } from './lesson-files.ts';

/**
 * What `site build` read and rendered before Astro started (pipeline/site/prepare.ts): the content
 * loaders of the same build take the course and the lessons' docs from here instead of reading and
 * rendering them a second time. Docs were rendered with links under `linkBase` (the site's base and
 * prefix, ending in /) for the lessons a build with `drafts` publishes. `site dev` never sets it.
 */
export interface PreparedCourse {
  root: string;
  linkBase: string;
  drafts: boolean;
  view: CourseView;
  docs: Map<string, LessonDocs>;
}

let preparedCourse: PreparedCourse | null = null;

export function setPreparedCourse(prepared: PreparedCourse | null): void {
  preparedCourse = prepared;
}

let diagramJob: DiagramJob | null = null;

/**
 * The diagrams `site build` is drawing while Astro runs (pipeline/site/diagrams.ts startDiagrams):
 * a page waits only for its own diagrams, so drawing overlaps with bundling and the other pages.
 */
export function setDiagramJob(job: DiagramJob | null): void {
  diagramJob = job;
}

/** Settles once the diagram is in the cache or will not be (at once when this build draws none). */
export function diagramDrawn(hash: string): Promise<void> {
  return diagramJob?.drawn(hash) ?? Promise.resolve();
}

/** Whether this build is drawing the diagram (it was not in the cache when the build began). */
export function diagramBeingDrawn(hash: string): boolean {
  return diagramJob?.drawing.has(hash) ?? false;
}

let lessonPagesMade = 0;

/** Called by each lesson page this process renders (a page Astro restores from its cache is not). */
export function noteLessonPageRendered(): void {
  lessonPagesMade++;
}

/** How many lesson pages this process rendered: the rest of a build's were kept from the last one. */
export function lessonPagesRendered(): number {
  return lessonPagesMade;
}

/** The prepared course of this build when it is the course at `root`. */
export function takePreparedCourse(root: string): PreparedCourse | null {
  return preparedCourse?.root === root ? preparedCourse : null;
}
