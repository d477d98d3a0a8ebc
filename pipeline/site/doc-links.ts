// Relative links and images of lesson docs (docs/site.md "Authoring"): a link to another lesson's
// folder or doc becomes that lesson page's URL; an image must be a file inside the lesson folder.
// Problems are DocRefErrors whose message segments.ts prefixes with lesson, doc and line.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { docFileList, docKindOfFile, readRegularFile, UnreadableFileError } from '../../content-schemas/fast.ts';
import { OutsideError, realPathInside } from '../course/confined.ts';
import { printable } from '../course/course.ts';
import { isInside } from '../course/inside.ts';

/** Thrown for a link or image the site cannot publish; the message names what is wrong. */
export class DocRefError extends Error {}

export interface LinkableLesson {
  id: string;
  slug: string;
  /** Lesson folder relative to the course root. */
  dir: string;
  /** Whether this build has a page for it (a publish build shows done lessons only). */
  included: boolean;
}

/** What relative links of one course resolve against. */
export interface DocLinks {
  /** Absolute course folder. */
  courseRoot: string;
  lessons: LinkableLesson[];
  /** The URL of a lesson page; `anchor` is '' or a section id. */
  href(lesson: { id: string; slug: string }, anchor: string): string;
}

/** The largest doc image the site publishes (bytes). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Formats Astro's image pipeline reads (astro:assets). */
export const IMAGE_FORMATS = ['png', 'jpg', 'jpeg', 'webp', 'gif', 'avif', 'svg', 'tiff'];

/** Links and images that leave the site's hands: URLs with a scheme, `//host`, `/path`, `#anchor`, `?query`. */
export function isRelativeUrl(url: string): boolean {
  return url !== '' && !/^([a-z][a-z0-9+.-]*:|[/#?])/i.test(url);
}

function splitUrl(url: string, what: string): { file: string; anchor: string } {
  const hash = url.indexOf('#');
  const file = (hash === -1 ? url : url.slice(0, hash)).replace(/\?.*$/, '');
  try {
    return { file: decodeURIComponent(file), anchor: hash === -1 ? '' : decodeURIComponent(url.slice(hash + 1)) };
  } catch {
    throw new DocRefError(`${what} ${url}: not a valid URL path`);
  }
}

/**
 * The site URL of a relative link in `doc` (relative to the lesson folder `lessonDir`, itself
 * relative to the course root): a lesson folder → its page, one of its docs (docs/readalong.md,
 * docs/notes.md: content-schemas/doc-kinds.ts) → that doc's section (or the link's own #anchor). null: the lesson has no page in this
 * build, so the link is dropped and its text kept.
 */
export function resolveLink(url: string, lessonDir: string, doc: string, links: DocLinks): string | null {
  const { file, anchor } = splitUrl(url, 'link');
  const target = path.posix.normalize(path.posix.join(lessonDir, path.posix.dirname(doc), file)).replace(/\/+$/, '');
  const absolute = path.resolve(links.courseRoot, target);
  if (absolute === path.resolve(links.courseRoot) || !isInside(absolute, links.courseRoot))
    throw new DocRefError(`link ${url}: points outside the lesson folders of the course`);
  const lesson = links.lessons.find((l) => isInside(absolute, path.resolve(links.courseRoot, l.dir)));
  const fix = `link a lesson folder or its ${docFileList()}`;
  if (lesson === undefined) {
    const what = existsSync(path.join(links.courseRoot, target))
      ? 'is not a lesson folder'
      : 'no such lesson folder or doc in the course';
    throw new DocRefError(`link ${url}: ${what} (${fix})`);
  }
  const rest = target.slice(trimSlash(lesson.dir).length + 1);
  const section = rest === '' ? '' : docKindOfFile(rest)?.name;
  if (section === undefined)
    throw new DocRefError(
      `link ${url}: ${rest} of lesson ${lesson.id} has no page of its own (${fix}; show code with a code reference)`,
    );
  if (rest !== '' && !existsSync(path.join(links.courseRoot, lesson.dir, rest)))
    throw new DocRefError(`link ${url}: lesson ${lesson.id} has no ${rest}`);
  if (!lesson.included) return null;
  return links.href(lesson, anchor || section);
}

function trimSlash(dir: string): string {
  return dir.replace(/\/+$/, '');
}

export interface DocImage {
  /** Content hash: names the image in the doc's HTML until the site swaps in the optimized file. */
  key: string;
  /** Absolute real path of the file: read as bytes only, never a specifier (doc-images.ts stages a copy). */
  path: string;
  /** Its format, one of IMAGE_FORMATS (lower case): the staged copy's extension. */
  ext: string;
}

/**
 * What an image's file name may not hold, with why: characters a bundler or a URL reads as syntax
 * (`?` a query, `#` a fragment, `%` an escape, a backslash a separator) and control characters.
 */
const UNSAFE_NAME: Array<[RegExp, string]> = [
  [/[\u0000-\u001f\u007f-\u009f]/, 'a control character'],
  [/\?/, '"?"'],
  [/#/, '"#"'],
  [/%/, '"%"'],
  [/\\/, 'a backslash'],
];

/** Why the (decoded) image path `file` is refused as a name, or null. */
function unsafeImageName(file: string): string | null {
  for (const [pattern, what] of UNSAFE_NAME) if (pattern.test(file)) return what;
  return null;
}

/** A relative image of `doc`, read from inside the lesson folder `lessonDir` (absolute). */
export function resolveImage(url: string, lessonDir: string, doc: string): DocImage {
  const { file } = splitUrl(url, 'image');
  const relative = path.posix.normalize(path.posix.join(path.posix.dirname(doc), file));
  const unsafe = unsafeImageName(file);
  if (unsafe !== null)
    throw new DocRefError(
      `image ${printable(url)}: its file name holds ${unsafe}; rename the image to letters, digits, "-", "_" and "." (and "/" between folders)`,
    );
  // The written path first (".." segments); where it resolves through symlinks is checked below.
  if (relative.split('/').includes('..'))
    throw new DocRefError(`image ${url}: points outside the lesson folder; images must be files inside it`);
  const ext = path.posix.extname(relative).slice(1).toLowerCase();
  if (!IMAGE_FORMATS.includes(ext))
    throw new DocRefError(
      `image ${url}: .${ext || '(none)'} is not an image format the site can optimize (${IMAGE_FORMATS.join(', ')})`,
    );
  let real: string | null;
  try {
    real = realPathInside(lessonDir, relative); // readRegularFile below refuses anything but a regular file
  } catch (error) {
    if (error instanceof OutsideError)
      throw new DocRefError(
        `image ${url}: resolves outside the lesson folder (through a symbolic link); only the lesson's own files are published`,
      );
    throw error;
  }
  if (real === null) throw new DocRefError(`image ${url}: no such file in the lesson folder (looked for ${relative})`);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(real, MAX_IMAGE_BYTES, { noFollow: true });
  } catch (error) {
    if (error instanceof UnreadableFileError) throw new DocRefError(`image ${url}: ${relative} ${error.reason}`);
    throw error;
  }
  return { key: createHash('sha256').update(bytes).digest('hex').slice(0, 16), path: real, ext };
}
