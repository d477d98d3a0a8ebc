// A lesson page's "On this page" entries and the names its search results give headings, from the
// page data (site/lib/lessons.ts): plain functions, no Astro (site/lib/page-data.test.ts).
import { DOC_KINDS } from '../../content-schemas/index.ts';
import type { TocEntry } from './headings.ts';
import { escapeHtml, nameSegments, plainTitle, sectionTocTitle, titleHtml } from './inline.ts';
import type { LessonPage } from './page-schema.ts';

type TocPage = Pick<LessonPage, 'title' | 'objectives' | 'docs' | 'diagrams' | 'terms' | 'sources'>;

/** The page's sections in order, each followed by its doc's headings (an .mdx doc's from `mdxTocs`, by doc id). */
export function lessonToc(page: TocPage, mdxTocs: ReadonlyMap<string, TocEntry[]>): TocEntry[] {
  const section = (id: string, title: string, doc?: { toc: TocEntry[]; mdx: { id: string } | null } | null) => [
    { depth: 2 as const, id, text: plainTitle(title), html: titleHtml(title) },
    ...(doc?.mdx ? (mdxTocs.get(doc.mdx.id) ?? []) : (doc?.toc ?? [])),
  ];
  return [
    ...(page.objectives.length > 0 ? section('objectives', 'Objectives') : []),
    // Each doc kind's section in page order (content-schemas/doc-kinds.ts), its own title or the kind's.
    ...DOC_KINDS.flatMap((kind) => {
      const doc = page.docs[kind.name];
      return section(kind.name, sectionTocTitle(doc?.title ?? kind.title, page.title), doc);
    }),
    ...(page.diagrams.length > 0 ? section('diagrams', 'Diagrams') : []),
    ...section('code', 'Files'),
    ...(page.terms.length > 0 ? section('terms', 'Terms') : []),
    ...(page.sources.length > 0 ? section('sources', 'Sources') : []),
  ];
}

/** What search results call the headings where pagefind's plain text loses something (site/client/page.js):
 * inline code, and a doc title that "On this page" shortens (`Notes`). By heading id; `_top` is the lesson. */
export function searchNames(page: Pick<LessonPage, 'id' | 'title' | 'docs'>, toc: TocEntry[]): Record<string, string> {
  const docTitles: Array<[string, string]> = DOC_KINDS.map((kind) => [
    kind.name,
    page.docs[kind.name]?.title ?? kind.title,
  ]);
  const shortened = new Set(docTitles.filter(([, t]) => sectionTocTitle(t, page.title) !== t).map(([id]) => id));
  return Object.fromEntries([
    ...(titleHtml(page.title).includes('<code>')
      ? [['_top', nameSegments(`${escapeHtml(page.id)} ${titleHtml(page.title)}`)]]
      : []),
    ...toc.filter((t) => t.html.includes('<code>') || shortened.has(t.id)).map((t) => [t.id, nameSegments(t.html)]),
  ]);
}
