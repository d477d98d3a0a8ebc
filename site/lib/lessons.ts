// Shapes each lesson into what its page shows: docs as segments (diagrams filled from the build's
// cache), code files as a tree, verification badge, stage and what is missing, prev/next. Plain
// functions of a course read from disk (no Astro): site/lib/page-data.test.ts calls them directly.
import { DOC_KIND_NAMES, DOC_KINDS, type GlossaryEntry } from '../../content-schemas/index.ts';
import { missingSteps, needsLastRun } from './missing-steps.ts';
import {
  isPublished,
  lastRunPassed,
  gitHistory,
  diagramBeingDrawn,
  diagramDrawn,
  diagramOutcome,
  diagramRenderer,
  docLinks,
  readCodeFiles,
  readDiagramFiles,
  readGlossary,
  readLessonDocs,
  readSources,
  readTopics,
  readVerification,
  stageDocImage,
  readDiagramSvg,
  leanSvg,
  lessonLink,
  takePreparedCourse,
  type CourseView,
  type DiagramRef,
  type DiagramStyle,
  type DocLinks,
  type LeafSegment,
  type LessonDoc,
  type SiteLesson,
} from '../../pipeline/read/index.ts';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { testCommand } from './download.ts';
import { anchorHeadings, type TocEntry } from './headings.ts';
import type { SiteOptions } from './options.ts';
import type { DiagramView, DocView, LeafSegmentView, LessonLink, LessonPage, SegmentView } from './page-schema.ts';

export type { DiagramView, DocView, LeafSegmentView, LessonLink, LessonPage, SegmentView };

export { missingSteps };

export function isIncluded(view: CourseView, lesson: SiteLesson, options: SiteOptions): boolean {
  return options.drafts || options.dev || isPublished(view, lesson);
}

/** The course entry's lessons (site/collections.ts): which ones the build includes, the sidebar's input. */
export function courseLessons(view: CourseView, options: SiteOptions) {
  return view.lessons.map((l) => ({
    id: l.id,
    stage: l.stage,
    included: isIncluded(view, l, options),
    // The last run is read (and the code hashed) only where it decides what is missing.
    missing: missingSteps(
      l.stage,
      view.config.site.publish,
      needsLastRun(l.stage, view.config.site.publish) ? lastRunPassed(view, l) : null,
    ),
  }));
}

export function termSlug(entry: GlossaryEntry): string {
  return (
    entry.slug ??
    entry.term
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
  );
}

/** A diagram as its lesson entry stores it: what the page will show, not the SVGs (drawnDiagram). */
export function diagramView(ref: DiagramRef, options: SiteOptions): DiagramView {
  const cached = readDiagramSvg(options.diagramCache, ref.hash);
  const declared = /^\s*%%\s*title:\s*(.+)$/.exec(ref.source.split('\n')[0] ?? '')?.[1]?.trim() ?? null;
  // A syntax error found while drawing changes the entry at the next build: that page is rendered again then.
  const drawn = diagramOutcome(cached, ref.source, diagramBeingDrawn(ref.hash));
  return {
    title: ref.title,
    caption: declared,
    label: ref.label,
    source: ref.source,
    hash: ref.hash,
    drawn,
    renderer: diagramRenderer(),
    error: cached?.error ?? null,
  };
}

/** A diagram's SVGs as the page carries them (definitions pruned, stylesheets split off), or its error. */
export interface DrawnDiagram {
  svg: string | null;
  light: string | null;
  dark: string | null;
  styles: DiagramStyle[];
  error: string | null;
}

const drawnOnce = new Map<string, Promise<DrawnDiagram>>();

/** Waits until this build has drawn the diagram (when it is drawing it), then reads it from the cache. */
export function drawnDiagram(view: Pick<DiagramView, 'hash'>, options: SiteOptions): Promise<DrawnDiagram> {
  const key = `${options.diagramCache}\0${view.hash}`;
  const known = drawnOnce.get(key);
  if (known) return known;
  const reading = diagramDrawn(view.hash).then(() => {
    const cached = readDiagramSvg(options.diagramCache, view.hash);
    const styles: DiagramStyle[] = [];
    const lean = (svg: string | null | undefined) => {
      if (svg == null) return null;
      const split = leanSvg(svg);
      if (split.style && !styles.some((s) => s.name === split.style!.name)) styles.push(split.style);
      return split.svg;
    };
    return {
      svg: lean(cached?.svg),
      light: lean(cached?.light),
      dark: lean(cached?.dark),
      styles,
      error: cached?.error ?? null,
    };
  });
  // A build reads each diagram once; `site dev` reads it again on each render (it may have been drawn since).
  if (!options.dev) drawnOnce.set(key, reading);
  return reading;
}

/** Ids the lesson page gives its own sections (and so no doc heading may take). */
export const SECTION_IDS = [
  'objectives',
  ...DOC_KIND_NAMES,
  'diagrams',
  'code',
  'terms',
  'sources',
  'get-the-code',
  'main',
];

/** Id of an .mdx doc in the mdxDocs collection (site/collections.ts): `1.2/readalong`. */
export function mdxDocId(lesson: string, doc: string): string {
  return `${lesson}/${doc.replace(/^docs\//, '').replace(/\.mdx$/, '')}`;
}

function docView(lesson: string, doc: LessonDoc | null, options: SiteOptions, used: Set<string>): DocView | null {
  if (doc === null) return null;
  if (doc.mdx)
    return {
      doc: doc.doc,
      title: doc.title,
      description: null,
      segments: [],
      toc: [],
      mdx: { id: mdxDocId(lesson, doc.doc), diagrams: doc.diagrams.map((d) => diagramView(d, options)) },
    };
  const toc: TocEntry[] = [];
  const leaf = (s: LeafSegment): LeafSegmentView => {
    if (s.kind === 'diagram') return { kind: 'diagram' as const, ...diagramView(s.diagram, options) };
    if (s.kind !== 'html') return s;
    const anchored = anchorHeadings(s.html, used);
    toc.push(...anchored.toc);
    return { kind: 'html' as const, html: anchored.html };
  };
  const segments = doc.segments.map(
    (s): SegmentView => (s.kind === 'group' ? { kind: 'group', parts: s.parts.map(leaf) } : leaf(s)),
  );
  return { doc: doc.doc, title: doc.title, description: doc.description, segments, toc, mdx: null };
}

/** A page's docs in page order (content-schemas/doc-kinds.ts), null where the lesson has none. */
export function docsInOrder(page: Pick<LessonPage, 'docs'>): Array<DocView | null> {
  return DOC_KINDS.map((kind) => page.docs[kind.name]);
}

/** Every leaf segment of a doc, the parts of groups included, in order. */
export function leafSegments(doc: DocView | null): LeafSegmentView[] {
  return (doc?.segments ?? []).flatMap((s) => (s.kind === 'group' ? s.parts : [s]));
}

/** Date (YYYY-MM-DD) of the last commit touching the lesson folder, null outside git or when uncommitted. */
function lastUpdated(course: string, dir: string): string | null {
  const result = spawnSync('git', ['-C', course, 'log', '-1', '--format=%cs', '--', path.join(course, dir)], {
    encoding: 'utf8',
  });
  return result.status === 0 && /^\d{4}-\d{2}-\d{2}$/.test(result.stdout.trim()) ? result.stdout.trim() : null;
}

/** Every included lesson's page data in curriculum order; links start with `linkBase` (the site's base
 * and route prefix, ending in /: site/lib/url.ts href('')). */
export function lessonPages(view: CourseView, options: SiteOptions, linkBase: string): LessonPage[] {
  const lessonHref = (lesson: { id: string; slug: string }) => lessonLink(linkBase, lesson);
  const included = view.lessons.filter((lesson) => isIncluded(view, lesson, options));
  const glossary = readGlossary(view.course);
  const curriculumLessons = new Map(view.curriculum.modules.flatMap((m) => m.lessons.map((l) => [l.id, l] as const)));
  const siteLessons = new Map(view.lessons.map((l) => [l.id, l] as const));
  const topicSource = new Map(readTopics(view.course).map((t) => [t.id, t.source] as const));
  const accepted = new Map(readSources(view.course).map((s) => [s.id, s] as const));
  const sourcesOf = (id: string) =>
    [...new Set((curriculumLessons.get(id)?.topics ?? []).flatMap((t) => topicSource.get(t) ?? []))].flatMap((s) =>
      accepted.has(s) ? [{ id: s, title: accepted.get(s)!.title, url: accepted.get(s)!.url }] : [],
    );
  // A shallow clone would date every lesson by its one commit (pipeline/read/git-history.ts).
  const datedByGit = gitHistory(view.course.root) === 'full';
  const link = (l: SiteLesson | undefined): LessonLink | null =>
    l ? { id: l.id, slug: l.slug, title: l.title } : null;
  const links: DocLinks = docLinks(
    view,
    (lesson) => isIncluded(view, lesson, options),
    (lesson, anchor) => `${lessonHref(lesson)}${anchor ? `#${anchor}` : ''}`,
  );
  // Docs the build rendered before Astro started, for the same lessons with the same links.
  const prepared = takePreparedCourse(view.course.root);
  const rendered =
    prepared?.view === view && !options.dev && prepared.drafts === options.drafts && prepared.linkBase === linkBase
      ? prepared.docs
      : null;
  return included.map((lesson, index) => {
    const docs = rendered?.get(lesson.id) ?? readLessonDocs(view.course, lesson, view.config.site.mdx === true, links);
    const used = new Set(SECTION_IDS);
    const verification = readVerification(view.course, lesson);
    const run = verification.run;
    const docList = Object.values(docs);
    const words = docList.reduce((sum, doc) => sum + (doc?.words ?? 0), 0);
    return {
      id: lesson.id,
      slug: lesson.slug,
      title: lesson.title,
      summary: lesson.summary,
      objectives: lesson.objectives,
      module: lesson.module,
      order: index,
      stage: lesson.stage,
      done: lesson.stage === 'done',
      // A pass vouches for the code it ran on: drifted since, it is no pass (lastRunPassed's rule).
      missing: missingSteps(
        lesson.stage,
        view.config.site.publish,
        run === null ? null : run.passed && !(verification.drift?.drifted ?? false),
      ),
      blocked: lesson.state?.blocked?.reason ?? null,
      stale: lesson.state?.stale?.reason ?? null,
      dir: lesson.dir,
      updated: datedByGit ? lastUpdated(view.course.root, lesson.dir) : null,
      // In page order: a heading id taken by an earlier doc is not reused by a later one.
      docs: Object.fromEntries(
        DOC_KINDS.map((kind) => [kind.name, docView(lesson.id, docs[kind.name], options, used)]),
      ) as LessonPage['docs'],
      diagrams: readDiagramFiles(view.course, lesson).map((d) => diagramView(d, options)),
      files: readCodeFiles(view.course, lesson),
      folder: path.basename(lesson.dir),
      testCommand: testCommand(run, lesson.dir),
      verification: {
        tests: run?.tests ? `${run.tests.passed}/${run.tests.total}` : null,
        passed: run?.passed ?? null,
        at: run?.started_at ?? verification.verified?.at ?? null,
        codeHash: verification.verified?.code_hash ?? run?.code_hash ?? null,
        drifted: verification.drift?.drifted ?? false,
        run: run?.run ?? null,
      },
      readingMinutes: Math.max(1, Math.round(words / 200)),
      prerequisites: (curriculumLessons.get(lesson.id)?.prerequisites ?? []).flatMap((id) => {
        const other = siteLessons.get(id);
        return other ? [{ id, title: other.title, href: included.includes(other) ? lessonHref(other) : null }] : [];
      }),
      sources: sourcesOf(lesson.id),
      prev: link(included[index - 1]),
      next: link(included[index + 1]),
      terms: glossary.filter((g) => g.lessons.includes(lesson.id)).map((g) => ({ term: g.term, slug: termSlug(g) })),
      problems: docList.flatMap((doc) => doc?.problems ?? []),
      images: docList
        .flatMap((doc) => doc?.images ?? [])
        .filter((image, i, all) => all.findIndex((other) => other.key === image.key) === i)
        // A staged copy named by its hash, never the course's path: no course text reaches Vite as a specifier.
        .map((image) => ({ key: image.key, src: stageDocImage(options.imageStage, image) })),
    };
  });
}
