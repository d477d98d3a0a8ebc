// A lesson page's "On this page" entries and the names its search results give headings, from the
// page data (site/lib/lessons.ts): plain functions, no Astro (site/lib/page-data.test.ts).
import type { TocEntry } from './headings.ts';
import { escapeHtml, nameSegments, plainTitle, sectionTocTitle, titleHtml } from './inline.ts';
import type { LessonPage } from './page-schema.ts';

type TocPage = Pick<LessonPage, 'title' | 'objectives' | 'readalong' | 'notes' | 'diagrams' | 'terms' | 'sources'>;

/** The page's sections in order, each followed by its doc's headings (an .mdx doc's from `mdxTocs`, by doc id). */
export function lessonToc(page: TocPage, mdxTocs: ReadonlyMap<string, TocEntry[]>): TocEntry[] {
  const section = (id: string, title: string, doc?: { toc: TocEntry[]; mdx: { id: string } | null } | null) => [
    { depth: 2 as const, id, text: plainTitle(title), html: titleHtml(title) },
    ...(doc?.mdx ? (mdxTocs.get(doc.mdx.id) ?? []) : (doc?.toc ?? [])),
  ];
  return [
    ...(page.objectives.length > 0 ? section('objectives', 'Objectives') : []),
    ...section('readalong', sectionTocTitle(page.readalong?.title ?? 'Read along', page.title), page.readalong),
    ...section('notes', sectionTocTitle(page.notes?.title ?? 'Notes', page.title), page.notes),
    ...(page.diagrams.length > 0 ? section('diagrams', 'Diagrams') : []),
    ...section('code', 'Files'),
    ...(page.terms.length > 0 ? section('terms', 'Terms') : []),
    ...(page.sources.length > 0 ? section('sources', 'Sources') : []),
  ];
}

/** What search results call the headings where pagefind's plain text loses something (site/client/page.js):
 * inline code, and a doc title that "On this page" shortens (`Notes`). By heading id; `_top` is the lesson. */
export function searchNames(
  page: Pick<LessonPage, 'id' | 'title' | 'readalong' | 'notes'>,
  toc: TocEntry[],
): Record<string, string> {
  const docTitles: Array<[string, string]> = [
    ['readalong', page.readalong?.title ?? 'Read along'],
    ['notes', page.notes?.title ?? 'Notes'],
  ];
  const shortened = new Set(docTitles.filter(([, t]) => sectionTocTitle(t, page.title) !== t).map(([id]) => id));
  return Object.fromEntries([
    ...(titleHtml(page.title).includes('<code>')
      ? [['_top', nameSegments(`${escapeHtml(page.id)} ${titleHtml(page.title)}`)]]
      : []),
    ...toc.filter((t) => t.html.includes('<code>') || shortened.has(t.id)).map((t) => [t.id, nameSegments(t.html)]),
  ]);
}
