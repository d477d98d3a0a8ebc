// The schema of what each lesson page shows (the `lessons` collection): built on the
// content-schemas, strict, and the one source of the page's types (LessonPage, DocView, ...).
import { z } from 'astro/zod';
import { CurriculumLessonSchema, DOC_KIND_NAMES, StageSchema, type DocKindName } from '../../content-schemas/index.ts';

export const DiagramViewSchema = z.strictObject({
  title: z.string(),
  caption: z
    .string()
    .nullable()
    .describe('The title from a first line `%% title: ...`, the only caption learners see.'),
  label: z.string().describe('Where the diagram is: `docs/readalong.md:12` or `docs/diagrams/x.mmd`.'),
  source: z.string(),
  hash: z.string().describe('Content hash of the source: the diagram cache key.'),
  drawn: z
    .enum(['themed', 'paired', 'error', 'client'])
    .describe(
      'What the page shows: one SVG themed by CSS variables, a light and a dark SVG, the syntax error, or the ' +
        'source for client-side mermaid. From the diagram cache, or what this build draws (the SVGs are read ' +
        'from the cache when the page is rendered, site/lib/lessons.ts drawnDiagram); in the entry digest, so a ' +
        'page is rendered again when it changes.',
    ),
  renderer: z
    .string()
    .describe(
      'The renderer of the cached SVGs (mermaid version and settings): in the entry digest, so an upgrade renders the pages again.',
    ),
  error: z.string().nullable().describe("Mermaid's syntax error, if any."),
});

const LeafSegmentViewSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('html'), html: z.string().describe('Sanitized HTML.') }),
  z.strictObject({
    kind: z.literal('code'),
    code: z.string(),
    lang: z.string(),
    meta: z.string(),
    title: z.string().nullable(),
    startLine: z.number().int().nullable().describe('First line number of a referenced file part.'),
    mark: z.array(z.number().int()).describe('Marked line numbers of the file.'),
  }),
  DiagramViewSchema.extend({ kind: z.literal('diagram') }),
  z.strictObject({ kind: z.literal('error'), message: z.string() }),
]);

export const SegmentViewSchema = z.discriminatedUnion('kind', [
  ...LeafSegmentViewSchema.options,
  z.strictObject({
    kind: z.literal('group'),
    parts: z
      .array(LeafSegmentViewSchema)
      .describe(
        'A list, blockquote or aside holding fenced blocks; its html parts are pieces of one whole, rendered in order.',
      ),
  }),
]);

export const DocViewSchema = z.strictObject({
  doc: z.string().describe('Doc path in the lesson folder, e.g. docs/readalong.md.'),
  title: z.string().nullable(),
  description: z.string().nullable().describe("The front matter's description, shown under the section heading."),
  segments: z.array(SegmentViewSchema),
  toc: z
    .array(
      z.strictObject({
        depth: z.union([z.literal(2), z.literal(3)]),
        id: z.string(),
        text: z.string(),
        html: z.string(),
      }),
    )
    .describe('The h2/h3 headings of the doc, with their ids.'),
  mdx: z
    .strictObject({
      id: z.string().describe('Entry of the mdxDocs collection.'),
      diagrams: z.array(DiagramViewSchema).describe('Its <Diagram> elements.'),
    })
    .nullable()
    .describe(
      'An .mdx doc (site.mdx: true), rendered by Astro from the mdxDocs collection; its segments and toc are empty.',
    ),
});

/** An image of a lesson doc. `src` is the file's absolute path here; the lessons collection's
 * `image()` turns it into image metadata for astro:assets (site/collections.ts). */
export const DocImageSchema = z.strictObject({
  key: z.string().describe('Content hash; the doc HTML names the image by IMAGE_PLACEHOLDER + key.'),
  src: z.string(),
});

const LessonLinkSchema = z.strictObject({ id: z.string(), slug: z.string(), title: z.string() });

export const CodeFileSchema = z.strictObject({
  path: z.string(),
  lang: z.string(),
  text: z.string(),
  bytes: z.number().int(),
  binary: z.boolean(),
});

export const LessonPageSchema = CurriculumLessonSchema.pick({
  id: true,
  slug: true,
  title: true,
  summary: true,
  objectives: true,
}).extend({
  module: z.strictObject({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    index: z.number().int(),
  }),
  order: z.number().int().describe('Position among the pages of this build.'),
  stage: StageSchema.nullable(),
  done: z.boolean(),
  missing: z.array(z.string()).describe('Steps still to do, e.g. verification, notes.'),
  blocked: z.string().nullable(),
  stale: z.string().nullable(),
  dir: z.string().describe('Lesson folder relative to the course root.'),
  updated: z
    .string()
    .nullable()
    .describe(
      'Date of the last git commit touching the lesson folder (YYYY-MM-DD), null outside git or in a shallow clone.',
    ),
  docs: z
    .record(z.enum(DOC_KIND_NAMES as [DocKindName, ...DocKindName[]]), DocViewSchema.nullable())
    .describe('Each lesson doc by kind (content-schemas/doc-kinds.ts), null where the lesson has none.'),
  diagrams: z.array(DiagramViewSchema).describe('docs/diagrams/*.mmd'),
  files: z.array(CodeFileSchema),
  folder: z.string().describe('Name of the lesson folder: the top folder of its download (`<folder>.zip`).'),
  testCommand: z
    .string()
    .nullable()
    .describe(
      'What runs the tests in that folder, from the last verification run (site/lib/download.ts); null before any run.',
    ),
  verification: z.strictObject({
    tests: z.string().nullable().describe('passed/total of the last run'),
    passed: z.boolean().nullable(),
    at: z.string().nullable(),
    codeHash: z.string().nullable(),
    drifted: z.boolean(),
    run: z.number().int().nullable(),
  }),
  readingMinutes: z.number().int(),
  prerequisites: z
    .array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        href: z.string().nullable().describe('Null when that lesson has no page in this build.'),
      }),
    )
    .describe("The curriculum's prerequisites of the lesson, in its order."),
  sources: z
    .array(z.strictObject({ id: z.string(), title: z.string(), url: z.string() }))
    .describe("Accepted sources of the lesson's topics, in topic order."),
  prev: LessonLinkSchema.nullable(),
  next: LessonLinkSchema.nullable(),
  terms: z.array(z.strictObject({ term: z.string(), slug: z.string() })),
  problems: z.array(z.string()),
  images: z.array(DocImageSchema).describe('The images of the lesson docs, by key.'),
});

export type DiagramView = z.infer<typeof DiagramViewSchema>;
export type SegmentView = z.infer<typeof SegmentViewSchema>;
export type LeafSegmentView = z.infer<typeof LeafSegmentViewSchema>;
export type DocView = z.infer<typeof DocViewSchema>;
export type LessonLink = z.infer<typeof LessonLinkSchema>;
export type LessonPage = z.infer<typeof LessonPageSchema>;
