// Markdown prose → safe HTML. The course is written by generators from web sources, so raw HTML is
// sanitized (no script, no event handlers, no javascript: URLs) and external links get rel=noopener.
// Asides (pipeline/site/asides.ts) are the only markup with classes beyond code languages.
import type { Token } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { ASIDE_CLASSES } from './asides.ts';
import { marked } from './marked.ts';

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'del',
    'ins',
    'details',
    'summary',
    'kbd',
    'sup',
    'sub',
    'input',
    'figure',
    'figcaption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'id', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    input: ['type', 'checked', 'disabled'],
    aside: ['aria-label'],
    p: ['aria-hidden'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    '*': ['id', 'title', 'lang'],
  },
  allowedClasses: { code: ['language-*'], ...ASIDE_CLASSES },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs.href ?? '');
      return {
        tagName,
        attribs: external ? { ...attribs, rel: 'noopener noreferrer', target: attribs.target ?? '_blank' } : attribs,
      };
    },
    input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: '' } }),
  },
};

/** Renders markdown prose to sanitized HTML. */
export function renderMarkdown(text: string): string {
  return sanitize(marked.parse(text) as string);
}

/** Renders a one-line markdown fragment (glossary definitions) without a paragraph around it. */
export function renderInline(text: string): string {
  return sanitize(marked.parseInline(text) as string);
}

/** Sanitizes untrusted HTML with the site's allow-list. */
export function sanitize(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/** Renders prepared tokens (pipeline/site/marked.ts) to sanitized HTML. */
export function renderTokens(tokens: Token[]): string {
  return sanitize(marked.parser(tokens) as string);
}
