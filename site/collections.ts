// The course's content collections (`codelabgen/content`): loaders read the course through
// pipeline/read.ts (the folder comes from the integration's options) and validate with the schemas
// of content-schemas/. In dev they watch the course and reload on any change.
import { defineCollection, type LoaderContext } from 'astro:content';
import { z } from 'astro/zod';
import { CurriculumLessonSchema, CurriculumSchema, GlossaryEntrySchema, ReportSchema, SourceSchema, StageSchema } from '../content-schemas/index.ts';
import { readCourse, readGlossary, readReport, readSources, renderInline, renderMarkdown } from '../pipeline/read.ts';
import { isIncluded, lessonPages, missingSteps, termSlug, type LessonPage } from './lib/lessons.ts';
import { siteOptions } from './lib/options.ts';

type Fill = (ctx: LoaderContext) => void;

/** A loader that fills the store from the course and, in dev, refills it when the course changes. */
function courseLoader(name: string, fill: Fill) {
  return {
    name: `codelabgen-${name}`,
    load: async (ctx: LoaderContext) => {
      const run = () => {
        ctx.store.clear();
        fill(ctx);
      };
      run();
      const root = siteOptions().course;
      if (ctx.watcher) {
        ctx.watcher.add(root);
        ctx.watcher.on('all', (_event, file) => {
          if (!file.startsWith(root)) return;
          try {
            run();
          } catch (error) {
            ctx.logger.error(`${name}: ${(error as Error).message}`);
          }
        });
      }
    },
  };
}

const set = (ctx: LoaderContext, id: string, data: Record<string, unknown>) => ctx.store.set({ id, data });

const course = defineCollection({
  loader: courseLoader('course', (ctx) => {
    const options = siteOptions();
    const view = readCourse(options.course);
    const lessons = view.lessons.map((l) => ({ id: l.id, stage: l.stage, included: isIncluded(l, options), missing: missingSteps(l.stage) }));
    set(ctx, 'course', { curriculum: view.curriculum, phase: view.state?.phase ?? null, hasState: view.state !== null, drafts: options.drafts || options.dev, lessons });
  }),
  schema: z.object({
    curriculum: CurriculumSchema,
    phase: z.string().nullable(),
    hasState: z.boolean(),
    drafts: z.boolean(),
    lessons: z.array(z.object({ id: z.string(), stage: StageSchema.nullable(), included: z.boolean(), missing: z.array(z.string()) })),
  }),
});

const lessons = defineCollection({
  loader: courseLoader('lessons', (ctx) => {
    const options = siteOptions();
    for (const page of lessonPages(readCourse(options.course), options)) set(ctx, page.id, { ...page });
  }),
  schema: CurriculumLessonSchema.pick({ id: true, slug: true, title: true, summary: true, objectives: true }).extend({ stage: StageSchema.nullable(), page: z.custom<LessonPage>().optional() }).passthrough(),
});

const glossary = defineCollection({
  loader: courseLoader('glossary', (ctx) => {
    const view = readCourse(siteOptions().course);
    for (const entry of readGlossary(view.course)) set(ctx, termSlug(entry), { ...entry, slug: termSlug(entry), html: renderInline(entry.definition) });
  }),
  schema: GlossaryEntrySchema.extend({ html: z.string() }),
});

const sources = defineCollection({
  loader: courseLoader('sources', (ctx) => {
    const view = readCourse(siteOptions().course);
    for (const source of readSources(view.course)) set(ctx, source.id, { ...source, digestHtml: source.digest === null ? null : renderMarkdown(source.digest) });
  }),
  schema: SourceSchema.extend({ digest: z.string().nullable(), digestHtml: z.string().nullable() }),
});

const report = defineCollection({
  loader: courseLoader('report', (ctx) => {
    const view = readCourse(siteOptions().course);
    const data = readReport(view.course);
    if (data !== null) set(ctx, 'report', data);
  }),
  schema: ReportSchema,
});

/** The collections the course pages read; spread them into a site's own `collections`. */
export function codelabgenCollections() {
  return { course, lessons, glossary, sources, report };
}
