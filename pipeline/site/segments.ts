// A lesson doc as the site shows it: sanitized prose, highlighted code (code references filled
// from the lesson's real files), and mermaid diagrams, each keeping the doc line it came from.
import { createHash } from 'node:crypto';
import { CodeRefError, parseCodeRef, resolveCodeRef } from './code-refs.ts';
import { splitFences, type Fence } from './fences.ts';
import { renderMarkdown } from './markdown.ts';

export type Segment =
  | { kind: 'html'; html: string }
  | { kind: 'code'; code: string; lang: string; meta: string; title: string | null; startLine: number | null; mark: number[] }
  | { kind: 'diagram'; diagram: DiagramRef }
  | { kind: 'error'; message: string };

export interface DiagramRef {
  /** Content hash of the source: the cache key. */
  hash: string;
  source: string;
  /** Where it came from, e.g. `docs/readalong.md:12` or `docs/diagrams/flow.mmd`. */
  label: string;
  title: string;
  lesson: string;
}

export interface DocContext {
  lesson: string;
  lessonDir: string;
  /** Doc path relative to the lesson folder, e.g. `docs/readalong.md`. */
  doc: string;
}

export interface RenderedDoc {
  /** Text of a leading `# Title` line (the page shows it as the section heading), else null. */
  title: string | null;
  segments: Segment[];
  /** Code-reference problems: `lesson <id> <doc>:<line>: ...` (also shown as error segments). */
  problems: string[];
  diagrams: DiagramRef[];
  words: number;
}

export function diagramHash(source: string): string {
  return createHash('sha256').update(source.trim()).digest('hex').slice(0, 16);
}

/** Title from a first line `%% title: ...`, else the fallback. */
export function diagramTitle(source: string, fallback: string): string {
  return /^\s*%%\s*title:\s*(.+)$/m.exec(source.split('\n')[0] ?? '')?.[1]?.trim() ?? fallback;
}

export function renderDoc(text: string, ctx: DocContext): RenderedDoc {
  const out: RenderedDoc = { title: null, segments: [], problems: [], diagrams: [], words: 0 };
  const blocks = splitFences(text);
  const first = blocks[0];
  const heading = first?.kind === 'text' ? /^\s*# +(.+?)\s*#*\s*(?:\n|$)/.exec(first.text) : null;
  if (first?.kind === 'text' && heading) {
    out.title = heading[1] ?? null;
    first.text = first.text.slice(heading[0].length);
  }
  for (const block of blocks) {
    if (block.kind === 'text' && block.text.trim() === '') continue;
    if (block.kind === 'text') {
      out.words += block.text.split(/\s+/).filter(Boolean).length;
      out.segments.push({ kind: 'html', html: renderMarkdown(block.text) });
    } else if (block.fence.lang === 'mermaid') {
      const diagram = { hash: diagramHash(block.fence.body), source: block.fence.body, label: `${ctx.doc}:${block.fence.line}`, title: diagramTitle(block.fence.body, `${ctx.doc} line ${block.fence.line}`), lesson: ctx.lesson };
      out.diagrams.push(diagram);
      out.segments.push({ kind: 'diagram', diagram });
    } else {
      out.words += block.fence.body.split(/\s+/).filter(Boolean).length / 2;
      out.segments.push(codeSegment(block.fence, ctx, out.problems));
    }
  }
  out.words = Math.round(out.words);
  return out;
}

function codeSegment(fence: Fence, ctx: DocContext, problems: string[]): Segment {
  try {
    const ref = parseCodeRef(fence);
    if (ref === null) return { kind: 'code', code: fence.body, lang: fence.lang || 'txt', meta: fence.meta, title: null, startLine: null, mark: [] };
    const resolved = resolveCodeRef(ctx.lessonDir, ref, fence);
    return { kind: 'code', code: resolved.code, lang: resolved.lang, meta: '', title: resolved.file, startLine: resolved.startLine, mark: resolved.mark };
  } catch (error) {
    if (!(error instanceof CodeRefError)) throw error;
    const message = `lesson ${ctx.lesson} ${ctx.doc}:${fence.line}: code reference ${error.message}`;
    problems.push(message);
    return { kind: 'error', message };
  }
}
