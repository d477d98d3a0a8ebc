// The `codelabgen check` section for lesson docs: every code reference (nested in lists,
// blockquotes and asides too) must name a real file and line range, and every relative link and
// image must resolve as the site build resolves them (pipeline/site/doc-links.ts), with the same
// messages. Light: no site renderer, only marked's lexer (and the MDX parser, loaded only for .mdx
// docs, which are refused without site.mdx: true).
import type { State } from '../../content-schemas/index.ts';
import { CodelabgenError, DataFileError, lessonDocFiles, readTextFile } from '../../content-schemas/fast.ts';
import type { CheckSection } from '../check/section.ts';
import { OutsideError, realPathInside } from '../course/confined.ts';
import { loadConfig } from '../course/config.ts';
import { lessonFolderPath, type Course } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import type { Tokens } from 'marked';
import { CodeRefError, parseCodeRef, resolveCodeRef } from './code-refs.ts';
import { lessonDiagramFiles } from './diagram-files.ts';
import { DiagramParse, type DiagramSource } from './diagram-parse.ts';
import { DocRefError, isRelativeUrl, resolveImage, resolveLink, type DocLinks } from './doc-links.ts';
import { fencesOf, lexDoc, type LexedDoc } from './doc-tokens.ts';
import { walkTokens } from './marked.ts';
import { mdxNotAllowed, readMdxDoc } from './mdx-docs.ts';

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

/** One lesson doc, checked as `check` checks it (and as a move to its stage does: pipeline/site/stage-docs.ts). */
export interface DocCheck {
  problems: string[];
  references: number;
  links: number;
  images: number;
  /** Its mermaid diagrams, for the parse (pipeline/site/diagram-parse.ts). */
  diagrams: DiagramSource[];
}

/**
 * Checks `doc` (one of lessonDocFiles(), content-schemas/doc-kinds.ts) of a lesson: it resolves inside the lesson folder, reads as text,
 * its front matter, code references, links and images resolve. A doc that is not there is no problem
 * (the stage's own artifact check says when one is required).
 */
export function checkLessonDoc(
  course: Course,
  lesson: { id: string; dir: string },
  lessonDir: string,
  doc: string,
  links: DocLinks,
): DocCheck {
  const id = lesson.id;
  const result: DocCheck = { problems: [], references: 0, links: 0, images: 0, diagrams: [] };
  let file: string | null;
  try {
    file = realPathInside(lessonDir, doc);
  } catch (error) {
    if (!(error instanceof OutsideError)) throw error;
    result.problems.push(
      `lesson ${id} ${doc}: resolves outside the lesson folder (through a symbolic link); the site refuses to publish it`,
    );
    return result;
  }
  if (file === null) return result;
  let text: string;
  try {
    text = readTextFile(file, `${lesson.dir}/${doc}`); // a pipe, a folder, a huge or non-UTF-8 file: named, never opened blocking
  } catch (error) {
    if (!(error instanceof DataFileError)) throw error;
    result.problems.push(...error.message.split('\n'));
    return result;
  }
  if (doc.endsWith('.mdx')) {
    if (loadConfig(course).site.mdx !== true) refuse(mdxNotAllowed(id, doc));
    const mdx = readMdxDoc(text, { lesson: id, lessonDir, doc });
    result.references = mdx.references;
    result.problems.push(...mdx.problems);
    result.diagrams = mdx.diagrams.map((diagram) => ({ lesson: id, where: diagram.label, source: diagram.source }));
    return result;
  }
  result.references = (text.match(/file=/g) ?? []).length;
  const lexed = lexDoc(text); // once for the front matter, the code references, the links and the diagrams
  result.problems.push(...lexed.frontMatter.problems.map((p) => `lesson ${id} ${doc}:${p.line}: ${p.message}`));
  result.problems.push(...codeRefProblems(id, lessonDir, doc, lexed));
  const linked = docLinkProblems({ id, dir: lesson.dir }, lessonDir, doc, lexed, links);
  result.problems.push(...linked.problems);
  result.links = linked.links;
  result.images = linked.images;
  result.diagrams = fencesOf(lexed)
    .filter((fence) => fence.lang === 'mermaid')
    .map((fence) => ({ lesson: id, where: `${doc}:${fence.line}`, source: fence.body }));
  return result;
}

/** Every lesson of the course has a page as far as the checks go (a publish build may leave some out). */
export function courseDocLinks(course: Course, state: State | null): DocLinks {
  return {
    courseRoot: course.root,
    lessons: (state?.lesson_order ?? []).flatMap((id) => {
      const lesson = state?.lessons[id];
      return lesson ? [{ id, slug: lesson.slug, dir: lesson.dir, included: true }] : [];
    }),
    href: () => '',
  };
}

/** The lessons of the state with their folders on disk (a folder outside the course is the artifact checks' to report). */
export function lessonFolders(course: Course, state: State | null): Array<{ id: string; dir: string; path: string }> {
  return (state?.lesson_order ?? []).flatMap((id) => {
    const lesson = state?.lessons[id];
    if (lesson === undefined) return [];
    try {
      return [{ id, dir: lesson.dir, path: lessonFolderPath(course, lesson.dir, `lesson ${id} dir`) }];
    } catch {
      return [];
    }
  });
}

/**
 * Two sections: every lesson doc's code references, links and images resolve; and every diagram
 * (fences in the docs, `docs/diagrams/*.mmd`) parses, without drawing it (no browser needed). The
 * parser starts at the first diagram the diagram cache does not hold and runs while the doc checks
 * and `check`'s later checks go on (pipeline/check/check.ts awaits this last).
 */
export function checkLessonDocs(course: Course, state: State | null): Promise<CheckSection[]> {
  const parse = new DiagramParse();
  let docs: CheckSection;
  try {
    docs = checkDocsParsing(course, state, parse);
  } catch (error) {
    parse.cancel();
    throw error;
  }
  return parse.finish().then((parsed) => [
    docs,
    {
      name: 'diagrams parse',
      detail: `mermaid, not drawn: ${count(parse.count, 'diagram')}${parsed.unavailable === null ? '' : ' not parsed'}`,
      problems: parsed.problems,
      warnings:
        parsed.unavailable === null ? [] : [`${count(parse.count, 'diagram')} not parsed: ${parsed.unavailable}`],
    },
  ]);
}

/**
 * The doc checks of every lesson, each diagram handed to `parse` as it is found. A lesson's
 * `docs/diagrams/*.mmd` are read before its docs are checked, so that a diagram the cache does not
 * hold starts the parser before them (`prefetch`: the first lesson's doc checks take 30-50 ms, what
 * they load on first use; later ones about 1 ms); they are still handed over, and their problems
 * reported, after the docs.
 */
function checkDocsParsing(course: Course, state: State | null, parse: DiagramParse): CheckSection {
  const problems: string[] = [];
  let refs = 0;
  let linkCount = 0;
  let imageCount = 0;
  const links = courseDocLinks(course, state);
  for (const lesson of lessonFolders(course, state)) {
    let files: ReturnType<typeof lessonDiagramFiles> = [];
    let filesProblem: string | null = null;
    try {
      files = lessonDiagramFiles(lesson, lesson.path);
    } catch (error) {
      if (!(error instanceof CodelabgenError)) throw error;
      filesProblem = `lesson ${lesson.id}: ${error.message}`;
    }
    for (const file of files) parse.prefetch(file.source);
    for (const doc of lessonDocFiles()) {
      const checked = checkLessonDoc(course, lesson, lesson.path, doc, links);
      problems.push(...checked.problems);
      refs += checked.references;
      linkCount += checked.links;
      imageCount += checked.images;
      for (const diagram of checked.diagrams) parse.add(diagram);
    }
    for (const file of files) parse.add({ lesson: lesson.id, where: file.label, source: file.source });
    if (filesProblem !== null) problems.push(filesProblem);
  }
  return {
    name: 'lesson docs: code references, links and images resolve',
    detail: [count(refs, 'reference'), count(linkCount, 'link'), count(imageCount, 'image')].join(', '),
    problems,
  };
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
