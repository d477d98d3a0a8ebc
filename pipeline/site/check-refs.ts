// The `codelabgen check` section for lesson docs: every code reference (nested in lists,
// blockquotes and asides too) must name a real file and line range, and every relative link and
// image must resolve as the site build resolves them (pipeline/site/doc-links.ts), with the same
// messages. Light: no site renderer, only marked's lexer (and the MDX parser, loaded only for .mdx
// docs, which are refused without site.mdx: true).
import type { State } from '../../content-schemas/index.ts';
import { DataFileError, readTextFile } from '../../content-schemas/fast.ts';
import type { CheckSection } from '../check/section.ts';
import { OutsideError, realPathInside } from '../course/confined.ts';
import { loadConfig } from '../course/config.ts';
import { lessonFolderPath, type Course } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import type { Tokens } from 'marked';
import { CodeRefError, parseCodeRef, resolveCodeRef } from './code-refs.ts';
import { DocRefError, isRelativeUrl, resolveImage, resolveLink, type DocLinks } from './doc-links.ts';
import { fencesOf, lexDoc, type LexedDoc } from './doc-tokens.ts';
import { walkTokens } from './marked.ts';
import { mdxNotAllowed, readMdxDoc } from './mdx-docs.ts';

export const LESSON_DOCS = ['docs/readalong.md', 'docs/readalong.mdx', 'docs/notes.md', 'docs/notes.mdx'] as const;

/** Problems of one doc: `lesson <id> <doc>:<line>: <what>`. */
export function codeRefProblems(lessonId: string, lessonDir: string, doc: string, text: string | LexedDoc): string[] {
  const problems: string[] = [];
  for (const fence of fencesOf(typeof text === 'string' ? lexDoc(text) : text)) {
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

/**
 * Relative links and images of one doc, resolved as the site build does: `lesson <id> <doc>:<line>:
 * link|image ...`. `lessonDir` is the folder on disk, `lesson.dir` its course-relative path.
 */
export function docLinkProblems(
  lesson: { id: string; dir: string },
  lessonDir: string,
  doc: string,
  lexed: LexedDoc,
  links: DocLinks,
): { problems: string[]; links: number; images: number } {
  const result = { problems: [] as string[], links: 0, images: 0 };
  walkTokens(lexed.tokens, (token) => {
    if (token.type !== 'link' && token.type !== 'image') return;
    const target = token as Tokens.Link | Tokens.Image;
    if (!isRelativeUrl(target.href)) return;
    try {
      if (target.type === 'image') {
        result.images++;
        resolveImage(target.href, lessonDir, doc);
      } else {
        result.links++;
        resolveLink(target.href, lesson.dir, doc, links);
      }
    } catch (error) {
      if (!(error instanceof DocRefError)) throw error;
      result.problems.push(`lesson ${lesson.id} ${doc}:${lexed.lineOf(token)}: ${error.message}`);
    }
  });
  return result;
}

export function checkCodeRefs(course: Course, state: State | null): CheckSection {
  const problems: string[] = [];
  let mdxAllowed: boolean | null = null;
  let refs = 0;
  let linkCount = 0;
  let imageCount = 0;
  // Every lesson of the course has a page as far as the check goes (a publish build may leave some out).
  const links: DocLinks = {
    courseRoot: course.root,
    lessons: (state?.lesson_order ?? []).flatMap((id) => {
      const lesson = state?.lessons[id];
      return lesson ? [{ id, slug: lesson.slug, dir: lesson.dir, included: true }] : [];
    }),
    href: () => '',
  };
  for (const id of state?.lesson_order ?? []) {
    const lesson = state?.lessons[id];
    if (lesson === undefined) continue;
    let dir: string;
    try {
      dir = lessonFolderPath(course, lesson.dir, `lesson ${id} dir`);
    } catch {
      continue; // a folder outside the course is reported by the artifact checks, not here
    }
    for (const doc of LESSON_DOCS) {
      let file: string | null;
      try {
        file = realPathInside(dir, doc);
      } catch (error) {
        if (!(error instanceof OutsideError)) throw error;
        problems.push(
          `lesson ${id} ${doc}: resolves outside the lesson folder (through a symbolic link); the site refuses to publish it`,
        );
        continue;
      }
      if (file === null) continue;
      let text: string;
      try {
        text = readTextFile(file, `${lesson.dir}/${doc}`); // a pipe, a folder, a huge or non-UTF-8 file: named, never opened blocking
      } catch (error) {
        if (!(error instanceof DataFileError)) throw error;
        problems.push(...error.message.split('\n'));
        continue;
      }
      if (doc.endsWith('.mdx')) {
        mdxAllowed ??= loadConfig(course).site.mdx === true;
        if (!mdxAllowed) refuse(mdxNotAllowed(id, doc));
        const mdx = readMdxDoc(text, { lesson: id, lessonDir: dir, doc });
        refs += mdx.references;
        problems.push(...mdx.problems);
        continue;
      }
      refs += (text.match(/file=/g) ?? []).length;
      const lexed = lexDoc(text); // once for the front matter, the code references and the links
      problems.push(...lexed.frontMatter.problems.map((p) => `lesson ${id} ${doc}:${p.line}: ${p.message}`));
      problems.push(...codeRefProblems(id, dir, doc, lexed));
      const linked = docLinkProblems({ id, dir: lesson.dir }, dir, doc, lexed, links);
      problems.push(...linked.problems);
      linkCount += linked.links;
      imageCount += linked.images;
    }
  }
  return {
    name: 'lesson docs: code references, links and images resolve',
    detail: [count(refs, 'reference'), count(linkCount, 'link'), count(imageCount, 'image')].join(', '),
    problems,
  };
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
