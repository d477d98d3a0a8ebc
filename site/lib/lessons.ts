// Shapes each lesson into what its page shows: docs as segments (diagrams filled from the build's
// cache), code files as a tree, verification badge, stage and what is missing, prev/next.
import { STAGES, type GlossaryEntry, type Stage } from '../../content-schemas/index.ts';
import { readCodeFiles, readDiagramFiles, readGlossary, readLessonDocs, readVerification, readDiagramSvg, type CourseView, type DiagramRef, type SiteLesson } from '../../pipeline/read.ts';
import type { SiteOptions } from './options.ts';
import type { DiagramView, DocView, LessonLink, LessonPage, SegmentView } from './page-schema.ts';

export type { DiagramView, DocView, LessonLink, LessonPage, SegmentView };

const STEP_NAMES: Record<Stage, string> = { pending: 'pending', spec: 'spec', code: 'code', verified: 'verification', readalong: 'readalong', notes: 'notes', reviewed: 'review', done: 'done' };

/** Stages still to do after `stage` (every one when the course has no state). */
export function missingSteps(stage: Stage | null): string[] {
  const from = stage === null ? 1 : STAGES.indexOf(stage) + 1;
  return STAGES.slice(from).filter((s) => s !== 'done').map((s) => STEP_NAMES[s]);
}

export function isIncluded(lesson: SiteLesson, options: SiteOptions): boolean {
  return options.drafts || options.dev || lesson.stage === 'done';
}

export function termSlug(entry: GlossaryEntry): string {
  return entry.slug ?? entry.term.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function diagramView(ref: DiagramRef, options: SiteOptions): DiagramView {
  const cached = readDiagramSvg(options.diagramCache, ref.hash);
  return { title: ref.title, label: ref.label, source: ref.source, hash: ref.hash, svg: cached?.svg ?? null, light: cached?.light ?? null, dark: cached?.dark ?? null, error: cached?.error ?? null };
}

function docView(doc: ReturnType<typeof readLessonDocs>['readalong'], options: SiteOptions): DocView | null {
  if (doc === null) return null;
  const segments: SegmentView[] = doc.segments.map((s) => (s.kind === 'diagram' ? { kind: 'diagram' as const, ...diagramView(s.diagram, options) } : s));
  return { doc: doc.doc, title: doc.title, segments };
}

/** Every included lesson's page data in curriculum order. */
export function lessonPages(view: CourseView, options: SiteOptions): LessonPage[] {
  const included = view.lessons.filter((lesson) => isIncluded(lesson, options));
  const glossary = readGlossary(view.course);
  const link = (l: SiteLesson | undefined): LessonLink | null => (l ? { id: l.id, slug: l.slug, title: l.title } : null);
  return included.map((lesson, index) => {
    const docs = readLessonDocs(view.course, lesson);
    const verification = readVerification(view.course, lesson);
    const run = verification.run;
    const words = (docs.readalong?.words ?? 0) + (docs.notes?.words ?? 0);
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
      missing: missingSteps(lesson.stage),
      blocked: lesson.state?.blocked?.reason ?? null,
      stale: lesson.state?.stale?.reason ?? null,
      readalong: docView(docs.readalong, options),
      notes: docView(docs.notes, options),
      diagrams: readDiagramFiles(view.course, lesson).map((d) => diagramView(d, options)),
      files: readCodeFiles(view.course, lesson),
      verification: {
        tests: run?.tests ? `${run.tests.passed}/${run.tests.total}` : null,
        passed: run?.passed ?? null,
        at: run?.started_at ?? verification.verified?.at ?? null,
        codeHash: verification.verified?.code_hash ?? run?.code_hash ?? null,
        drifted: verification.drift?.drifted ?? false,
        run: run?.run ?? null,
      },
      readingMinutes: Math.max(1, Math.round(words / 200)),
      prev: link(included[index - 1]),
      next: link(included[index + 1]),
      terms: glossary.filter((g) => g.lessons.includes(lesson.id)).map((g) => ({ term: g.term, slug: termSlug(g) })),
      problems: [...(docs.readalong?.problems ?? []), ...(docs.notes?.problems ?? [])],
    };
  });
}
