// The course's content collections (`codelabgen/content`): one loader kind reads the course
// through pipeline/read/index.ts (folder from the integration's options), validates every entry with
// its schema (parseData) and stores it with a digest, so unchanged entries are kept as they are.
// In dev the integration refreshes them on course changes (pipeline/site/dev-watch.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
// Astro loads this file (its content config) in a module runner of its own before every build and
// `site dev` start, transforming each module it imports: `astro:content` (its page runtime, about 75
// modules) and `astro/loaders` (its loaders and image-size, about 30) cost about a second of CPU
// there (docs/performance.md). `defineCollection` is the same function from astro/content/config
// (astro:content's only adds a refusal of live collections, which this file has none of), and glob()
// is imported only when there are .mdx docs.
import { defineCollection } from 'astro/content/config';
import type { Loader, LoaderContext } from 'astro/loaders';
import { z } from 'astro/zod';
import {
  CurriculumSchema,
  DOC_KINDS,
  docFiles,
  GlossaryEntrySchema,
  PHASES,
  ReportSchema,
  SourceSchema,
  StageSchema,
  type Phase,
} from '../content-schemas/index.ts';
import {
  emptyCourseView,
  readCourse,
  readGlossary,
  readReport,
  readSources,
  renderInline,
  renderMarkdown,
  takePreparedCourse,
  type CourseView,
} from '../pipeline/read/index.ts';
import { branding } from './lib/branding.ts';
import { courseSnapshots, markLoaded, syncOf } from './lib/course-snapshot.ts';
import { courseLessons, isIncluded, lessonPages, mdxDocId, termSlug } from './lib/lessons.ts';
import { siteOptions, type SiteOptions } from './lib/options.ts';
import { DocImageSchema, LessonPageSchema } from './lib/page-schema.ts';
import { href } from './lib/url.ts';

/** Part of every digest: bump when what an entry holds changes without its data changing. */
const ENTRY_FORMAT = 2;

type Entry = { id: string; data: Record<string, unknown> };
type Entries = (view: CourseView, options: SiteOptions) => Entry[];

/** One read of the course per sync (site/lib/course-snapshot.ts); a build's was read before Astro started. */
const snapshots = courseSnapshots(readCourse);
function courseView(root: string, generation: unknown): CourseView {
  // A build reads the course once, before Astro starts (pipeline/read/index.ts, PreparedCourse).
  const prepared = generation === undefined ? takePreparedCourse(root) : null;
  return prepared !== null ? prepared.view : snapshots(root, generation);
}

/** Stores the entries whose digest changed, drops the ones that are gone. */
async function syncEntries(ctx: LoaderContext, entries: Entry[]): Promise<void> {
  const seen = new Set<string>();
  for (const { id, data } of entries) {
    seen.add(id);
    const digest = ctx.generateDigest({ format: ENTRY_FORMAT, data });
    if (ctx.store.get(id)?.digest === digest) continue;
    ctx.store.set({ id, data: await ctx.parseData({ id, data }), digest });
  }
  for (const id of ctx.store.keys()) if (!seen.has(id)) ctx.store.delete(id);
}

/**
 * A loader that fills its collection from the course. In dev a course that fails to read keeps the
 * entries it had (dev-watch prints the error; the course entry carries it for the page banner).
 */
function courseLoader(name: string, entries: Entries): Loader {
  return {
    name: `codelabgen-${name}`,
    load: async (ctx) => {
      const options = siteOptions();
      let fresh: Entry[];
      try {
        fresh = entries(courseView(options.course, ctx.refreshContextData?.generation), options);
      } catch (error) {
        if (!options.dev) throw error;
        // Nothing read yet (a course made by `init`, before its curriculum): an empty course, so
        // every page (the /progress/ board first) shows, with the problem in the dev banner.
        const kept = ctx.store.get('course')?.data ?? (name === 'course' ? emptyCourse(options) : null);
        // Before the curriculum phase is over a missing curriculum is where the course is, not a problem.
        const problem = curriculumAhead(kept, options) ? null : (error as Error).message;
        if (name === 'course' && kept) {
          const data = { ...kept, problem, generation: syncNumber(ctx) };
          ctx.store.set({ id: 'course', data: await ctx.parseData({ id: 'course', data }) });
        }
        markLoaded(ctx.refreshContextData?.generation); // read (and failed): not a sync to try again
        return;
      }
      // The course entry names the sync that stored it: dev-watch asks the pages' store for it.
      if (name === 'course') for (const entry of fresh) entry.data.generation = syncNumber(ctx);
      await syncEntries(ctx, fresh);
      markLoaded(ctx.refreshContextData?.generation);
    },
  };
}

/** The `site dev` sync whose read of the course this loader stores (site/lib/course-snapshot.ts); null in a build. */
function syncNumber(ctx: LoaderContext): number | null {
  return siteOptions().dev ? syncOf(ctx.refreshContextData?.generation) : null;
}

/** No curriculum.yaml yet at a phase before the curriculum is approved: nothing is wrong yet. */
function curriculumAhead(entry: Record<string, unknown> | null, options: SiteOptions): boolean {
  const modules = (entry?.curriculum as { modules?: unknown[] } | undefined)?.modules ?? [];
  const phase = PHASES.indexOf(entry?.phase as Phase);
  const written = existsSync(path.join(options.course, '.codelabgen', 'curriculum.yaml'));
  return !written && modules.length === 0 && phase !== -1 && phase <= PHASES.indexOf('gate_plan');
}

/** The course entry of a course that cannot be read yet: its title from state.json, no lessons. */
function emptyCourse(options: SiteOptions): Record<string, unknown> {
  const view = emptyCourseView(options.course);
  return {
    curriculum: view.curriculum,
    phase: view.state?.phase ?? null,
    hasState: view.state !== null,
    drafts: true,
    site: branding(view.course.root, view.config.site, options),
    lessons: [],
    // The header's Glossary and Sources links: none before the course can be read.
    glossaryTerms: 0,
    sourceCount: 0,
    problem: null,
    generation: null,
  };
}

const course = defineCollection({
  loader: courseLoader('course', (view, options) => {
    const lessons = courseLessons(view, options);
    return [
      {
        id: 'course',
        data: {
          curriculum: view.curriculum,
          phase: view.state?.phase ?? null,
          hasState: view.state !== null,
          drafts: options.drafts || options.dev,
          site: branding(view.course.root, view.config.site, options),
          lessons,
          glossaryTerms: readGlossary(view.course).length,
          sourceCount: readSources(view.course).length,
          problem: null,
          generation: null,
        },
      },
    ];
  }),
  schema: z.strictObject({
    // No module yet in site dev before the curriculum phase (emptyCourse).
    curriculum: CurriculumSchema.extend({ modules: CurriculumSchema.shape.modules.unwrap().array().max(200) }),
    phase: z.string().nullable(),
    hasState: z.boolean(),
    drafts: z.boolean(),
    site: z.strictObject({
      producer: z.boolean().describe('Show production details: stages, code hashes, run numbers, the report.'),
      logo: z.string().nullable().describe('data: URI'),
      favicon: z.string().nullable().describe('data: URI'),
      accent: z.strictObject({ light: z.string(), dark: z.string() }).nullable(),
      footer: z.string().nullable(),
      editUrl: z.string().nullable().describe('With {path} for the doc path in the course.'),
      repoUrl: z.string().nullable(),
      lang: z.string(),
    }),
    lessons: z.array(
      z.strictObject({
        id: z.string(),
        stage: StageSchema.nullable(),
        included: z.boolean(),
        missing: z.array(z.string()),
      }),
    ),
    glossaryTerms: z
      .int()
      .min(0)
      .describe('Entries of the glossary: the header links the Glossary page only when there are some.'),
    sourceCount: z
      .int()
      .min(0)
      .describe('Accepted sources: the header links the Sources page only when there are some.'),
    problem: z
      .string()
      .nullable()
      .describe('Why the course could not be read again (dev); the page shows the last good content.'),
    generation: z
      .int()
      .nullable()
      .describe(
        "The site dev sync that stored this entry (dev-watch checks the pages' store has it); null in a build.",
      ),
  }),
});

const lessons = defineCollection({
  loader: courseLoader('lessons', (view, options) =>
    lessonPages(view, options, href('')).map((page) => ({ id: page.id, data: page })),
  ),
  // Doc images go through astro:assets: image() makes each file an asset import of the build.
  schema: ({ image }) => LessonPageSchema.extend({ images: z.array(DocImageSchema.extend({ src: image() })) }),
});

const glossary = defineCollection({
  loader: courseLoader('glossary', (view) =>
    readGlossary(view.course).map((entry) => ({
      id: termSlug(entry),
      data: { ...entry, slug: termSlug(entry), html: renderInline(entry.definition) },
    })),
  ),
  schema: GlossaryEntrySchema.extend({ slug: z.string(), html: z.string() }),
});

/** A source's digest under its entry on the Sources page: without its own `# Digest: ...` title (the entry names the source), headings one level down. */
function digestHtml(markdown: string): string {
  return renderMarkdown(markdown.replace(/^\s*# [^\n]*\n/, '')).replace(
    /<(\/?)h([1-5])\b/g,
    (_, close: string, level: string) => `<${close}h${Number(level) + 1}`,
  );
}

const sources = defineCollection({
  loader: courseLoader('sources', (view) =>
    readSources(view.course).map((source) => ({
      id: source.id,
      data: { ...source, digestHtml: source.digest === null ? null : digestHtml(source.digest) },
    })),
  ),
  schema: SourceSchema.extend({ digest: z.string().nullable(), digestHtml: z.string().nullable() }),
});

const report = defineCollection({
  loader: courseLoader('report', (view) => {
    const data = readReport(view.course);
    return data === null ? [] : [{ id: 'report', data }];
  }),
  schema: ReportSchema,
});

/**
 * The .mdx docs of the pages' lessons (only with site.mdx: true; the readers refuse them without):
 * Astro's glob() loader over exactly those files, so @astrojs/mdx compiles them and the lesson page
 * renders each with the built-in components (site/components/MdxDoc.astro). An .md doc of the same
 * name wins, as in pipeline/read/index.ts. Course changes in dev are watched by the integration.
 */
const mdxDocs = defineCollection({
  loader: {
    name: 'codelabgen-mdx',
    load: async (ctx) => {
      const options = siteOptions();
      let view: CourseView;
      try {
        view = courseView(options.course, ctx.refreshContextData?.generation);
      } catch (error) {
        if (!options.dev) throw error;
        markLoaded(ctx.refreshContextData?.generation);
        return;
      }
      const files = new Map<string, string>();
      if (view.config.site.mdx === true) {
        for (const lesson of view.lessons.filter((l) => isIncluded(view, l, options))) {
          for (const [md, doc] of DOC_KINDS.map(docFiles)) {
            if (
              !existsSync(path.join(options.course, lesson.dir, md)) &&
              existsSync(path.join(options.course, lesson.dir, doc))
            )
              files.set(`${lesson.dir}/${doc}`, mdxDocId(lesson.id, doc));
          }
        }
      }
      // Without the watcher: dev-watch refreshes this loader; glob() would add listeners on every load.
      const unwatched: LoaderContext = { ...ctx };
      delete unwatched.watcher;
      if (files.size === 0) ctx.store.clear();
      else {
        const { glob } = await import('astro/loaders');
        await glob({
          pattern: [...files.keys()],
          base: options.course,
          generateId: ({ entry }) => files.get(entry) ?? entry,
        }).load(unwatched);
      }
      markLoaded(ctx.refreshContextData?.generation);
    },
  },
});

/**
 * The collections the course pages read, named `codelabgen-*` (site/lib/collections-named.ts) so
 * they never replace a host site's own; spread them into the site's `collections`.
 */
export function codelabgenCollections() {
  return {
    'codelabgen-course': course,
    'codelabgen-lessons': lessons,
    'codelabgen-glossary': glossary,
    'codelabgen-sources': sources,
    'codelabgen-report': report,
    'codelabgen-mdx': mdxDocs,
  };
}
