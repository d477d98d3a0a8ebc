// A lesson folder's files as the site reads them: its docs (rendered), diagram sources, code files
// and download, each confined to the folder; and the links between lesson pages. Read-only;
// imported through pipeline/read/index.ts.
import { existsSync, lstatSync } from 'node:fs';
import path from 'node:path';
import {
  DOC_KINDS,
  docFiles,
  readRegularFile,
  readTextFile,
  UnreadableFileError,
  type DocKindName,
} from '../../content-schemas/index.ts';
import { listLessonCodeFiles } from '../artifacts/code-hash.ts';
import { downloadNameProblem } from '../artifacts/download-names.ts';
import { OutsideError, readFileInside, realPathInside } from '../course/confined.ts';
import { courseAt, lessonFolderPath, type Course } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { langOf } from '../site/code-refs.ts';
import { mdxNotAllowed, readMdxDoc } from '../site/mdx-docs.ts';
import type { DocLinks } from '../site/doc-links.ts';
import { lessonDiagramFiles } from '../site/diagram-files.ts';
import { renderDoc, type DiagramRef, type RenderedDoc } from '../site/segments.ts';
import { lessonPath, type CourseView, type SiteLesson } from './course-data.ts';

export type LessonDoc = RenderedDoc & {
  doc: string;
  /** An .mdx doc (site.mdx: true): Astro compiles it; `segments` is empty. */
  mdx: boolean;
};

/** A lesson's docs by kind (content-schemas/doc-kinds.ts), null where the lesson has none. */
export type LessonDocs = Record<DocKindName, LessonDoc | null>;

/** A lesson page's path under the site's base and prefix (`linkBase`, ending in /), with an anchor. */
export function lessonLink(linkBase: string, lesson: { id: string; slug: string }, anchor?: string): string {
  return `${linkBase}lessons/${lesson.id}-${lesson.slug}/${anchor ? `#${anchor}` : ''}`;
}

/** The link targets of a build: every lesson of the course, `included` when it has a page. */
export function docLinks(
  view: CourseView,
  included: (lesson: SiteLesson) => boolean,
  href: DocLinks['href'],
): DocLinks {
  return {
    courseRoot: view.course.root,
    lessons: view.lessons.map((l) => ({ id: l.id, slug: l.slug, dir: l.dir, included: included(l) })),
    href,
  };
}

/**
 * Each doc kind's docs/<name>.md or .mdx (readalong, notes: content-schemas/doc-kinds.ts): markdown rendered to segments (code references, links and
 * images resolved), MDX read for its problems and diagrams (pipeline/site/mdx-docs.ts). An .mdx doc
 * is refused unless `mdx` (config.yaml site.mdx) allows it.
 */
export function readLessonDocs(course: Course, lesson: SiteLesson, mdx: boolean, links?: DocLinks): LessonDocs {
  const dir = lessonPath(course, lesson);
  const read = (kind: { name: string }): LessonDoc | null => {
    for (const doc of docFiles(kind)) {
      const file = lessonFile(dir, lesson, doc);
      if (file === null) continue;
      const text = readTextFile(file, `${lesson.dir}/${doc}`);
      const ctx = { lesson: lesson.id, lessonDir: dir, doc, ...(links ? { links } : {}) };
      if (!doc.endsWith('.mdx')) return { doc, mdx: false, ...renderDoc(text, ctx) };
      if (!mdx) refuse(mdxNotAllowed(lesson.id, doc));
      const info = readMdxDoc(text, ctx);
      return {
        doc,
        mdx: true,
        title: info.title,
        description: null,
        segments: [],
        problems: info.problems,
        diagrams: info.diagrams,
        images: [],
        words: info.words,
      };
    }
    return null;
  };
  return Object.fromEntries(DOC_KINDS.map((kind) => [kind.name, read(kind)])) as LessonDocs;
}

/** Refuses the first .mdx lesson doc of any lesson unless config.yaml has site.mdx: true (docs/site.md "MDX"). */
export function refuseUnallowedMdx(view: CourseView): void {
  if (view.config.site.mdx === true) return;
  for (const lesson of view.lessons) {
    for (const [, doc] of DOC_KINDS.map(docFiles)) {
      if (lessonFile(lessonPath(view.course, lesson), lesson, doc) !== null) refuse(mdxNotAllowed(lesson.id, doc));
    }
  }
}

/**
 * A file of the lesson folder (real path), null when missing; refused when it resolves outside the
 * folder. Whatever is there is returned: readTextFile refuses anything but a regular file.
 */
function lessonFile(lessonDir: string, lesson: SiteLesson, relative: string): string | null {
  try {
    return realPathInside(lessonDir, relative);
  } catch (error) {
    if (!(error instanceof OutsideError)) throw error;
    return refuse(
      `${lesson.dir}/${relative} resolves outside the lesson folder (to ${error.real}); the site never publishes files from outside the course`,
      'replace the symbolic link with the file itself',
    );
  }
}

/** `docs/diagrams/*.mmd` of a lesson, sorted by file name. */
export function readDiagramFiles(course: Course, lesson: SiteLesson): DiagramRef[] {
  return lessonDiagramFiles(lesson, lessonPath(course, lesson));
}

export interface CodeFile {
  path: string;
  lang: string;
  text: string;
  bytes: number;
  binary: boolean;
}

/** Code files larger than this (bytes) are listed as binary, not read, and left out of the lesson's download. */
export const MAX_CODE_FILE_BYTES = 512 * 1024;

/** Every code file of the lesson folder (docs/ and dependency folders skipped). */
export function readCodeFiles(course: Course, lesson: SiteLesson): CodeFile[] {
  const dir = lessonPath(course, lesson);
  if (!existsSync(dir)) return [];
  return listLessonCodeFiles(dir).map((file) => {
    const stats = lstatSync(path.join(dir, file));
    // A symlink is shown as such, never followed; a file over the limit, or anything but a regular
    // file, is listed without being read.
    if (stats.isSymbolicLink())
      return { path: file, lang: langOf(file), text: '(symbolic link)', bytes: 15, binary: false };
    if (!stats.isFile() || stats.size > MAX_CODE_FILE_BYTES)
      return { path: file, lang: langOf(file), text: '', bytes: stats.size, binary: true };
    let bytes: Buffer;
    try {
      bytes = readRegularFile(path.join(dir, file), MAX_CODE_FILE_BYTES, { noFollow: true }); // lstat'ed a file just above
    } catch (error) {
      if (!(error instanceof UnreadableFileError)) throw error;
      return { path: file, lang: langOf(file), text: '', bytes: stats.size, binary: true }; // replaced while read
    }
    const binary = bytes.subarray(0, 8000).includes(0);
    return { path: file, lang: langOf(file), text: binary ? '' : bytes.toString('utf8'), bytes: bytes.length, binary };
  });
}

/** A file of a lesson's download: its path in the lesson folder and its bytes. */
export interface DownloadFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * The lesson's code as a learner downloads it: the files readCodeFiles lists (docs/, dependency and
 * cache folders left out), each read only as a regular file inside the lesson folder: a symbolic link
 * is followed while it stays inside, one leading out of the folder is left out. So is a file whose
 * name is no safe zip entry name (a backslash, a control character: pipeline/artifacts/download-names.ts;
 * `check` names it).
 */
export function readLessonDownload(courseRoot: string, dir: string): DownloadFile[] {
  const course = courseAt(courseRoot);
  const lessonDir = lessonFolderPath(course, dir, `lesson folder ${dir}`);
  if (!existsSync(lessonDir)) return [];
  return listLessonCodeFiles(lessonDir).flatMap((file) => {
    if (downloadNameProblem(file) !== null) return [];
    let bytes: Buffer | null;
    try {
      bytes = readFileInside(lessonDir, file, MAX_CODE_FILE_BYTES);
    } catch (error) {
      // never publish a file from outside the lesson folder; too big, or not a regular file when opened: not published
      if (error instanceof OutsideError || error instanceof UnreadableFileError) return [];
      throw error;
    }
    return bytes === null ? [] : [{ path: file, bytes }];
  });
}
