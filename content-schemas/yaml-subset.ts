// The plain YAML most data files are written in (config.yaml as init writes it, spec.yaml from the
// lesson template), read without js-yaml: loading and first running js-yaml costs about 2 ms of a
// state command's start-up (docs/performance.md). Anything outside this subset returns undefined and
// js-yaml reads the file as before, so a refusal is still worded by js-yaml. Within it the result is
// js-yaml's own, key order included (content-schemas/yaml-subset.test.ts compares them on the
// project's files and a seeded corpus). The subset: block mappings with plain keys, block sequences,
// double- or single-quoted strings without escapes, plain strings starting with a letter, decimal
// numbers, true, false, null, `|` and `>` blocks (clipped or stripped) of evenly indented lines, and
// comments; no tabs, anchors, tags, flow collections, documents markers or multi-line plain scalars.

interface Line {
  indent: number;
  /** The line after its indentation. */
  text: string;
}

/** Thrown inside the parser when the text leaves the subset; parseYamlSubset() returns undefined. */
const OUTSIDE = Symbol('outside the subset');

/** Characters outside the subset anywhere in the text: controls, tabs, CR, BOM, surrogates, line separators. */
const UNSAFE_CHARACTER = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:$| +(.*)$)/;
const MAX_DEPTH = 32;

/** `text` as js-yaml would load it, or undefined when it is outside the subset above. */
export function parseYamlSubset(text: string): unknown {
  if (UNSAFE_CHARACTER.test(text)) return undefined;
  const lines: Line[] = text.split('\n').map((line) => {
    const indent = line.length - line.trimStart().length;
    return { indent, text: line.slice(indent) };
  });
  const reader = new Reader(lines);
  try {
    reader.skipBlank();
    if (reader.done() || reader.peek().indent !== 0) return undefined;
    const value = reader.mapping(0, 0);
    reader.skipBlank();
    return reader.done() ? value : undefined;
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    throw error;
  }
}

function outside(): never {
  throw OUTSIDE;
}

class Reader {
  private at = 0;
  private readonly lines: Line[];

  constructor(lines: Line[]) {
    this.lines = lines;
  }

  done(): boolean {
    return this.at >= this.lines.length;
  }

  peek(): Line {
    return this.lines[this.at]!;
  }

  /** Past blank lines and comment lines (never inside a block scalar: blockScalar reads its own lines). */
  skipBlank(): void {
    while (!this.done() && (this.peek().text === '' || this.peek().text.startsWith('#'))) this.at += 1;
  }

  /** A block mapping whose keys sit at `indent`; the current line is its first key. */
  mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) outside();
    const result: Record<string, unknown> = {};
    for (;;) {
      this.skipBlank();
      if (this.done() || this.peek().indent < indent) return result;
      const line = this.peek();
      if (line.indent > indent) outside();
      const match = KEY_LINE.exec(line.text);
      if (match === null) {
        if (line.text.startsWith('- ')) return result; // a sequence at the key's own indent ends here
        outside();
      }
      const key = match[1]!;
      // js-yaml turns a key such as True or NULL into "true" or "null"; __proto__ is kept apart.
      if (/^(true|false|null)$/i.test(key) || key === '__proto__' || Object.hasOwn(result, key)) outside();
      this.at += 1;
      result[key] = this.value(match[2] ?? '', indent, depth);
    }
  }

  /** What follows `key:` (`rest`, the text after it) on a line at `indent`. */
  private value(rest: string, indent: number, depth: number): unknown {
    if (rest === '' || rest.startsWith('#')) return this.nested(indent, depth);
    if (rest.startsWith('|') || rest.startsWith('>')) return this.blockScalar(rest, indent);
    return scalar(rest);
  }

  /** The block under `key:` with nothing after it: a mapping or sequence, or null. */
  private nested(indent: number, depth: number): unknown {
    this.skipBlank();
    if (this.done()) return null;
    const next = this.peek();
    const isItem = next.text.startsWith('- ') || next.text === '-';
    if (isItem && next.indent >= indent) return this.sequence(next.indent, depth + 1);
    if (next.indent > indent) return this.mapping(next.indent, depth + 1);
    return null;
  }

  /** A block sequence whose dashes sit at `indent`. */
  private sequence(indent: number, depth: number): unknown[] {
    if (depth > MAX_DEPTH) outside();
    const items: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.done() || this.peek().indent < indent) return items;
      const line = this.peek();
      if (line.indent > indent) outside();
      if (!line.text.startsWith('- ')) {
        if (line.text === '-') outside();
        return items; // the next key of the mapping this sequence is the value of
      }
      const item = line.text.slice(2);
      if (item.startsWith(' ') || item.startsWith('-') || item.startsWith('|') || item.startsWith('>')) outside();
      if (KEY_LINE.test(item)) {
        // `- key: value` starts a mapping whose keys sit two columns right of the dash.
        this.lines[this.at] = { indent: indent + 2, text: item };
        items.push(this.mapping(indent + 2, depth + 1));
      } else {
        this.at += 1;
        items.push(scalar(item));
      }
    }
  }

  /** `|`, `|-`, `>` or `>-` and the lines below it, each at the same indent, none blank in between. */
  private blockScalar(header: string, indent: number): string {
    if (!/^[|>]-?$/.test(header)) outside();
    const lines: string[] = [];
    let contentIndent = -1;
    while (!this.done()) {
      const line = this.peek();
      if (line.text === '' || line.indent <= indent) break;
      if (contentIndent === -1) contentIndent = line.indent;
      // More-indented lines fold differently, trailing blanks are content: both left to js-yaml.
      if (line.indent !== contentIndent || /\s$/.test(line.text)) outside();
      lines.push(line.text);
      this.at += 1;
    }
    if (lines.length === 0) outside();
    // Blank lines followed by more of the block would be part of it, as would spaces past its indent.
    let after = this.at;
    while (after < this.lines.length && this.lines[after]!.text === '') {
      if (this.lines[after]!.indent > contentIndent) outside();
      after += 1;
    }
    if (after < this.lines.length && this.lines[after]!.indent > indent) outside();
    // A clipped block keeps its last line break only when the text has one there (a text ending in a
    // line break has an empty last line, which no block holds).
    if (this.at >= this.lines.length && !header.endsWith('-')) outside();
    const joined = lines.join(header.startsWith('|') ? '\n' : ' ');
    return header.endsWith('-') ? joined : `${joined}\n`;
  }
}

/** A scalar on one line (after `key: ` or `- `), with any trailing ` # comment`. */
function scalar(text: string): unknown {
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const { content, end } = quote === '"' ? doubleQuoted(text) : { content: '', end: text.indexOf("'", 1) };
    if (end === -1) outside(); // a quoted string over several lines
    const after = text.slice(end + 1);
    if (after.trim() !== '' && !/^ +#/.test(after)) outside(); // '' (an escaped quote) or text after the string
    return quote === '"' ? content : text.slice(1, end);
  }
  const comment = text.search(/ #/);
  const plain = (comment === -1 ? text : text.slice(0, comment)).trimEnd();
  if (plain === 'true') return true;
  if (plain === 'false') return false;
  if (plain === 'null' || plain === '~') return null;
  if (/^-?(0|[1-9][0-9]{0,14})$/.test(plain) && plain !== '-0') return Number(plain);
  if (/^(0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/.test(plain)) return Number(plain);
  // A duration (20m) or text starting with a letter: a string unless YAML gives it a meaning.
  if (/^[1-9][0-9]{0,8}[smh]$/.test(plain)) return plain;
  if (!/^[A-Za-z]/.test(plain) || /^(true|false|null)$/i.test(plain) || /:( |$)/.test(plain)) outside();
  return plain;
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r' };

/** A double-quoted string at the start of `text`: its value and the index of its closing quote (-1: none). */
function doubleQuoted(text: string): { content: string; end: number } {
  let content = '';
  for (let at = 1; at < text.length; at += 1) {
    const char = text[at]!;
    if (char === '"') return { content, end: at };
    if (char !== '\\') content += char;
    else {
      const escaped = ESCAPES[text[at + 1] ?? ''];
      if (escaped === undefined) outside(); // \u, \x, a line continuation...: js-yaml's
      content += escaped;
      at += 1;
    }
  }
  return { content, end: -1 };
}
