// The parts of a lesson's docs the example check reads: fenced blocks, code references (see
// docs/conventions.md) and mermaid diagrams (fenced blocks and docs/diagrams/*.mmd files).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** A fenced block: its info string (language and attributes), body and 1-based line. */
export interface Fence { info: string; body: string; line: number }

/** Top-level fenced blocks of a markdown text (a fence closes only with the same marker, at least as long). */
export function fencedBlocks(markdown: string): Fence[] {
  const blocks: Fence[] = [];
  let open: { marker: string; info: string; line: number; body: string[] } | undefined;
  markdown.split('\n').forEach((text, index) => {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(text);
    if (open) {
      if (fence && fence[1]!.startsWith(open.marker) && fence[1]![0] === open.marker[0] && fence[2]!.trim() === '') {
        blocks.push({ info: open.info, body: open.body.join('\n'), line: open.line });
        open = undefined;
      } else open.body.push(text);
    } else if (fence) open = { marker: fence[1]!, info: fence[2]!.trim(), line: index + 1, body: [] };
  });
  return blocks;
}

/** `key=value` attributes of a fence info string. */
export function fenceAttributes(info: string): Record<string, string> {
  return Object.fromEntries([...info.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

function lineCount(file: string): number {
  const text = readFileSync(file, 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/** Problems with the code references of one doc: missing files, bad ranges, non-empty bodies. */
export function codeRefProblems(lessonDir: string, doc: string): string[] {
  const problems: string[] = [];
  for (const block of fencedBlocks(readFileSync(path.join(lessonDir, doc), 'utf8'))) {
    const attrs = fenceAttributes(block.info);
    if (attrs.file === undefined) continue;
    const where = `${doc}:${block.line}`;
    if (block.body.trim() !== '') problems.push(`${where}: a code reference must have an empty body`);
    if (path.isAbsolute(attrs.file) || attrs.file.split('/').includes('..')) { problems.push(`${where}: file=${attrs.file} leaves the lesson folder`); continue; }
    const file = path.join(lessonDir, attrs.file);
    if (!existsSync(file) || !statSync(file).isFile()) { problems.push(`${where}: file=${attrs.file} does not exist`); continue; }
    if (attrs.lines === undefined) continue;
    const range = /^(\d+)(?:-(\d+))?$/.exec(attrs.lines);
    const start = Number(range?.[1]);
    const end = Number(range?.[2] ?? range?.[1]);
    if (!range || start < 1 || end < start || end > lineCount(file)) problems.push(`${where}: lines=${attrs.lines} is not a range inside ${attrs.file} (${lineCount(file)} lines)`);
  }
  return problems;
}

/** Mermaid sources of a lesson: ```mermaid blocks in its docs and docs/diagrams/*.mmd files. */
export function lessonDiagrams(lessonDir: string): { where: string; source: string }[] {
  const diagrams: { where: string; source: string }[] = [];
  for (const doc of ['docs/readalong.md', 'docs/notes.md']) {
    const file = path.join(lessonDir, doc);
    if (!existsSync(file)) continue;
    for (const block of fencedBlocks(readFileSync(file, 'utf8'))) {
      if (block.info.split(/\s+/)[0] === 'mermaid') diagrams.push({ where: `${doc}:${block.line}`, source: block.body });
    }
  }
  const folder = path.join(lessonDir, 'docs', 'diagrams');
  if (existsSync(folder)) {
    for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.mmd')).sort()) {
      diagrams.push({ where: `docs/diagrams/${name}`, source: readFileSync(path.join(folder, name), 'utf8') });
    }
  }
  return diagrams;
}
