// The parts of a lesson's docs the example check reads: fenced blocks, code references and mermaid
// diagrams (fenced blocks and docs/diagrams/*.mmd files). Code references are read and checked by
// the site's own parser (pipeline/site/code-refs.ts), the one `codelabgen check` uses.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DOC_KINDS, docFiles } from '../content-schemas/index.ts';
import { codeRefProblems as docCodeRefProblems } from '../pipeline/site/check-refs.ts';
import { CodeRefError, parseCodeRef, type CodeRef } from '../pipeline/site/code-refs.ts';
import { docFences } from '../pipeline/site/doc-tokens.ts';
import type { Fence } from '../pipeline/site/fences.ts';

/** Fenced blocks of a markdown text (nested ones too), as the site finds them. */
export function fencedBlocks(markdown: string): Fence[] {
  return docFences(markdown);
}

/** The code references of a markdown text (a malformed one too: codeRefProblems names it). */
export function codeRefs(markdown: string): (CodeRef | 'malformed')[] {
  return fencedBlocks(markdown).flatMap((fence): (CodeRef | 'malformed')[] => {
    try {
      const ref = parseCodeRef(fence);
      return ref === null ? [] : [ref];
    } catch (error) {
      if (error instanceof CodeRefError) return ['malformed'];
      throw error;
    }
  });
}

/** Problems with the code references of one doc, worded as `codelabgen check` words them. */
export function codeRefProblems(lessonDir: string, doc: string): string[] {
  return docCodeRefProblems(path.basename(lessonDir), lessonDir, doc, readFileSync(path.join(lessonDir, doc), 'utf8'));
}

/** Mermaid sources of a lesson: ```mermaid blocks in its docs and docs/diagrams/*.mmd files. */
export function lessonDiagrams(lessonDir: string): { where: string; source: string }[] {
  const diagrams: { where: string; source: string }[] = [];
  for (const [doc] of DOC_KINDS.map(docFiles)) {
    const file = path.join(lessonDir, doc);
    if (!existsSync(file)) continue;
    for (const fence of fencedBlocks(readFileSync(file, 'utf8'))) {
      if (fence.lang === 'mermaid') diagrams.push({ where: `${doc}:${fence.line}`, source: fence.body });
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
