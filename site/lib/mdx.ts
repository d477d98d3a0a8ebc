// The lesson page's .mdx docs (site.mdx: true; docs/site.md "MDX"): their table-of-contents entries,
// and the context the built-in MDX components (site/components/mdx/) read from Astro.locals, since
// MDX hands a component only its own props: the lesson, its folder, the producer view.
import path from 'node:path';
import { getEntry, render } from 'astro:content';
import { uniqueId, type TocEntry } from './headings.ts';
import { escapeHtml } from './inline.ts';
import { docsInOrder, SECTION_IDS, type DocView, type LessonPage } from './lessons.ts';
import { siteOptions } from './options.ts';

export interface MdxContext {
  lesson: string;
  /** Absolute lesson folder: <CodeRef> reads its files. */
  lessonDir: string;
  producer: boolean;
  /** Heading ids taken before each .mdx doc (by entry id): site/components/MdxDoc.astro gives its headings the same ids as the TOC. */
  used: Record<string, string[]>;
  /** Counter for unique <Tabs> ids on the page. */
  tabs: number;
}

const KEY = 'codelabgenMdx';

export function mdxContext(locals: object): MdxContext {
  const ctx = Reflect.get(locals, KEY) as MdxContext | undefined;
  if (ctx === undefined) throw new Error('the codelabgen MDX components render only inside a lesson page');
  return ctx;
}

export async function mdxEntry(id: string) {
  const entry = await getEntry('codelabgen-mdx', id);
  if (!entry) throw new Error(`${id}: not in the mdxDocs collection (is site.mdx: true in config.yaml?)`);
  return entry;
}

/**
 * Sets the MDX context for a lesson page and returns the TOC entries of its .mdx docs (by entry id).
 * Ids follow site/lib/headings.ts anchorHeadings: a heading keeps its own id unless taken.
 */
export async function prepareMdx(
  locals: object,
  page: Pick<LessonPage, 'id' | 'dir' | 'docs'>,
  producer: boolean,
): Promise<Map<string, TocEntry[]>> {
  const docs = docsInOrder(page).filter((d): d is DocView => d !== null);
  const used = new Set([...SECTION_IDS, ...docs.flatMap((d) => d.toc.map((t) => t.id))]);
  const ctx: MdxContext = {
    lesson: page.id,
    lessonDir: path.join(siteOptions().course, page.dir),
    producer,
    used: {},
    tabs: 0,
  };
  const tocs = new Map<string, TocEntry[]>();
  for (const doc of docs) {
    if (doc.mdx === null) continue;
    ctx.used[doc.mdx.id] = [...used];
    const { headings } = await render(await mdxEntry(doc.mdx.id));
    tocs.set(
      doc.mdx.id,
      headings.flatMap((h) =>
        h.depth === 2 || h.depth === 3
          ? [
              {
                depth: h.depth,
                id: h.slug && !used.has(h.slug) ? (used.add(h.slug), h.slug) : uniqueId(h.text, used),
                text: h.text,
                html: escapeHtml(h.text),
              },
            ]
          : [],
      ),
    );
  }
  Reflect.set(locals, KEY, ctx);
  return tocs;
}
