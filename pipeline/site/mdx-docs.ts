// `.mdx` lesson docs (opt-in: `site.mdx: true` in config.yaml, docs/site.md "MDX"). Without the
// opt-in every reader refuses them; with it, Astro compiles them with @astrojs/mdx and this module
// reads them first, with the same MDX parser (Sätteri), so a broken <CodeRef>, a <Diagram> whose
// source is not a literal, an unknown component or an MDX syntax error is named by lesson, doc and
// line before any page is built, like a fenced code reference in a .md doc.
import { createRequire } from 'node:module';
import type { MdastNode } from 'satteri';
import { mdxNotAllowed } from '../authoring/conventions.ts';
import { CodeRefError, parseCodeRef, resolveCodeRef } from './code-refs.ts';
import type { Fence } from './fences.ts';
import { diagramHash, diagramTitle, type DiagramRef } from './diagram-ref.ts';
import type { DocContext } from './segments.ts';

/** The components every .mdx doc has without an import (site/components/mdx/). */
export const MDX_COMPONENTS = ['CodeRef', 'Aside', 'Tabs', 'TabItem', 'Steps', 'Diagram', 'FileTree'] as const;
export const ASIDE_TYPES = ['note', 'tip', 'caution', 'danger'] as const;
export { mdxNotAllowed };

export interface MdxDoc {
  /** Text of a leading `# Title` (the page shows it as the section heading), else null. */
  title: string | null;
  /** `lesson <id> <doc>:<line>: ...` */
  problems: string[];
  diagrams: DiagramRef[];
  /** <CodeRef> elements. */
  references: number;
  words: number;
}

/** Sätteri loads only when an .mdx doc is read (require: it is synchronous, like the rest of the readers). */
const satteri = () => createRequire(import.meta.url)('satteri') as typeof import('satteri');

type Node = MdastNode & {
  name?: string | null;
  attributes?: Attribute[];
  value?: string;
  lang?: string | null;
  meta?: string | null;
  depth?: number;
  children?: Node[];
  position?: { start: { line: number } };
};
type Attribute = { type: string; name?: string; value?: string | null | { type: string; value: string } };

/** Reads an .mdx doc: its title, words, diagrams, and every problem a build would hit. */
export function readMdxDoc(text: string, ctx: DocContext): MdxDoc {
  const out: MdxDoc = { title: null, problems: [], diagrams: [], references: 0, words: 0 };
  const at = (node: Node) => `lesson ${ctx.lesson} ${ctx.doc}:${node.position?.start.line ?? 1}`;
  let tree: Node;
  try {
    tree = satteri().mdxToMdast(text) as Node;
  } catch (error) {
    const message = (error as Error).message;
    const line = /^(\d+):\d+:/.exec(message)?.[1] ?? '1';
    out.problems.push(
      `lesson ${ctx.lesson} ${ctx.doc}:${line}: MDX syntax error: ${message.replace(/^\d+:\d+:\s*/, '')}`,
    );
    return out;
  }
  const defined = new Set<string>(MDX_COMPONENTS);
  for (const node of tree.children ?? []) {
    if (node.type === 'mdxjsEsm')
      for (const name of (node.value ?? '').match(/\b[A-Z][A-Za-z0-9_]*\b/g) ?? []) defined.add(name);
  }
  const first = tree.children?.[0];
  const visit = (node: Node) => {
    if (node.type === 'text') out.words += (node.value ?? '').split(/\s+/).filter(Boolean).length;
    if (node.type === 'heading' && node.depth === 1) {
      if (node === first) out.title = plainText(node);
      else
        out.problems.push(
          `${at(node)}: a "# " heading is the doc's title and only allowed as its first line; use "## " for sections`,
        );
    }
    if (node.type === 'code') {
      const info = `${node.lang ?? ''} ${node.meta ?? ''}`;
      if (/(^|\s)file=/.test(info))
        out.problems.push(
          `${at(node)}: in .mdx docs a code reference is <CodeRef file="..." lines="..." />, not a fence with file=`,
        );
      else if (node.lang === 'mermaid')
        out.problems.push(`${at(node)}: in .mdx docs a diagram is <Diagram code={\`...\`} />, not a mermaid fence`);
    }
    if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name) component(node);
    for (const child of node.children ?? []) visit(child);
  };
  const component = (node: Node) => {
    const name = node.name ?? '';
    if (/^[A-Z]/.test(name) && !defined.has(name.split('.')[0] ?? name)) {
      out.problems.push(
        `${at(node)}: unknown component <${name}>; the built-in ones are ${MDX_COMPONENTS.map((c) => `<${c}>`).join(', ')} (or import it)`,
      );
      return;
    }
    const attrs = attributes(node);
    if (name === 'CodeRef') {
      out.references++;
      const fence: Fence = {
        lang: attrs.lang ?? '',
        meta: ['file', 'lines', 'mark']
          .filter((k) => attrs[k] !== undefined)
          .map((k) => `${k}=${attrs[k]}`)
          .join(' '),
        body: '',
        line: node.position?.start.line ?? 1,
      };
      try {
        if (attrs.file === undefined) throw new CodeRefError('<CodeRef> needs file="..." (a string)');
        const ref = parseCodeRef(fence);
        if (ref !== null) resolveCodeRef(ctx.lessonDir, ref, fence);
      } catch (error) {
        if (!(error instanceof CodeRefError)) throw error;
        out.problems.push(`${at(node)}: code reference ${error.message}`);
      }
    } else if (name === 'Diagram') {
      const source = attrs.code;
      if (source === undefined)
        out.problems.push(
          `${at(node)}: <Diagram> needs its mermaid source as code={\`...\`} or code="..." (a literal, no \${...})`,
        );
      else {
        const label = `${ctx.doc}:${node.position?.start.line ?? 1}`;
        out.diagrams.push({
          hash: diagramHash(source),
          source,
          label,
          title: attrs.title ?? diagramTitle(source, `${ctx.doc} line ${node.position?.start.line ?? 1}`),
          lesson: ctx.lesson,
        });
      }
    } else if (
      name === 'Aside' &&
      attrs.type !== undefined &&
      !(ASIDE_TYPES as readonly string[]).includes(attrs.type)
    ) {
      out.problems.push(`${at(node)}: <Aside type="${attrs.type}">: the type is one of ${ASIDE_TYPES.join(', ')}`);
    } else if (name === 'TabItem' && attrs.label === undefined) {
      out.problems.push(`${at(node)}: <TabItem> needs label="..." (a string)`);
    }
  };
  visit(tree);
  return out;
}

/** String attributes: `a="x"`, or an expression that is a plain string or template literal. */
function attributes(node: Node): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const attr of node.attributes ?? []) {
    if (attr.type !== 'mdxJsxAttribute' || !attr.name) continue;
    const value = attr.value;
    if (typeof value === 'string') attrs[attr.name] = value;
    else if (value && typeof value === 'object') {
      const literal = literalString(value.value);
      if (literal !== null) attrs[attr.name] = literal;
    }
  }
  return attrs;
}

/** The value of a JS string or template literal without substitutions, else null. */
export function literalString(expression: string): string | null {
  const text = expression.trim();
  const match = /^(["'`])([\s\S]*)\1$/.exec(text);
  if (!match) return null;
  const [, quote, body = ''] = match;
  if (quote === '`' && /(^|[^\\])\$\{/.test(body)) return null;
  if (quote !== '`' && /[\n\r]/.test(body)) return null;
  const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };
  let inner = body;
  if (quote !== '`' && new RegExp(`(^|[^\\\\])${quote}`).test(inner)) return null;
  inner = inner.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_, e: string) => {
    if (e.startsWith('u') && e.length > 1) return String.fromCodePoint(parseInt(e.replace(/^u\{?|\}$/g, ''), 16));
    if (e.startsWith('x') && e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e === '\n') return '';
    return ESCAPES[e] ?? e;
  });
  return quote === '`' ? inner.replace(/\r\n?/g, '\n') : inner;
}

function plainText(node: Node): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value ?? '';
  return (node.children ?? []).map(plainText).join('').trim();
}
