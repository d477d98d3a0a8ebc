// The `codelabgen check` section for readalong code references: every reference in every lesson
// doc (nested in lists, blockquotes and asides too) must name a real file and line range. Light:
// no site renderer, only marked's lexer (and the MDX parser, loaded only for .mdx docs, which are
// refused without site.mdx: true).
import { readFileSync } from 'node:fs';
import type { State } from '../../content-schemas/index.ts';
import type { CheckSection } from '../check.ts';
import { fileInside, OutsideError } from '../confined.ts';
import { loadConfig } from '../config.ts';
import { insideCourse, type Course } from '../course.ts';
import { refuse } from '../errors.ts';
import { CodeRefError, parseCodeRef, resolveCodeRef } from './code-refs.ts';
import { docFences } from './doc-tokens.ts';
import { mdxNotAllowed, readMdxDoc } from './mdx-docs.ts';

export const LESSON_DOCS = ['docs/readalong.md', 'docs/readalong.mdx', 'docs/notes.md', 'docs/notes.mdx'] as const;

/** Problems of one doc: `lesson <id> <doc>:<line>: <what>`. */
export function codeRefProblems(lessonId: string, lessonDir: string, doc: string, text: string): string[] {
  const problems: string[] = [];
  for (const fence of docFences(text)) {
    try {
      const ref = parseCodeRef(fence);
      if (ref !== null) resolveCodeRef(lessonDir, ref, fence);
    } catch (error) {
      if (!(error instanceof CodeRefError)) throw error;
      problems.push(`lesson ${lessonId} ${doc}:${fence.line}: code reference ${error.message}`);
    }
  }
  return problems;
}

export function checkCodeRefs(course: Course, state: State | null): CheckSection {
  const problems: string[] = [];
  let mdxAllowed: boolean | null = null;
  let refs = 0;
  for (const id of state?.lesson_order ?? []) {
    const lesson = state?.lessons[id];
    if (lesson === undefined) continue;
    let dir: string;
    try {
      dir = insideCourse(course, lesson.dir, `lesson ${id} dir`);
    } catch {
      continue; // a folder outside the course is reported by the artifact checks, not here
    }
    for (const doc of LESSON_DOCS) {
      let file: string | null;
      try {
        file = fileInside(dir, doc);
      } catch (error) {
        if (!(error instanceof OutsideError)) throw error;
        problems.push(`lesson ${id} ${doc}: resolves outside the lesson folder (through a symbolic link); the site refuses to publish it`);
        continue;
      }
      if (file === null) continue;
      const text = readFileSync(file, 'utf8');
      if (doc.endsWith('.mdx')) {
        mdxAllowed ??= loadConfig(course).site.mdx === true;
        if (!mdxAllowed) refuse(mdxNotAllowed(id, doc));
        const mdx = readMdxDoc(text, { lesson: id, lessonDir: dir, doc });
        refs += mdx.references;
        problems.push(...mdx.problems);
        continue;
      }
      refs += (text.match(/file=/g) ?? []).length;
      problems.push(...codeRefProblems(id, dir, doc, text));
    }
  }
  return { name: 'readalong code references resolve', detail: `${refs} references`, problems };
}
