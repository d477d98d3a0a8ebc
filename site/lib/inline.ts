// Titles written in markdown (a doc's `# Title`, lesson and module titles of the curriculum) shown
// where no markdown renderer runs: inline code becomes <code> in the page, and plain text where markup
// cannot go (<title>, aria-label, search titles). Also the HTML a heading's TOC entry may keep.

/** Backtick code spans (CommonMark: a run of n backticks closed by the next run of exactly n). */
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One space stripped from both ends when both have one and the code is not only spaces (CommonMark). */
function codeContent(raw: string): string {
  return raw.length > 2 && raw.startsWith(' ') && raw.endsWith(' ') && raw.trim() !== '' ? raw.slice(1, -1) : raw;
}

/** `` `pipeline()`, errors `` → `<code>pipeline()</code>, errors`; everything else escaped. */
export function titleHtml(title: string): string {
  let out = '';
  let last = 0;
  for (const m of title.matchAll(CODE_SPAN)) {
    out += escapeHtml(title.slice(last, m.index)) + `<code>${escapeHtml(codeContent(m[2]!))}</code>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(title.slice(last));
}

/** `` `pipeline()`, errors `` → `pipeline(), errors`. */
export function plainTitle(title: string): string {
  return title.replace(CODE_SPAN, (_, _ticks: string, code: string) => codeContent(code));
}

/**
 * What "On this page" calls a doc whose title repeats the lesson's: `Notes: pipeline(), errors` on
 * the lesson `pipeline(), errors` is just `Notes`. Other titles are kept.
 */
export function sectionTocTitle(docTitle: string, lessonTitle: string): string {
  const m = /^([^:]{1,40}):\s*(.+)$/.exec(plainTitle(docTitle).trim());
  return m && m[2]!.trim().toLowerCase() === plainTitle(lessonTitle).trim().toLowerCase() ? m[1]!.trim() : docTitle;
}

/** A heading's inner HTML for its table-of-contents link: code, emphasis and strong kept (without attributes), other tags (links, images) dropped. */
export function tocHtml(inner: string): string {
  return inner
    .replace(/<(\/?)([a-zA-Z][\w-]*)\b[^>]*>/g, (_, close: string, name: string) =>
      /^(code|em|strong)$/i.test(name) ? `<${close}${name.toLowerCase()}>` : '',
    )
    .trim();
}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: ' ' };

/** HTML text with tags dropped and entities decoded (`&#60;`, `&#x3c;`, `&lt;`), spaces kept. */
function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)))
        : (ENTITY[e.toLowerCase()] ?? whole),
    );
}

/**
 * A heading's name as search results show it, from its TOC HTML: text pieces, every odd one inline
 * code (`Notes: <code>pipeline()</code>` → `['Notes: ', 'pipeline()', '']`), so the client builds
 * it with text nodes and <code> elements and never parses HTML.
 */
export function nameSegments(html: string): string[] {
  return html
    .trim()
    .split(/<code>([\s\S]*?)<\/code>/)
    .map(htmlText);
}
