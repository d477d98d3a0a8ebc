// The one configured marked instance of the site: GFM, asides (pipeline/site/asides.ts), lazy
// images, doc headings one level down. Token-level helpers for pipeline/site/doc-tokens.ts; it
// never sanitizes (pipeline/site/markdown.ts does), so `check` can lex docs without the sanitizer.
import { Marked, type Token } from 'marked';
import { asideExtensions } from './asides.ts';

// Doc headings sit under the lesson page's section headings: `#` becomes h2, `##` h3, and so on.
export const marked = new Marked({ gfm: true, async: false }, ...asideExtensions(), {
  walkTokens: (token) => {
    if (token.type === 'heading') token.depth = Math.min(6, token.depth + 1);
  },
  renderer: {
    image({ href, title, text }) {
      const titleAttr = title ? ` title="${escapeAttr(title)}"` : '';
      return `<img src="${escapeAttr(href)}" alt="${escapeAttr(text)}"${titleAttr} loading="lazy" decoding="async">`;
    },
  },
});

function escapeAttr(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The block tokens of a doc, as renderMarkdown reads it (no token is changed yet). */
export function lexMarkdown(text: string): Token[] {
  return marked.lexer(text);
}

/** Runs the renderer's own token changes (heading levels, GitHub alerts) once over lexed tokens. */
export function prepareTokens(tokens: Token[]): void {
  const walk = marked.defaults.walkTokens;
  if (walk) marked.walkTokens(tokens, walk);
}

/** Every token under `tokens` in document order (marked's own walk, children after their parent). */
export function walkTokens(tokens: Token[], visit: (token: Token) => void): void {
  marked.walkTokens(tokens, visit);
}
