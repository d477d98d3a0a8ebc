// Course resolution (--course, $CODELABGEN_COURSE, nearest ancestor) and the artifact paths of
// docs/protocol.md, "Course layout". Every path the pipeline touches inside a course comes from here.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { refuse } from './errors.ts';
import { isInside, isInsideReal, isNormalizedAbsolute, realPathOf } from './inside.ts';

export const DOT_DIR = '.codelabgen';
/** The course's own site output folder (`site build` inside a course): no lesson, no data file; the site reads nothing there. */
export const SITE_OUT_DIR = 'site-out';

export interface Course {
  /** Absolute, real path of the course root. */
  root: string;
  /** Absolute path of `<root>/.codelabgen`. */
  dir: string;
}

export function courseAt(root: string): Course {
  const absolute = path.resolve(root);
  return { root: absolute, dir: path.join(absolute, DOT_DIR) };
}

export interface ResolveOptions {
  flag?: string | undefined;
  env?: string | undefined;
  cwd: string;
}

export function resolveCourse({ flag, env, cwd }: ResolveOptions): Course {
  if (flag !== undefined && flag !== '') return explicitCourse(flag, '--course', cwd);
  if (env !== undefined && env !== '') return explicitCourse(env, 'CODELABGEN_COURSE', cwd);
  let dir = path.resolve(cwd);
  for (;;) {
    if (isDirectory(path.join(dir, DOT_DIR))) return courseAt(realpathSync(dir));
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return refuse(
    `no course found: pass --course DIR, set CODELABGEN_COURSE, or run inside a course directory (one with ${DOT_DIR}/)`,
    'create one with: codelabgen init DIR --title "Course title"',
  );
}

function explicitCourse(given: string, from: string, cwd: string): Course {
  const root = path.resolve(cwd, given);
  if (!isDirectory(path.join(root, DOT_DIR)))
    refuse(
      `${from} ${given}: not a course directory (no ${DOT_DIR}/ folder)`,
      'create one with: codelabgen init DIR --title "Course title"',
    );
  return courseAt(realpathSync(root));
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // missing or unreadable: not a course folder
  }
}

/** Paths relative to the course root, as docs/protocol.md ("Course layout") names them. */
export const ARTIFACTS = {
  config: `${DOT_DIR}/config.yaml`,
  state: `${DOT_DIR}/state.json`,
  events: `${DOT_DIR}/events.jsonl`,
  lock: `${DOT_DIR}/lock`,
  overview: `${DOT_DIR}/research/overview.md`,
  deprecations: `${DOT_DIR}/research/deprecations.md`,
  sources: `${DOT_DIR}/sources.jsonl`,
  curriculum: `${DOT_DIR}/curriculum.yaml`,
  plan: `${DOT_DIR}/plan.md`,
  glossary: `${DOT_DIR}/glossary.jsonl`,
  reportMd: `${DOT_DIR}/report.md`,
  reportJson: `${DOT_DIR}/report.json`,
  sourceDigest: (id: string) => `${DOT_DIR}/sources/${id}.md`,
  topics: (sourceId: string) => `${DOT_DIR}/topics/${sourceId}.jsonl`,
  lessonSpec: (id: string) => `${DOT_DIR}/lessons/${id}/spec.yaml`,
  lessonReview: (id: string) => `${DOT_DIR}/lessons/${id}/review.md`,
  runsDir: (id: string) => `${DOT_DIR}/runs/${id}`,
} as const;

// The course root's real path, once per course object: abs() runs on every course file a command
// touches, so only the target's realpath is taken per call (a state command's start-up budget).
// `joinable`: the root is absolute and normalized, so a plain relative path is joined to it as text.
const roots = new WeakMap<Course, { real: string; joinable: boolean }>();
function rootOf(course: Course): { real: string; joinable: boolean } {
  let root = roots.get(course);
  if (root === undefined) {
    root = { real: realPathOf(course.root), joinable: isNormalizedAbsolute(course.root) };
    roots.set(course, root);
  }
  return root;
}

/**
 * Whether `relative` has a segment path.join() would rewrite: empty (a leading, trailing or doubled
 * `/`), `.` or `..`. String tests, not a regular expression: V8 compiles each one a process runs.
 */
function notPlain(relative: string): boolean {
  return relative.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
}

/**
 * path.join(course.root, relative), as text when that gives the same path: a root joinable (above)
 * and a relative path of plain segments (an ARTIFACTS path, a lesson folder). A state command makes a
 * dozen of these; as node:path calls they were enough for V8 to optimize normalizeString on a second
 * thread during the command (docs/performance.md, "State commands' start-up").
 */
function joinRoot(course: Course, joinable: boolean, relative: string): string {
  if (!joinable || notPlain(relative)) return path.join(course.root, relative);
  return course.root === '/' ? `/${relative}` : `${course.root}/${relative}`;
}

/**
 * The absolute path of a course file named by the code (an ARTIFACTS path, a lesson folder from
 * state.json): every read and write of a course file is made at a path from here, so a symlink
 * planted at one of them (curriculum.yaml to a file beside the course, a lesson folder to /etc) is
 * refused here, once, instead of followed by whichever reader or writer comes next.
 */
export function abs(course: Course, relative: string): string {
  const root = rootOf(course);
  const target = joinRoot(course, root.joinable, relative);
  if (!isInsideReal(realPathOf(target), root.real))
    refuse(
      `${printable(relative)} resolves outside the course (through a symbolic link); the course's files stay inside it`,
      'replace the link with the file or folder itself',
    );
  return target;
}

/** `<module-id>-<module-slug>/<lesson-id>-<lesson-slug>` */
export function lessonDirName(moduleId: string, moduleSlug: string, lessonId: string, lessonSlug: string): string {
  return `${moduleId}-${moduleSlug}/${lessonId}-${lessonSlug}`;
}

/**
 * Resolves a course-relative path from a data file and refuses anything that leaves the course,
 * including through a symlink. `field` names where the path came from.
 */
export function insideCourse(course: Course, relative: string, field: string): string {
  if (relative.includes('\0') || path.isAbsolute(relative) || relative.split(/[\\/]/).includes('..')) {
    refuse(`${field}: path "${printable(relative)}" must be relative to the course, without ".." segments`);
  }
  const target = path.resolve(course.root, relative);
  const real = realPathOf(target); // not there yet: its nearest existing parent is resolved
  if (!isInside(real, course.root))
    refuse(`${field}: path "${printable(relative)}" resolves outside the course (${real})`);
  return target;
}

/**
 * A lesson folder: inside the course (insideCourse), and a real folder: neither it nor its module
 * folder may be a symlink, even to a place inside the course. The sandbox binds the real folder
 * writable and the site publishes it whole, so a link to the course root let tests write
 * `.codelabgen/` and put `.env` in the lesson's download (docs/security.md). A missing folder passes.
 */
export function lessonFolderPath(course: Course, relative: string, field: string): string {
  const dir = insideCourse(course, relative, field);
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return dir; // not made yet: the callers say so
  }
  if (real !== path.join(realpathSync(course.root), relative)) {
    refuse(
      `${field}: ${printable(relative)} goes through a symbolic link (to ${printable(real)}); a lesson folder and its module folder must be real folders`,
      'replace the link with the folder itself',
    );
  }
  return dir;
}

/** Characters a terminal acts on instead of showing: C0 and C1 controls, DEL, line separators, bidi overrides. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The first control character of a text (`exec` it); titles refuse one. */
export const CONTROL_CHARACTER = new RegExp(CONTROL.source);
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Course data (titles, notes, reasons, test output) as one line safe to print on a terminal: every
 * control character shown escaped (`\u001b`, `\n`), the rest as it is. Every human output uses it.
 */
export function escapeControl(text: string): string {
  if (text.length <= 256 && !hasControl(text)) return text; // a short text without one: no expression compiled
  return text.replace(CONTROL, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether `text` holds a character of CONTROL, by character code. */
function hasControl(text: string): boolean {
  for (let at = 0; at < text.length; at += 1) {
    const c = text.charCodeAt(at);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) return true;
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return true;
  }
  return false;
}

/** A value safe to echo in a one-line error, inside quotes: quotes and control characters escaped, length capped. */
export function printable(value: string, max = 80): string {
  const escaped = escapeControl(JSON.stringify(value).slice(1, -1));
  return escaped.length > max ? `${escaped.slice(0, max - 3)}...` : escaped;
}
