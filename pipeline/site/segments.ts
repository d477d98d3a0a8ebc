// A lesson doc as the site shows it: sanitized prose, highlighted code (code references filled
// from the lesson's real files), mermaid diagrams, asides, resolved links and images, each problem
// named by doc line. Fenced blocks nested in lists, blockquotes and asides become `group` parts.
import { createHash } from 'node:crypto';
import type { Token, Tokens } from 'marked';
import { CodeRefError, parseCodeRef, resolveCodeRef } from './code-refs.ts';
import { DocRefError, isRelativeUrl, resolveImage, resolveLink, type DocImage, type DocLinks } from './doc-links.ts';
import { fenceOf, isFence, lexDoc, type LexedDoc } from './doc-tokens.ts';
import type { Fence } from './fences.ts';
import { diagramHash, diagramTitle, type DiagramRef } from './diagram-ref.ts';
import { renderTokens } from './markdown.ts';
import { prepareTokens, walkTokens } from './marked.ts';

export type LeafSegment =
  | { kind: 'html'; html: string }
  | {
      kind: 'code';
      code: string;
      lang: string;
      meta: string;
      title: string | null;
      startLine: number | null;
      mark: number[];
    }
  | { kind: 'diagram'; diagram: DiagramRef }
  | { kind: 'error'; message: string };

/**
 * A list, blockquote or aside holding fenced blocks: its parts in order. The html parts are pieces
 * of one sanitized whole (a piece may open a tag a later piece closes): render them one after the
 * other, never apart. Only top-level fences are top-level segments.
 */
export type GroupSegment = { kind: 'group'; parts: LeafSegment[] };

export type Segment = LeafSegment | GroupSegment;

export interface DocContext {
  lesson: string;
  lessonDir: string;
  /** Doc path relative to the lesson folder, e.g. `docs/readalong.md`. */
  doc: string;
  /** The course's lessons for relative links; without it relative links are left as written. */
  links?: DocLinks;
}

export interface RenderedDoc {
  /** The front matter's title, else the text of a leading `# Title` line (the page shows it as the section heading), else null. */
  title: string | null;
  /** The front matter's description, else null. */
  description: string | null;
  segments: Segment[];
  /** Front matter, code-reference, link and image problems: `lesson <id> <doc>:<line>: ...` (front matter and code ones also shown as error segments). */
  problems: string[];
  diagrams: DiagramRef[];
  /** Images of the doc; its HTML names each by IMAGE_PLACEHOLDER + key until the site swaps in the optimized file. */
  images: DocImage[];
  words: number;
}

// Kept in pipeline/site/diagram-ref.ts (which loads no renderer), exported here too for the renderer's users.
export { diagramHash, diagramTitle, type DiagramRef };

/** The `src` an image has in a doc's HTML until the page replaces it (site/lib/images.ts). */
export const IMAGE_PLACEHOLDER = '_codelabgen/image/';

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export function renderDoc(text: string, ctx: DocContext): RenderedDoc {
  const out: RenderedDoc = {
    title: null,
    description: null,
    segments: [],
    problems: [],
    diagrams: [],
    images: [],
    words: 0,
  };
  const doc = lexDoc(text);
  for (const problem of doc.frontMatter.problems) {
    const message = `lesson ${ctx.lesson} ${ctx.doc}:${problem.line}: ${problem.message}`;
    out.problems.push(message);
    out.segments.push({ kind: 'error', message });
  }
  out.description = doc.frontMatter.fields.description;
  const tokens = [...doc.tokens];
  const firstIndex = tokens.findIndex((t) => t.type !== 'space');
  const first = tokens[firstIndex];
  if (first?.type === 'heading' && (first as Tokens.Heading).depth === 1) {
    out.title = (first as Tokens.Heading).text.trim();
    tokens.splice(0, firstIndex + 1);
  }
  out.title = doc.frontMatter.fields.title ?? out.title;
  resolveUrls(tokens, doc, ctx, out);
  prepareTokens(tokens);
  const nonce = createHash('sha256').update(text).digest('hex').slice(0, 12);
  let prose: Token[] = [];
  const flush = () => {
    if (prose.some((t) => t.type !== 'space')) out.segments.push({ kind: 'html', html: renderTokens(prose) });
    prose = [];
  };
  for (const token of tokens) {
    if (isFence(token)) {
      flush();
      out.segments.push(fenceSegment(token, doc, ctx, out));
    } else if (hasNestedFence(token)) {
      flush();
      out.words += wordCount(token.raw);
      out.segments.push(groupSegment(token, nonce, doc, ctx, out));
    } else {
      out.words += wordCount(token.raw);
      prose.push(token);
    }
  }
  flush();
  out.words = Math.round(out.words);
  return out;
}

/** Rewrites relative links to lesson pages and relative images to placeholders; records problems. */
function resolveUrls(tokens: Token[], doc: LexedDoc, ctx: DocContext, out: RenderedDoc): void {
  const dir = ctx.links?.lessons.find((l) => l.id === ctx.lesson)?.dir;
  walkTokens(tokens, (token) => {
    if (token.type !== 'link' && token.type !== 'image') return;
    const target = token as Tokens.Link | Tokens.Image;
    if (!isRelativeUrl(target.href)) return;
    try {
      if (target.type === 'image') {
        const image = resolveImage(target.href, ctx.lessonDir, ctx.doc);
        if (!out.images.some((i) => i.key === image.key)) out.images.push(image);
        target.href = `${IMAGE_PLACEHOLDER}${image.key}`;
      } else if (ctx.links && dir !== undefined) {
        const url = resolveLink(target.href, dir, ctx.doc, ctx.links);
        if (url === null)
          Object.assign(target, { type: 'text', text: target.text }); // no page in this build: keep the words
        else target.href = url;
      }
    } catch (error) {
      if (!(error instanceof DocRefError)) throw error;
      out.problems.push(`lesson ${ctx.lesson} ${ctx.doc}:${doc.lineOf(token)}: ${error.message}`);
    }
  });
}

function hasNestedFence(token: Token): boolean {
  let found = false;
  walkTokens([token], (t) => (found ||= isFence(t)));
  return found;
}

/** The container rendered whole, with each nested fence cut out as a part of its own. */
function groupSegment(token: Token, nonce: string, doc: LexedDoc, ctx: DocContext, out: RenderedDoc): GroupSegment {
  const slots: LeafSegment[] = [];
  walkTokens([token], (t) => {
    if (!isFence(t)) return;
    slots.push(fenceSegment(t, doc, ctx, out));
    out.words -= wordCount(t.raw);
    Object.assign(t, { type: 'html', block: true, pre: false, text: `\nCLGSLOT${nonce}N${slots.length - 1}E\n` });
  });
  const pieces = renderTokens([token]).split(new RegExp(`CLGSLOT${nonce}N(\\d+)E`));
  const parts: LeafSegment[] = [];
  pieces.forEach((piece, index) => {
    if (index % 2 === 1) parts.push(slots[Number(piece)]!);
    else if (piece.trim() !== '') parts.push({ kind: 'html', html: piece });
  });
  return { kind: 'group', parts };
}

function fenceSegment(token: Tokens.Code, doc: LexedDoc, ctx: DocContext, out: RenderedDoc): LeafSegment {
  const fence = fenceOf(token, doc.lineOf(token));
  if (fence.lang === 'mermaid') {
    const diagram = {
      hash: diagramHash(fence.body),
      source: fence.body,
      label: `${ctx.doc}:${fence.line}`,
      title: diagramTitle(fence.body, `${ctx.doc} line ${fence.line}`),
      lesson: ctx.lesson,
    };
    out.diagrams.push(diagram);
    return { kind: 'diagram', diagram };
  }
  out.words += wordCount(fence.body) / 2;
  return codeSegment(fence, ctx, out.problems);
}

function codeSegment(fence: Fence, ctx: DocContext, problems: string[]): LeafSegment {
  try {
    const ref = parseCodeRef(fence);
    if (ref === null)
      return {
        kind: 'code',
        code: fence.body,
        lang: fence.lang || 'txt',
        meta: fence.meta,
        title: null,
        startLine: null,
        mark: [],
      };
    const resolved = resolveCodeRef(ctx.lessonDir, ref, fence);
    return {
      kind: 'code',
      code: resolved.code,
      lang: resolved.lang,
      meta: '',
      title: resolved.file,
      startLine: resolved.startLine,
      mark: resolved.mark,
    };
  } catch (error) {
    if (!(error instanceof CodeRefError)) throw error;
    const message = `lesson ${ctx.lesson} ${ctx.doc}:${fence.line}: code reference ${error.message}`;
    problems.push(message);
    return { kind: 'error', message };
  }
}
