// THE read-only API of a course for the site: config, curriculum, state, lesson docs, code,
// diagrams, verification, glossary, sources and report. It never writes into the course.
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Config, Curriculum, GlossaryEntry, LessonSpec, LessonState, Report, Review, RunResult, Source, Stage, State, Topic } from '../../content-schemas/index.ts';
import { STAGES, CurriculumSchema, GlossaryEntrySchema, LessonSpecSchema, ReportSchema, ReviewSchema, SourceSchema, TopicSchema, parseData, parseDataFile, parseFrontMatter, parseJsonlFile, readRegularFile, readTextFile, UnreadableFileError } from '../../content-schemas/index.ts';
import { listLessonCodeFiles } from '../artifacts/code-hash.ts';
import { fileInside, OutsideError, realPathInside } from '../course/confined.ts';
import { isInside, realPathOf } from '../course/inside.ts';
import { loadConfig } from '../course/config.ts';
import { ARTIFACTS, courseAt, insideCourse, lessonDirName, lessonFolderPath, type Course } from '../course/course.ts';
import { codeDrift, type CodeDrift } from '../artifacts/drift.ts';
import { refuse } from '../course/errors.ts';
import type { DiagramJob } from '../site/diagrams.ts';
import { lastRun } from '../verify/runs.ts';
import { langOf } from '../site/code-refs.ts';
import { mdxNotAllowed, readMdxDoc } from '../site/mdx-docs.ts';
import type { DocLinks } from '../site/doc-links.ts';
import { diagramHash, diagramTitle, renderDoc, type DiagramRef, type RenderedDoc } from '../site/segments.ts';
import { readStateFile } from '../store/state-file.ts';

export type { Course, DiagramRef, RenderedDoc };
export type { GroupSegment, LeafSegment, Segment } from '../site/segments.ts';
export { IMAGE_PLACEHOLDER } from '../site/segments.ts';
export type { DocImage, DocLinks } from '../site/doc-links.ts';
export { renderInline, renderMarkdown } from '../site/markdown.ts';
export type { SiteOptions } from '../site/options.ts';
export { progressBoardHtml, PROGRESS_EVENTS } from '../site/progress-live.ts';

export interface SiteLesson {
  id: string;
  slug: string;
  title: string;
  summary: string;
  objectives: string[];
  module: { id: string; slug: string; title: string; summary: string; index: number };
  /** Lesson folder relative to the course root. */
  dir: string;
  /** Stage from state.json; null when the course has no state (counts as not done). */
  stage: Stage | null;
  state: LessonState | null;
}

export interface CourseView {
  course: Course;
  config: Config;
  curriculum: Curriculum;
  state: State | null;
  lessons: SiteLesson[];
}

/** Reads the course at `root`; an invalid data file throws DataFileError naming file and field. */
export function readCourse(root: string): CourseView {
  const course = courseAt(root);
  const file = courseFile(course, ARTIFACTS.curriculum);
  if (!existsSync(file)) refuse(`${ARTIFACTS.curriculum} not found in ${course.root}: the site needs a curriculum`, 'write the curriculum first (phase curriculum)');
  const curriculum = parseDataFile(CurriculumSchema, file, ARTIFACTS.curriculum);
  const state = readStateFile(course);
  const lessons: SiteLesson[] = [];
  curriculum.modules.forEach((mod, index) => {
    for (const lesson of mod.lessons) {
      const lessonState = state?.lessons[lesson.id] ?? null;
      lessons.push({
        id: lesson.id,
        slug: lesson.slug,
        title: lesson.title,
        summary: lesson.summary,
        objectives: lesson.objectives,
        module: { id: mod.id, slug: mod.slug, title: mod.title, summary: mod.summary, index },
        dir: lessonState?.dir ?? lessonDirName(mod.id, mod.slug, lesson.id, lesson.slug),
        stage: lessonState?.stage ?? null,
        state: lessonState,
      });
    }
  });
  return { course, config: loadConfig(course), curriculum, state, lessons };
}

/** A `.codelabgen/` file the site reads, refused when it resolves (through a symlink) outside the course. */
/**
 * A data file of `.codelabgen/` (every ARTIFACTS path the site reads), which must also resolve inside
 * `.codelabgen/`: a worker's symlink to elsewhere in the course (`.git/config` with the remote's
 * token, a git-ignored `.env`) would be published (a source digest is shown as written).
 */
function courseFile(course: Course, relative: string): string {
  const file = insideCourse(course, relative, relative);
  const real = realPathOf(file);
  if (!isInside(real, course.dir)) {
    refuse(`${relative} resolves outside ${path.basename(course.dir)}/ (to ${path.relative(realPathOf(course.root), real).split(path.sep).join('/')}); a data file of the course is a file of its own`, 'replace the symbolic link with the file itself');
  }
  return file;
}

/** Absolute lesson folder, refused when it resolves outside the course. */
export function lessonPath(course: Course, lesson: SiteLesson): string {
  return lessonFolderPath(course, lesson.dir, `lesson ${lesson.id} dir`);
}

export function readLessonSpec(course: Course, id: string): LessonSpec | null {
  const file = courseFile(course, ARTIFACTS.lessonSpec(id));
  return existsSync(file) ? parseDataFile(LessonSpecSchema, file, ARTIFACTS.lessonSpec(id)) : null;
}

export type LessonDoc = RenderedDoc & {
  doc: string;
  /** An .mdx doc (site.mdx: true): Astro compiles it; `segments` is empty. */
  mdx: boolean;
};

export interface LessonDocs {
  readalong: LessonDoc | null;
  notes: LessonDoc | null;
}

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

/** A lesson page's path under the site's base and prefix (`linkBase`, ending in /), with an anchor. */
export function lessonLink(linkBase: string, lesson: { id: string; slug: string }, anchor?: string): string {
  return `${linkBase}lessons/${lesson.id}-${lesson.slug}/${anchor ? `#${anchor}` : ''}`;
}

/** The link targets of a build: every lesson of the course, `included` when it has a page. */
export function docLinks(view: CourseView, included: (lesson: SiteLesson) => boolean, href: DocLinks['href']): DocLinks {
  return { courseRoot: view.course.root, lessons: view.lessons.map((l) => ({ id: l.id, slug: l.slug, dir: l.dir, included: included(l) })), href };
}

/**
 * readalong.md/.mdx and notes.md/.mdx: markdown rendered to segments (code references, links and
 * images resolved), MDX read for its problems and diagrams (pipeline/site/mdx-docs.ts). An .mdx doc
 * is refused unless `mdx` (config.yaml site.mdx) allows it.
 */
export function readLessonDocs(course: Course, lesson: SiteLesson, mdx: boolean, links?: DocLinks): LessonDocs {
  const dir = lessonPath(course, lesson);
  const read = (name: string): LessonDoc | null => {
    for (const doc of [`docs/${name}.md`, `docs/${name}.mdx`]) {
      const file = lessonFile(dir, lesson, doc);
      if (file === null) continue;
      const text = readTextFile(file, `${lesson.dir}/${doc}`);
      const ctx = { lesson: lesson.id, lessonDir: dir, doc, ...(links ? { links } : {}) };
      if (!doc.endsWith('.mdx')) return { doc, mdx: false, ...renderDoc(text, ctx) };
      if (!mdx) refuse(mdxNotAllowed(lesson.id, doc));
      const info = readMdxDoc(text, ctx);
      return { doc, mdx: true, title: info.title, description: null, segments: [], problems: info.problems, diagrams: info.diagrams, images: [], words: info.words };
    }
    return null;
  };
  return { readalong: read('readalong'), notes: read('notes') };
}

/** Refuses the first .mdx lesson doc of any lesson unless config.yaml has site.mdx: true (docs/site.md "MDX"). */
export function refuseUnallowedMdx(view: CourseView): void {
  if (view.config.site.mdx === true) return;
  for (const lesson of view.lessons) {
    for (const doc of ['docs/readalong.mdx', 'docs/notes.mdx']) {
      if (lessonFile(lessonPath(view.course, lesson), lesson, doc) !== null) refuse(mdxNotAllowed(lesson.id, doc));
    }
  }
}

/**
 * A file of the lesson folder (real path), null when missing; refused when it resolves outside the
 * folder. Whatever is there is returned: readTextFile refuses anything but a regular file.
 */
function lessonFile(lessonDir: string, lesson: SiteLesson, relative: string): string | null {
  try {
    return realPathInside(lessonDir, relative);
  } catch (error) {
    if (!(error instanceof OutsideError)) throw error;
    return refuse(`${lesson.dir}/${relative} resolves outside the lesson folder (to ${error.real}); the site never publishes files from outside the course`, 'replace the symbolic link with the file itself');
  }
}

/** `docs/diagrams/*.mmd` of a lesson, sorted by file name. */
export function readDiagramFiles(course: Course, lesson: SiteLesson): DiagramRef[] {
  const lessonDir = lessonPath(course, lesson);
  let dir: string | null;
  try {
    dir = realPathInside(lessonDir, 'docs/diagrams');
  } catch (error) {
    if (!(error instanceof OutsideError)) throw error;
    return refuse(`${lesson.dir}/docs/diagrams resolves outside the lesson folder (to ${error.real}); the site never publishes files from outside the course`, 'replace the symbolic link with the folder itself');
  }
  if (dir === null) return [];
  return readdirSync(dir)
    // A symlinked .mmd is skipped (never followed); a pipe, device or socket is refused by readTextFile.
    .filter((name) => name.endsWith('.mmd') && !lstatSync(path.join(dir, name)).isSymbolicLink())
    .sort()
    .map((name) => {
      const source = readTextFile(path.join(dir, name), `${lesson.dir}/docs/diagrams/${name}`);
      return { hash: diagramHash(source), source, label: `docs/diagrams/${name}`, title: diagramTitle(source, name.replace(/\.mmd$/, '')), lesson: lesson.id };
    });
}

export interface CodeFile {
  path: string;
  lang: string;
  text: string;
  bytes: number;
  binary: boolean;
}

/** Code files larger than this (bytes) are listed as binary, not read. */
const MAX_CODE_FILE_BYTES = 512 * 1024;

/** Every code file of the lesson folder (docs/ and dependency folders skipped). */
export function readCodeFiles(course: Course, lesson: SiteLesson): CodeFile[] {
  const dir = lessonPath(course, lesson);
  if (!existsSync(dir)) return [];
  return listLessonCodeFiles(dir).map((file) => {
    const stats = lstatSync(path.join(dir, file));
    // A symlink is shown as such, never followed; a file over the limit, or anything but a regular
    // file, is listed without being read.
    if (stats.isSymbolicLink()) return { path: file, lang: langOf(file), text: '(symbolic link)', bytes: 15, binary: false };
    if (!stats.isFile() || stats.size > MAX_CODE_FILE_BYTES) return { path: file, lang: langOf(file), text: '', bytes: stats.size, binary: true };
    let bytes: Buffer;
    try {
      bytes = readRegularFile(path.join(dir, file), MAX_CODE_FILE_BYTES);
    } catch (error) {
      if (!(error instanceof UnreadableFileError)) throw error;
      return { path: file, lang: langOf(file), text: '', bytes: stats.size, binary: true }; // replaced while read
    }
    const binary = bytes.subarray(0, 8000).includes(0);
    return { path: file, lang: langOf(file), text: binary ? '' : bytes.toString('utf8'), bytes: bytes.length, binary };
  });
}

/** A file of a lesson's download: its path in the lesson folder and its bytes. */
export interface DownloadFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * The lesson's code as a learner downloads it: the files readCodeFiles lists (docs/, dependency and
 * cache folders left out), each read only as a regular file inside the lesson folder: a symbolic link
 * is followed while it stays inside, one leading out of the folder is left out.
 */
export function readLessonDownload(courseRoot: string, dir: string): DownloadFile[] {
  const course = courseAt(courseRoot);
  const lessonDir = lessonFolderPath(course, dir, `lesson folder ${dir}`);
  if (!existsSync(lessonDir)) return [];
  return listLessonCodeFiles(lessonDir).flatMap((file) => {
    let real: string | null;
    try {
      real = fileInside(lessonDir, file);
    } catch (error) {
      if (error instanceof OutsideError) return []; // never publish a file from outside the lesson folder
      throw error;
    }
    if (real === null) return [];
    try {
      return [{ path: file, bytes: readRegularFile(real, MAX_CODE_FILE_BYTES) }];
    } catch (error) {
      if (error instanceof UnreadableFileError) return []; // too big, or not a regular file when opened: not published
      throw error;
    }
  });
}

export function readReview(course: Course, id: string): { review: Review; body: string } | null {
  const rel = ARTIFACTS.lessonReview(id);
  const file = courseFile(course, rel);
  if (!existsSync(file)) return null;
  const { data, body } = parseFrontMatter(readTextFile(file, rel), rel);
  return { review: parseData(ReviewSchema, data, rel), body };
}

export interface Verification {
  run: RunResult | null;
  drift: CodeDrift | null;
  verified: LessonState['verified'];
}

/** Last verification run and code drift of a lesson (null parts when never verified). */
/**
 * Whether a publish build shows the lesson, by the course's `site.publish` rule: `done` lessons at
 * stage done; `verified` also those whose tests passed (stage verified or later, or the last verify
 * run passed, as a hand author runs it); `all` every lesson.
 */
export function isPublished(view: CourseView, lesson: SiteLesson): boolean {
  const rule = view.config.site.publish;
  if (rule === 'all' || lesson.stage === 'done') return true;
  if (rule !== 'verified') return false;
  if (lesson.stage !== null && STAGES.indexOf(lesson.stage) >= STAGES.indexOf('verified')) return true;
  return lastRun(view.course, lesson.id)?.passed === true;
}

/** What a publish build that shows no lesson says, by the course's rule. */
export function nothingPublished(view: CourseView): string {
  const rule = view.config.site.publish;
  const some = view.lessons.slice(0, 5).map((l) => `${l.id} (${l.stage ?? 'no state'})`).join(', ') + (view.lessons.length > 5 ? ', ...' : '');
  const config = '.codelabgen/config.yaml';
  if (view.lessons.length === 0) return 'site build: 0 lessons to publish: the course has no lessons yet; add one with codelabgen new lesson, or build with --drafts';
  if (rule === 'verified') return `site build: 0 lessons to publish: site.publish is verified and no lesson's tests have passed (${some}); run codelabgen verify --all, set site.publish: all in ${config}, or build with --drafts`;
  return `site build: 0 lessons to publish: site.publish is done and no lesson is at stage done (${some}); to publish lessons whose tests pass set site.publish: verified (or all) in ${config}, or build with --drafts`;
}

export function readVerification(course: Course, lesson: SiteLesson): Verification {
  return {
    run: lastRun(course, lesson.id),
    drift: lesson.state === null ? null : codeDrift(course, lesson.state),
    verified: lesson.state?.verified ?? null,
  };
}

export function readGlossary(course: Course): GlossaryEntry[] {
  const file = courseFile(course, ARTIFACTS.glossary);
  return existsSync(file) ? parseJsonlFile(GlossaryEntrySchema, file, ARTIFACTS.glossary) : [];
}

/** Every topic of `.codelabgen/topics/*.jsonl` (what ties a lesson's topics to its sources). */
export function readTopics(course: Course): Topic[] {
  const dir = courseFile(course, '.codelabgen/topics');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => {
      const rel = ARTIFACTS.topics(name.replace(/\.jsonl$/, ''));
      const file = courseFile(course, rel);
      return lstatSync(file).isFile() ? parseJsonlFile(TopicSchema, file, rel) : [];
    });
}

export type AcceptedSource = Source & { digest: string | null };

/** Accepted sources with their digest markdown (null when not written). */
export function readSources(course: Course): AcceptedSource[] {
  const file = courseFile(course, ARTIFACTS.sources);
  if (!existsSync(file)) return [];
  return parseJsonlFile(SourceSchema, file, ARTIFACTS.sources)
    .filter((source) => source.status === 'accepted')
    .map((source) => {
      const digest = courseFile(course, ARTIFACTS.sourceDigest(source.id));
      return { ...source, digest: existsSync(digest) ? readTextFile(digest, ARTIFACTS.sourceDigest(source.id)) : null };
    });
}

export function readReport(course: Course): Report | null {
  const file = courseFile(course, ARTIFACTS.reportJson);
  return existsSync(file) ? parseDataFile(ReportSchema, file, ARTIFACTS.reportJson) : null;
}

export { readCachedDiagram as readDiagramSvg, diagramOutcome, diagramRenderer, type CachedDiagram } from '../site/diagrams.ts';
export { leanSvg, type DiagramStyle } from '../site/diagram-theme.ts';
export { readSiteAssets } from '../site/assets.ts';
export { CodeRefError, parseCodeRef, resolveCodeRef } from '../site/code-refs.ts';
export { diagramHash, diagramTitle } from '../site/segments.ts';
