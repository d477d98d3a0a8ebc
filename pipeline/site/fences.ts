// Splits a markdown (or .mdx) doc into prose and top-level fenced blocks, keeping the 1-based line
// of each fence so code references and diagrams can be named by doc and line. No dependencies.

export interface Fence {
  /** First word of the info string (the language), possibly empty. */
  lang: string;
  /** The rest of the info string after the language. */
  meta: string;
  body: string;
  /** 1-based line of the opening fence (or of the MDX component). */
  line: number;
}

export type Block = { kind: 'text'; text: string; line: number } | { kind: 'fence'; fence: Fence };

const OPEN = /^( {0,3})(`{3,}|~{3,})\s*([^`]*)$/;
const CODE_REF_TAG = /^\s*<CodeRef\b([^>]*?)\/>\s*$/;
const MDX_ESM = /^(import|export)\s/;

/** Top-level blocks in document order; `mdx` also turns `<CodeRef ... />` lines into fences. */
export function splitFences(text: string, mdx = false): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let prose: string[] = [];
  let proseLine = 1;
  const flush = (next: number) => {
    if (prose.some((l) => l.trim() !== '')) blocks.push({ kind: 'text', text: prose.join('\n'), line: proseLine });
    prose = [];
    proseLine = next;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = OPEN.exec(line);
    const tag = mdx ? CODE_REF_TAG.exec(line) : null;
    if (open) {
      flush(i + 1);
      const [, indent = '', marker = '```', info = ''] = open;
      const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length && !close.test(lines[j] ?? ''); j++) body.push(dedent(lines[j] ?? '', indent.length));
      const [lang = '', ...rest] = info.trim().split(/\s+/);
      blocks.push({ kind: 'fence', fence: { lang, meta: rest.join(' '), body: body.join('\n'), line: i + 1 } });
      i = j;
      proseLine = j + 2;
    } else if (tag) {
      flush(i + 1);
      blocks.push({ kind: 'fence', fence: { lang: '', meta: mdxAttributes(tag[1] ?? ''), body: '', line: i + 1 } });
      proseLine = i + 2;
    } else if (mdx && MDX_ESM.test(line)) {
      prose.push(''); // MDX import/export lines are not content
    } else {
      prose.push(line);
    }
  }
  flush(lines.length + 1);
  return blocks;
}

function dedent(line: string, width: number): string {
  let cut = 0;
  while (cut < width && line[cut] === ' ') cut++;
  return line.slice(cut);
}

/** `file="a.ts" lines="1-3"` (or `{...}` values) → `file=a.ts lines=1-3`. */
export function mdxAttributes(attrs: string): string {
  const pairs: string[] = [];
  for (const match of attrs.matchAll(/([A-Za-z]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{["']?([^}"']*)["']?\})/g)) {
    pairs.push(`${match[1]}=${match[2] ?? match[3] ?? match[4] ?? ''}`);
  }
  return pairs.join(' ');
}
