// A lesson doc as marked's block tokens, each with the 1-based doc line it starts on, so problems
// with code references, links and images deep inside lists, blockquotes and asides name the right
// line. Also every fenced block of a doc (nested ones too), for `codelabgen check`.
import type { Token, Tokens } from 'marked';
import { loadLazily } from '../../content-schemas/fast.ts';
import type { Fence } from './fences.ts';
import { splitFrontMatter, type FrontMatterSplit } from './front-matter.ts';
import type * as Markdown from './marked.ts';

// marked builds its grammar's regexes as it loads (about 10 ms of CPU): the state commands import
// this file (through the doc lint of pipeline/authoring/conventions.ts) but lex a doc only when a lesson has
// one, so marked loads on the first doc lexed (dist/markdown.mjs when bundled).
let markdown: typeof Markdown | undefined;
const lexMarkdown = (text: string): Token[] =>
  (markdown ??= loadLazily<typeof Markdown>('markdown', '../pipeline/site/marked.ts')).lexMarkdown(text);
const walkTokens = (tokens: Token[], visit: (token: Token) => void): void =>
  (markdown ??= loadLazily<typeof Markdown>('markdown', '../pipeline/site/marked.ts')).walkTokens(tokens, visit);

export interface LexedDoc {
  /** Top-level block tokens; their nested tokens are under `tokens` / `items`. */
  tokens: Token[];
  /** The doc line a token starts on: exact for block tokens, found in their text for inline ones. */
  lineOf(token: Token): number;
  /** The doc's front matter (pipeline/site/front-matter.ts): its fields and problems. */
  frontMatter: FrontMatterSplit;
}

function newlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** The block children of a container token and the line offset of the first one. */
function blockChildren(token: Token): { children: Token[]; offset: number } | null {
  if (token.type === 'list') return { children: (token as Tokens.List).items, offset: 0 };
  if (token.type === 'aside') return { children: token.tokens ?? [], offset: 1 };
  if (token.type === 'list_item' || token.type === 'blockquote') return { children: token.tokens ?? [], offset: 0 };
  return null;
}

/**
 * Gives each block token its markdown line. Sibling raws concatenate to their parent's text, and a
 * container's text maps line for line to its own lines (marked strips `>` and list indentation per
 * line, keeping blank lines), so a child starts where the earlier siblings' raw text ends.
 */
function placeBlocks(tokens: Token[], first: number, lines: Map<Token, number>): void {
  let line = first;
  for (const token of tokens) {
    lines.set(token, line);
    const nested = blockChildren(token);
    if (nested) placeBlocks(nested.children, line + nested.offset, lines);
    line += newlines(token.raw);
  }
}

/** Lexes a markdown doc and places every token on its line. */
export function lexDoc(text: string): LexedDoc {
  const frontMatter = splitFrontMatter(text.replace(/\r\n?/g, '\n'));
  const tokens = lexMarkdown(frontMatter.text);
  const blockLines = new Map<Token, number>();
  placeBlocks(tokens, 1, blockLines);
  // Inline tokens (links, images): found, in order, in the raw text of the block holding them.
  const inlineLines = new Map<Token, number>();
  let block: Token | null = null;
  let cursor = 0;
  walkTokens(tokens, (token) => {
    if (blockLines.has(token)) {
      block = token;
      cursor = 0;
      return;
    }
    if (block === null) return;
    const raw: string = (block as Token).raw;
    const at = raw.indexOf(token.raw, cursor);
    if (at === -1) return;
    inlineLines.set(token, (blockLines.get(block) ?? 1) + newlines(raw.slice(0, at)));
    cursor = at + 1;
  });
  return { tokens, lineOf: (token) => blockLines.get(token) ?? inlineLines.get(token) ?? 1, frontMatter };
}

/** A fenced (not indented) code block token. */
export function isFence(token: Token): token is Tokens.Code {
  return token.type === 'code' && (token as Tokens.Code).codeBlockStyle !== 'indented';
}

/** A fence token as a Fence: language, the rest of the info string, body and doc line. */
export function fenceOf(token: Tokens.Code, line: number): Fence {
  const [lang = '', ...rest] = (token.lang ?? '').trim().split(/\s+/);
  return { lang, meta: rest.join(' '), body: token.text, line };
}

/** Every fenced block of a doc in document order, nested ones (lists, blockquotes, asides) included. */
export function docFences(text: string): Fence[] {
  return fencesOf(lexDoc(text));
}

/** The fenced blocks of a lexed doc, nested ones included, with their doc lines. */
export function fencesOf(doc: LexedDoc): Fence[] {
  const fences: Fence[] = [];
  walkTokens(doc.tokens, (token) => {
    if (isFence(token)) fences.push(fenceOf(token, doc.lineOf(token)));
  });
  return fences;
}
