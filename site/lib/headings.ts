// Heading anchors and the on-page table of contents: h2/h3 of a doc's sanitized HTML get unique ids
// and a link beside them (outside the heading, so its name and search titles stay clean).
import { escapeHtml, tocHtml } from './inline.ts';

export interface TocEntry {
  depth: 2 | 3;
  id: string;
  /** Plain text (aria labels, the bar's current section). */
  text: string;
  /** What the link shows: the heading's inline code and emphasis kept (site/lib/inline.ts). */
  html: string;
}

/** `Backpressure, explained` → `backpressure-explained`. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'section'
  );
}

/** A slug of `text` not yet in `used` (which it joins). */
export function uniqueId(text: string, used: Set<string>): string {
  const base = slugify(text);
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

/** The text of a heading's inner HTML (tags dropped, common entities decoded). */
export function headingText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, e: string) => ENTITIES[e] ?? '')
    .trim();
}

/** The link shown beside a heading on hover or focus. */
export function anchorLink(id: string, text: string): string {
  return (
    `<a class="heading-anchor" href="#${id}"><span aria-hidden="true">#</span><span class="visually-hidden" ` +
    `data-pagefind-ignore>Section titled “${escapeHtml(text)}”</span></a>`
  );
}

/** Gives each h2/h3 of `html` an id (its own if unique, else one from its text) and an anchor link. */
export function anchorHeadings(html: string, used: Set<string>): { html: string; toc: TocEntry[] } {
  const toc: TocEntry[] = [];
  const out = html.replace(
    /<h([23])((?:\s[^>]*)?)>([\s\S]*?)<\/h\1>/g,
    (_, level: string, attrs: string, inner: string) => {
      const text = headingText(inner);
      const own = /\sid="([^"]+)"/.exec(attrs)?.[1];
      const id = own !== undefined && !used.has(own) ? (used.add(own), own) : uniqueId(text, used);
      const rest = attrs.replace(/\sid="[^"]*"/, '');
      toc.push({ depth: level === '2' ? 2 : 3, id, text, html: tocHtml(inner) });
      return `<div class="heading-wrap h${level}"><h${level} id="${id}"${rest}>${inner}</h${level}>${anchorLink(id, text)}</div>`;
    },
  );
  return { html: out, toc };
}
