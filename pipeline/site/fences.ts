// Splits a markdown doc into prose and top-level fenced blocks, keeping the 1-based line
// of each fence so code references and diagrams can be named by doc and line. No dependencies.

export interface Fence {
  /** First word of the info string (the language), possibly empty. */
  lang: string;
  /** The rest of the info string after the language. */
  meta: string;
  body: string;
  /** 1-based line of the opening fence. */
  line: number;
}

export type Block = { kind: 'text'; text: string; line: number } | { kind: 'fence'; fence: Fence };

const OPEN = /^( {0,3})(`{3,}|~{3,})\s*([^`]*)$/;

/** Top-level blocks in document order. (.mdx docs are read by pipeline/site/mdx-docs.ts.) */
export function splitFences(text: string): Block[] {
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
