// Readalong steps (the scrollycoding layout of ReadAlong.astro): a doc's segments grouped into an
// intro and steps, each step one code reference with the heading that introduces it and the prose
// that explains it. Pure; the rule is described in docs/site.md ("Readalong steps").
import type { SegmentView } from './page-schema.ts';

export type CodeReference = Extract<SegmentView, { kind: 'code' }> & { title: string };

export interface ReadalongStep {
  /** The heading run right before the reference and what follows it up to the reference. */
  lead: SegmentView[];
  code: CodeReference;
  /** The prose after the reference, up to the next step's lead. */
  text: SegmentView[];
}

export interface ReadalongSteps {
  /** Everything before the first step (shown above the steps, full width). */
  intro: SegmentView[];
  steps: ReadalongStep[];
}

/** A code block filled from a lesson file (it has a file title), not a plain fenced example. */
export function isCodeReference(segment: SegmentView): segment is CodeReference {
  return segment.kind === 'code' && segment.title !== null;
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** Start and end offsets of the headings (h1-h6, with the anchor wrapper of headings.ts) at the top level of `html`. */
export function topLevelHeadings(html: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  let depth = 0;
  let open: { start: number; depth: number } | null = null;
  for (const tag of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)\b[^>]*?(\/?)>/g)) {
    const [text, closing, rawName, selfClosing] = tag;
    const name = rawName!.toLowerCase();
    if (VOID.has(name) || selfClosing) continue;
    if (closing) {
      depth--;
      if (open !== null && depth === open.depth) {
        found.push({ start: open.start, end: tag.index + text.length });
        open = null;
      }
      continue;
    }
    const heading = /^h[1-6]$/.test(name) || (name === 'div' && /\bclass="heading-wrap\b/.test(text));
    if (depth === 0 && heading && open === null) open = { start: tag.index, depth };
    depth++;
  }
  return found;
}

/**
 * Splits the segments between two references into the previous step's text and the next step's
 * lead: the lead starts at the last top-level heading (and the headings right before it, with
 * nothing between them); without a heading there is no lead.
 */
export function splitLead(gap: SegmentView[]): { before: SegmentView[]; lead: SegmentView[] } {
  for (let i = gap.length - 1; i >= 0; i--) {
    const segment = gap[i]!;
    if (segment.kind !== 'html') continue;
    const headings = topLevelHeadings(segment.html);
    if (headings.length === 0) continue;
    let k = headings.length - 1;
    while (k > 0 && segment.html.slice(headings[k - 1]!.end, headings[k]!.start).trim() === '') k--;
    const at = headings[k]!.start;
    const head = segment.html.slice(0, at);
    const before = [...gap.slice(0, i), ...(head.trim() === '' ? [] : [{ kind: 'html' as const, html: head }])];
    return { before, lead: [{ kind: 'html', html: segment.html.slice(at) }, ...gap.slice(i + 1)] };
  }
  return { before: gap, lead: [] };
}

/** Groups a readalong's segments into its intro and steps (no steps when it has no code reference). */
export function readalongSteps(segments: SegmentView[]): ReadalongSteps {
  const refs = segments.flatMap((s, i) => (isCodeReference(s) ? [i] : []));
  if (refs.length === 0) return { intro: segments, steps: [] };
  const gaps = refs.map((at, k) => segments.slice(k === 0 ? 0 : refs[k - 1]! + 1, at));
  const split = gaps.map(splitLead);
  const steps = refs.map((at, k) => ({
    lead: split[k]!.lead,
    code: segments[at] as CodeReference,
    text: k + 1 < refs.length ? split[k + 1]!.before : segments.slice(at + 1),
  }));
  return { intro: split[0]!.before, steps };
}
