// Codemod: shortens the lines over the limit of scripts/long-lines.ts without changing what the code does.
// String and template literals on such lines become concatenations split at spaces (never inside `${}`),
// regex literals become `new RegExp(String.raw`...` + ...)` split the same way, and long comments are
// re-wrapped; then `biome format --write` lays the pieces out. Re-runnable: a short line is never touched.
// Skipped (left for a hand fix, listed at the end): tagged templates, module specifiers, type positions,
// property names, `as const` literals, literals holding a line break.
// It parses with @babel/parser: TypeScript 7's package has no JavaScript parser API (only the unstable
// tsgo client), and Babel's keeps comments and exact source ranges.
// Usage: node scripts/wrap-long-lines.ts [FILE...]   (default: every hand-written file of the repository)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@babel/parser';
import { findLongLines, handWrittenFiles, MAX_LINE } from './long-lines.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** A literal shorter than this (source characters) is not worth splitting: something else makes its line long. */
const MIN_SPLIT = 40;
/** The width lines aim at once Biome has laid them out (its lineWidth), characters. */
const AIM = 118;

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `text` (TypeScript or JavaScript) with its long lines' literals and comments split; the same program. */
export function wrapSource(text: string, { breakLines = false } = {}): string {
  const literalsSplit = applyEdits(text, literalEdits(text, breakLines));
  return applyEdits(literalsSplit, commentEdits(literalsSplit));
}

/**
 * An .astro file with its frontmatter and <script> blocks wrapped as TypeScript; the markup is left alone.
 * Biome formats the frontmatter but not the scripts, so there the pieces go on lines of their own here.
 */
export function wrapAstro(text: string): string {
  const blocks = /^---\n([\s\S]*?\n)---$|(<script\b[^>]*>)([\s\S]*?)(<\/script>)/gm;
  return text.replace(blocks, (whole, frontmatter?: string, open?: string, body?: string, close?: string) => {
    if (frontmatter !== undefined) return `---\n${wrapSource(frontmatter)}---`;
    if (open === undefined || body === undefined || close === undefined || !body.includes('\n')) return whole;
    return `${open}${wrapSource(body, { breakLines: true })}${close}`;
  });
}

function applyEdits(text: string, edits: Edit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  }
  return result;
}

function longLineSet(text: string): Set<number> {
  const long = new Set<number>();
  text.split('\n').forEach((line, index) => {
    if (line.length > MAX_LINE) long.add(index);
  });
  return long;
}

/** A Babel AST node: only what this codemod reads. */
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

interface Visit {
  node: Node;
  parent: Node | undefined;
  key: string;
  ancestors: Node[];
}

function parseProgram(text: string): { program: Node; comments: Node[] } {
  const file = parse(text, { sourceType: 'module', plugins: ['typescript'], allowReturnOutsideFunction: true });
  return { program: file.program as unknown as Node, comments: (file.comments ?? []) as unknown as Node[] };
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

/** Depth-first over every node; `enter` returns false to skip a node's children. */
function walk(root: Node, enter: (visit: Visit) => boolean): void {
  const go = (node: Node, parent: Node | undefined, key: string, ancestors: Node[]) => {
    if (!enter({ node, parent, key, ancestors })) return;
    const inner = [...ancestors, node];
    for (const [childKey, value] of Object.entries(node)) {
      if (childKey === 'loc' || childKey === 'extra' || childKey.endsWith('Comments')) continue;
      for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) go(child, node, childKey, inner);
    }
  };
  go(root, undefined, '', []);
}

const LITERALS = new Set(['StringLiteral', 'TemplateLiteral', 'RegExpLiteral']);

function literalEdits(text: string, breakLines: boolean): Edit[] {
  const long = longLineSet(text);
  if (long.size === 0) return [];
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (pos: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= pos) line++;
    return line;
  };
  const edits: Edit[] = [];
  walk(parseProgram(text).program, (visit) => {
    const { node } = visit;
    if (!LITERALS.has(node.type) || node.end - node.start < MIN_SPLIT || isSkipped(visit)) return true;
    let touchesLong = false;
    for (let line = lineOf(node.start); line <= lineOf(node.end); line++) touchesLong ||= long.has(line);
    if (!touchesLong) return true;
    const width = Math.max(30, AIM - indentOf(text, node.start) - 8);
    const join = breakLines ? ` +\n${' '.repeat(indentOf(text, node.start) + 2)}` : ' + ';
    const replacement = splitLiteral(text, node, width, join);
    if (replacement === null) return true;
    edits.push({ start: node.start, end: node.end, text: needsParens(visit) ? `(${replacement})` : replacement });
    return false;
  });
  return edits;
}

function indentOf(text: string, pos: number): number {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  return /^ */.exec(text.slice(lineStart))![0].length;
}

/** TypeScript nodes that hold expressions, not types: a literal under them keeps its meaning when split. */
const TS_EXPRESSIONS = new Set([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'TSInstantiationExpression',
  'TSParameterProperty',
  'TSExportAssignment',
]);
const NAME_KEYS = new Set(['key', 'property', 'id', 'source', 'exported', 'imported', 'local']);

/** Literals whose splitting would change a type, a name or a module specifier, or that a tag reads raw. */
function isSkipped({ parent, key, ancestors }: Visit): boolean {
  if (parent === undefined) return true;
  if (parent.type === 'TaggedTemplateExpression' || NAME_KEYS.has(key)) return true;
  if (parent.type === 'SwitchCase' || parent.type.startsWith('JSX')) return true;
  if ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && key === 'arguments') {
    const callee = parent.callee as Node;
    if (callee.type === 'Import' || (callee.type === 'Identifier' && callee.name === 'require')) return true;
  }
  if (parent.type === 'ImportExpression') return true;
  for (const up of ancestors) {
    if (up.type.startsWith('TS') && !TS_EXPRESSIONS.has(up.type)) return true;
    if (up.type === 'TSAsExpression' && isConstType(up.typeAnnotation)) return true;
    if (up.type === 'ImportDeclaration' || up.type === 'ExportAllDeclaration') return true;
  }
  return false;
}

function isConstType(type: unknown): boolean {
  if (!isNode(type) || type.type !== 'TSTypeReference') return false;
  const name = type.typeName as Node;
  return name.type === 'Identifier' && name.name === 'const';
}

const SAFE_PLACES: Record<string, string[]> = {
  CallExpression: ['arguments'],
  NewExpression: ['arguments'],
  VariableDeclarator: ['init'],
  ObjectProperty: ['value'],
  ClassProperty: ['value'],
  AssignmentPattern: ['right'],
  AssignmentExpression: ['right'],
  ReturnStatement: ['argument'],
  ThrowStatement: ['argument'],
  ArrayExpression: ['elements'],
  ArrowFunctionExpression: ['body'],
  ConditionalExpression: ['consequent', 'alternate'],
  TemplateLiteral: ['expressions'],
  SpreadElement: ['argument'],
  ExportDefaultDeclaration: ['declaration'],
  LogicalExpression: ['left', 'right'],
  SequenceExpression: ['expressions'],
};

/** Whether `a + b` in the literal's place would bind differently than the literal did. */
function needsParens({ node, parent, key }: Visit): boolean {
  if (node.type === 'RegExpLiteral' || parent === undefined) return false; // new RegExp(...) is a member expression
  if (node.extra && (node.extra as { parenthesized?: boolean }).parenthesized) return false;
  if (parent.type === 'BinaryExpression') {
    const op = parent.operator as string;
    if (op === '+') return false;
    if (op === '-') return key === 'right';
    return ['*', '/', '%', '**'].includes(op);
  }
  return !(SAFE_PLACES[parent.type] ?? []).includes(key);
}

/** [from, to) source ranges of literal text a cut may fall in (inside the quotes, outside `${}`). */
function literalRanges(text: string, node: Node): [number, number][] {
  if (node.type === 'TemplateLiteral') return (node.quasis as Node[]).map((quasi) => [quasi.start, quasi.end]);
  if (node.type === 'RegExpLiteral') return [[node.start + 1, text.lastIndexOf('/', node.end - 1)]];
  return [[node.start + 1, node.end - 1]];
}

/** Cut positions (a piece starts there): after a space, each piece near `width`. */
function cutPositions(text: string, ranges: [number, number][], start: number, end: number, width: number): number[] {
  const candidates: number[] = [];
  for (const [from, to] of ranges) {
    for (let i = from; i < to; i++) {
      // After the space: an escaped space (`\ `) stays whole in the piece before.
      if (text[i] === ' ') candidates.push(i + 1);
    }
  }
  // Between a `}` and the next `${` a template may be cut too: `${a}${b}` is `${a}` + `${b}`.
  for (let i = 1; i < ranges.length; i++) candidates.push(ranges[i - 1]![1], ranges[i]![0]);
  const inside = [...new Set(candidates)].filter((at) => at > start + 1 && at < end - 1).sort((a, b) => a - b);
  const cuts: number[] = [];
  let pieceStart = start;
  let best: number | undefined;
  for (const candidate of inside) {
    if (candidate - pieceStart > width && best !== undefined) {
      cuts.push(best);
      pieceStart = best;
      best = undefined;
    }
    if (candidate - pieceStart <= width || best === undefined) best = candidate;
  }
  if (best !== undefined && end - pieceStart > width) cuts.push(best);
  return cuts;
}

/** The literal as a concatenation of pieces, or null when it cannot or need not be split. */
function splitLiteral(text: string, node: Node, width: number, join: string): string | null {
  const whole = text.slice(node.start, node.end);
  if (whole.includes('\n')) return null;
  const ranges = literalRanges(text, node);
  if (node.type === 'RegExpLiteral') {
    const close = ranges[0]![1];
    const cuts = cutPositions(text, ranges, node.start, close + 1, width);
    if (cuts.length === 0) return null;
    const bounds = [node.start + 1, ...cuts, close];
    const pieces = bounds.slice(1).map((to, i) => regexPiece(text.slice(bounds[i], to)));
    const flags = text.slice(close + 1, node.end);
    return `new RegExp(${pieces.join(join)}${flags ? `, '${flags}'` : ''})`;
  }
  const cuts = cutPositions(text, ranges, node.start, node.end, width);
  if (cuts.length === 0) return null;
  const bounds = [node.start + 1, ...cuts, node.end - 1];
  const quote = whole[0]!;
  const substitutions = node.type === 'TemplateLiteral' ? (node.expressions as Node[]).map((e) => e.start) : [];
  return bounds
    .slice(1)
    .map((to, i) => {
      const from = bounds[i]!;
      const body = text.slice(from, to);
      const plain = !substitutions.some((at) => at >= from && at < to);
      return quote === '`' && plain && !/['`\\]/.test(body) ? `'${body}'` : `${quote}${body}${quote}`;
    })
    .join(join);
}

/** Part of a regex's source as a string literal of the same characters: String.raw only where it has a backslash. */
function regexPiece(source: string): string {
  if (!source.includes('\\')) return `'${source.replaceAll("'", "\\'")}'`;
  if (!/`|\$\{/.test(source)) return `String.raw\`${source}\``;
  return `'${source.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function commentEdits(text: string): Edit[] {
  const long = longLineSet(text);
  if (long.size === 0) return [];
  return parseProgram(text)
    .comments.map((comment) => commentEdit(text, comment, long))
    .filter((edit): edit is Edit => edit !== null);
}

function commentEdit(text: string, comment: Node, long: Set<number>): Edit | null {
  const lineStart = text.lastIndexOf('\n', comment.start - 1) + 1;
  const line = text.slice(0, comment.start).split('\n').length - 1;
  const indent = ' '.repeat(indentOf(text, comment.start));
  const before = text.slice(lineStart, comment.start);
  const source = text.slice(comment.start, comment.end);
  if (comment.type === 'CommentLine') {
    if (!long.has(line)) return null;
    const wrapped = wrapWords(source.replace(/^\/\/ ?/, ''), `${indent}// `);
    // A trailing comment moves above its line, where it says the same.
    if (before.trim() !== '') return { start: lineStart, end: comment.end, text: `${wrapped}\n${before.trimEnd()}` };
    return { start: lineStart, end: comment.end, text: wrapped };
  }
  if (before.trim() !== '') return null;
  const lines = source.split('\n');
  if (lines.length === 1) {
    const match = /^\/\*(\*?) (.*?) ?\*\/$/.exec(source);
    if (!long.has(line) || match === null) return null;
    return {
      start: lineStart,
      end: comment.end,
      text: `${indent}/*${match[1]}\n${wrapWords(match[2]!, `${indent} * `)}\n${indent} */`,
    };
  }
  let changed = false;
  const out = lines.map((content, i) => {
    const match = /^(\s*\* )(.*)$/.exec(content);
    if (i === 0 || !long.has(line + i) || match === null) return content;
    changed = true;
    return wrapWords(match[2]!, match[1]!);
  });
  return changed ? { start: comment.start, end: comment.end, text: out.join('\n') } : null;
}

/** Words after `prefix`, a new prefixed line whenever the next word would pass AIM. */
function wrapWords(words: string, prefix: string): string {
  const lines: string[] = [];
  let current = '';
  for (const word of words.split(' ')) {
    if (current !== '' && prefix.length + current.length + 1 + word.length > AIM) {
      lines.push(prefix + current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  lines.push(prefix + current);
  return lines.join('\n');
}

/** One round: every file wrapped once; returns those that changed. */
function wrapFiles(files: string[]): string[] {
  const changed: string[] = [];
  for (const file of files) {
    const absolute = path.join(REPO, file);
    const before = readFileSync(absolute, 'utf8');
    const after = file.endsWith('.astro') ? wrapAstro(before) : wrapSource(before);
    if (after === before) continue;
    writeFileSync(absolute, after);
    changed.push(file);
  }
  return changed;
}

function main(args: string[]): void {
  const files = (
    args.length > 0 ? args.map((file) => path.relative(REPO, path.resolve(file))) : handWrittenFiles(REPO)
  ).filter((file) => /\.(ts|mts|cts|js|mjs|cjs|astro)$/.test(file));
  const changed = new Set<string>();
  // Biome lays out each round's pieces before the next round looks again at what is still long (a literal
  // nested in another's `${}` is split only if it stays long).
  for (let round = 0; round < 4; round++) {
    const now = wrapFiles(files);
    if (now.length === 0) break;
    execFileSync(path.join(REPO, 'node_modules', '.bin', 'biome'), ['format', '--write', ...now], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (const file of now) changed.add(file);
  }
  const left = findLongLines(REPO, files);
  console.log(
    `wrap-long-lines: ${changed.size} files changed; ${left.length} lines over ${MAX_LINE} left for a hand fix`,
  );
  for (const found of left) console.log(`${found.file}:${found.line}: ${found.length} characters`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
