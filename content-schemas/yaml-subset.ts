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

// The tests below are written with character codes, not regular expressions: V8 compiles each
// expression a process runs (twice: once more when it runs again), about 0.3 ms for this reader's
// dozen in a state command reading config.yaml (docs/performance.md, "State commands' start-up").
const MAX_DEPTH = 32;

/**
 * A character outside the subset anywhere in the text: controls, tabs, CR, BOM, surrogates, line
 * separators (all but \n, \x20-\x7e, \u00a0-\u2027, \u202a-\ud7ff, \ue000-\ufefe, \uff00-\ufffd).
 */
function hasUnsafeCharacter(text: string): boolean {
  for (let at = 0; at < text.length; at += 1) {
    const c = text.charCodeAt(at);
    if (c >= 0x20 && c <= 0x7e) continue;
    if (c === 0x0a || (c >= 0xa0 && c <= 0x2027) || (c >= 0x202a && c <= 0xd7ff)) continue;
    if ((c >= 0xe000 && c <= 0xfefe) || (c >= 0xff00 && c <= 0xfffd)) continue;
    return true;
  }
  return false;
}

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * A `key:` line, as /^([A-Za-z_][A-Za-z0-9_-]*):(?:$| +(.*)$)/ would match it: the key and the text
 * after the colon and its spaces ('' for none), or null.
 */
function keyLine(text: string): [key: string, rest: string] | null {
  const first = text.charCodeAt(0);
  if (!(isLetter(first) || first === 0x5f)) return null;
  let at = 1;
  for (; at < text.length; at += 1) {
    const c = text.charCodeAt(at);
    if (!(isLetter(c) || isDigit(c) || c === 0x5f || c === 0x2d)) break;
  }
  if (text.charCodeAt(at) !== 0x3a) return null;
  const colon = at;
  if (colon + 1 === text.length) return [text.slice(0, colon), ''];
  if (text.charCodeAt(colon + 1) !== 0x20) return null;
  at = colon + 1;
  while (text.charCodeAt(at) === 0x20) at += 1;
  return [text.slice(0, colon), text.slice(at)];
}

/** /^(true|false|null)$/i: a word js-yaml reads as a boolean or null in any case. */
function isBooleanOrNullWord(text: string): boolean {
  if (text.length !== 4 && text.length !== 5) return false;
  let folded = '';
  for (let at = 0; at < text.length; at += 1) {
    const c = text.charCodeAt(at);
    if (!isLetter(c)) return false;
    folded += String.fromCharCode(c | 0x20);
  }
  return folded === 'true' || folded === 'false' || folded === 'null';
}

/** Digits from `from` to the end: at least `min`, at most `max`; `to` is where they must end. */
function digitsBetween(text: string, from: number, to: number, min: number, max: number): boolean {
  if (to - from < min || to - from > max) return false;
  for (let at = from; at < to; at += 1) if (!isDigit(text.charCodeAt(at))) return false;
  return true;
}

/** /^(0|[1-9][0-9]{0,n})/ up to `to`: `0` alone, or no leading zero and at most n + 1 digits. */
function wholeNumber(text: string, from: number, to: number, most: number): boolean {
  if (to - from === 1 && text.charCodeAt(from) === 0x30) return true;
  const first = text.charCodeAt(from);
  return first >= 0x31 && first <= 0x39 && digitsBetween(text, from + 1, to, 0, most - 1);
}

/** `text` as js-yaml would load it, or undefined when it is outside the subset above. */
export function parseYamlSubset(text: string): unknown {
  if (hasUnsafeCharacter(text)) return undefined;
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
      const match = keyLine(line.text);
      if (match === null) {
        if (line.text.startsWith('- ')) return result; // a sequence at the key's own indent ends here
        outside();
      }
      const [key, rest] = match;
      // js-yaml turns a key such as True or NULL into "true" or "null"; __proto__ is kept apart.
      if (isBooleanOrNullWord(key) || key === '__proto__' || Object.hasOwn(result, key)) outside();
      this.at += 1;
      result[key] = this.value(rest, indent, depth);
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
      if (keyLine(item) !== null) {
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
    // '' (an escaped quote) or text after the string; spaces and a comment may follow (/^ +#/)
    if (after.trim() !== '' && !spacesThenHash(after)) outside();
    return quote === '"' ? content : text.slice(1, end);
  }
  const comment = text.indexOf(' #');
  const plain = (comment === -1 ? text : text.slice(0, comment)).trimEnd();
  if (plain === 'true') return true;
  if (plain === 'false') return false;
  if (plain === 'null' || plain === '~') return null;
  // /^-?(0|[1-9][0-9]{0,14})$/ but -0, and /^(0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/
  const sign = plain.startsWith('-') ? 1 : 0;
  if (plain.length > sign && wholeNumber(plain, sign, plain.length, 15) && plain !== '-0') return Number(plain);
  const dot = plain.indexOf('.');
  if (dot > 0 && wholeNumber(plain, 0, dot, 15) && digitsBetween(plain, dot + 1, plain.length, 1, 15))
    return Number(plain);
  // A duration (20m, /^[1-9][0-9]{0,8}[smh]$/) or text starting with a letter: a string unless YAML gives it a meaning.
  const unit = plain.charCodeAt(plain.length - 1);
  const isUnit = unit === 0x73 || unit === 0x6d || unit === 0x68;
  if (isUnit && plain.length > 1 && plain.charCodeAt(0) !== 0x30 && digitsBetween(plain, 0, plain.length - 1, 1, 9))
    return plain;
  if (!isLetter(plain.charCodeAt(0)) || isBooleanOrNullWord(plain) || plain.includes(': ') || plain.endsWith(':'))
    outside();
  return plain;
}

/** /^ +#/: one or more spaces, then `#`. */
function spacesThenHash(text: string): boolean {
  let at = 0;
  while (text.charCodeAt(at) === 0x20) at += 1;
  return at > 0 && text.charCodeAt(at) === 0x23;
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
