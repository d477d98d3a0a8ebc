// What a lesson worker's brief is built from, read from the course (the I/O edge of pipeline/brief/):
// the lesson's curriculum entry and spec, its files, the test command, prerequisites, source digests,
// the last failing run and the review. render-lesson.ts turns it into text without touching the disk.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type {
  Budgets,
  CurriculumLesson,
  LessonSpec,
  LessonState,
  Review,
  Runtime,
  Source,
  State,
} from '../../content-schemas/index.ts';
import {
  CurriculumParser,
  ReviewParser,
  SourceParser,
  TopicParser,
  parseData,
  parseDataFile,
  parseFrontMatter,
  parseJsonlFile,
  readRegularFile,
  readTextFile,
} from '../../content-schemas/fast.ts';
import { listLessonCodeFiles } from '../artifacts/code-hash.ts';
import { lessonFilesChangedSince } from '../artifacts/task-files.ts';
import { checkCourse } from '../check/check.ts';
import { loadConfig } from '../course/config.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { CodelabgenError } from '../course/errors.ts';
import { getOwn } from '../state/keyed.ts';
import { failureEvidence } from '../verify/failure-cause.ts';
import { lastRun } from '../verify/runs.ts';
import { type CommandProbes, loadLessonSpec, MACHINE_PROBES, resolveTestCommand } from '../verify/runtime.ts';
import type { LessonRole } from './roles.ts';

/** A file of the lesson, relative to its folder, and how many lines it has (null: not text or too large). */
export interface LessonFile {
  path: string;
  lines: number | null;
}

export interface SourceDigest {
  id: string;
  title: string;
  url: string;
  /** Course-relative path of the digest. */
  digest: string;
  /** The digest's first characters (DIGEST_CHARS), cut at a line end; '' when it is missing. */
  excerpt: string;
  truncated: boolean;
  /** The lesson's topics drawn from this source. */
  topics: Array<{ id: string; title: string; summary: string }>;
}

export interface FailedRun {
  run: number;
  argv: string[];
  cause: string | null;
  /** The first failing test with its expected and actual values (verify's failure evidence), or null. */
  evidence: string | null;
  tests: { passed: number; failed: number; total: number } | null;
  timedOut: boolean;
  /** Course-relative path of the run file (its whole output tail). */
  file: string;
}

export interface ReviewFacts {
  review: Review | null;
  /** Why review.md could not be read, or null. */
  problem: string | null;
  /** When it was last written (ISO). */
  writtenAt: string;
}

export interface LessonFacts {
  kind: 'lesson';
  role: LessonRole;
  courseTitle: string;
  lesson: LessonState;
  curriculum: CurriculumLesson | null;
  spec: LessonSpec | null;
  /** Why spec.yaml could not be read (it exists but is invalid), or null. */
  specProblem: string | null;
  runtime: Runtime;
  /** The command verify runs in the lesson's folder, or why it cannot be told yet. */
  testCommand: { argv: string[]; cwd: string } | { problem: string };
  /** The lesson's files (docs/ apart), relative to its folder. */
  codeFiles: LessonFile[];
  docFiles: LessonFile[];
  prerequisites: Array<{ id: string; title: string; summary: string; dir: string | null }>;
  sources: SourceDigest[];
  budgets: Budgets;
  /** The last verify run of the lesson when it failed, or null. */
  failedRun: FailedRun | null;
  review: ReviewFacts | null;
  /** Lesson files written since review.md (course-relative), when there is one. */
  changedSinceReview: string[];
  /** `check`'s sections with this lesson's problems and warnings (for the reviewer), else null. */
  checks: Array<{ name: string; problems: string[]; warnings: string[] }> | null;
  /** The running task on the lesson, or null. */
  task: string | null;
}

/** Characters of a source digest a brief quotes (the worker reads the rest in the file). */
export const DIGEST_CHARS = 1200;
/** Source digests a brief quotes at most. */
export const MAX_DIGESTS = 3;
/** Lesson files a brief lists at most. */
const MAX_FILES = 40;

export async function readLessonFacts(
  course: Course,
  state: State,
  lesson: LessonState,
  role: LessonRole,
  env: NodeJS.ProcessEnv,
): Promise<LessonFacts> {
  const config = loadConfig(course);
  const curriculum = readCurriculumLessons(course);
  const entry = curriculum.get(lesson.id) ?? null;
  const { spec, problem: specProblem } = readSpec(course, lesson.id);
  const folder = abs(course, lesson.dir);
  const files = existsSync(folder) ? listLessonCodeFiles(folder, lesson.dir).slice(0, MAX_FILES) : [];
  const review = readReview(course, lesson.id);
  return {
    kind: 'lesson',
    role,
    courseTitle: state.title,
    lesson,
    curriculum: entry,
    spec,
    specProblem,
    runtime: spec?.runtime ?? config.runtime,
    testCommand: await testCommandOf(course, lesson, folder, env),
    codeFiles: files.map((file) => ({ path: file, lines: lineCount(path.join(folder, file)) })),
    docFiles: docFilesOf(folder),
    prerequisites: (entry?.prerequisites ?? []).map((id) => {
      const known = getOwn(state.lessons, id);
      return {
        id,
        title: known?.title ?? curriculum.get(id)?.title ?? id,
        summary: curriculum.get(id)?.summary ?? '',
        dir: known?.dir ?? null,
      };
    }),
    sources: readDigests(course, entry?.topics ?? []),
    budgets: config.budgets,
    failedRun: readFailedRun(course, lesson.id),
    review,
    changedSinceReview:
      review === null
        ? []
        : lessonFilesChangedSince(course, lesson, review.writtenAt).filter(
            (file) => file !== ARTIFACTS.lessonReview(lesson.id),
          ),
    checks: role.role === 'lesson-reviewer' ? await lessonChecks(course, lesson) : null,
    task: Object.values(state.tasks).find((task) => task.lesson === lesson.id && task.status === 'running')?.id ?? null,
  };
}

function readCurriculumLessons(course: Course): Map<string, CurriculumLesson> {
  const file = abs(course, ARTIFACTS.curriculum);
  if (!existsSync(file)) return new Map();
  try {
    const curriculum = parseDataFile(CurriculumParser, file, ARTIFACTS.curriculum);
    return new Map(curriculum.modules.flatMap((module) => module.lessons.map((entry) => [entry.id, entry] as const)));
  } catch {
    return new Map(); // an invalid curriculum is the phase checks' problem; the brief goes without its entry
  }
}

function readSpec(course: Course, id: string): { spec: LessonSpec | null; problem: string | null } {
  try {
    return { spec: loadLessonSpec(course, id), problem: null };
  } catch (error) {
    if (!(error instanceof CodelabgenError)) throw error;
    return { spec: null, problem: error.message };
  }
}

/** A brief names the command verify runs; it runs nothing to find it (pytest is taken as importable). */
const BRIEF_PROBES: CommandProbes = { ...MACHINE_PROBES, hasPytest: async () => true };

async function testCommandOf(
  course: Course,
  lesson: LessonState,
  folder: string,
  env: NodeJS.ProcessEnv,
): Promise<LessonFacts['testCommand']> {
  try {
    const command = await resolveTestCommand(course, lesson, folder, loadConfig(course), env, BRIEF_PROBES);
    return { argv: command.argv, cwd: path.relative(course.root, command.cwd) || '.' };
  } catch (error) {
    if (!(error instanceof CodelabgenError)) throw error;
    return { problem: error.message };
  }
}

/** Lines of a regular text file under 1 MiB, else null (a symlink is never followed: it may point out of the course). */
function lineCount(file: string): number | null {
  try {
    const text = readRegularFile(file, 1024 * 1024, { noFollow: true }).toString('utf8');
    if (text.includes('\u0000')) return null;
    return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  } catch {
    return null; // unreadable (a symlink out, a race with a writer): listed without a count
  }
}

function docFilesOf(folder: string): LessonFile[] {
  const docs = path.join(folder, 'docs');
  if (!existsSync(docs)) return [];
  return listLessonCodeFilesUnder(docs).map((file) => ({
    path: `docs/${file}`,
    lines: lineCount(path.join(docs, file)),
  }));
}

/** Files under a docs folder (the code walk skips docs/, so walk it on its own). */
function listLessonCodeFilesUnder(folder: string): string[] {
  return listLessonCodeFiles(folder, folder).slice(0, MAX_FILES);
}

function readDigests(course: Course, topicIds: readonly string[]): SourceDigest[] {
  if (topicIds.length === 0 || !existsSync(abs(course, ARTIFACTS.sources))) return [];
  let sources: Source[];
  try {
    sources = parseJsonlFile(SourceParser, abs(course, ARTIFACTS.sources), ARTIFACTS.sources);
  } catch {
    return []; // an invalid sources.jsonl is the sources phase's problem
  }
  const wanted = new Set(topicIds);
  const digests: SourceDigest[] = [];
  for (const source of sources.filter((candidate) => candidate.status === 'accepted')) {
    const topics = readTopics(course, source.id).filter((topic) => wanted.has(topic.id));
    if (topics.length === 0) continue;
    const digest = ARTIFACTS.sourceDigest(source.id);
    const text = existsSync(abs(course, digest)) ? readTextFile(abs(course, digest), digest) : '';
    const cut = text.length > DIGEST_CHARS ? text.lastIndexOf('\n', DIGEST_CHARS) : text.length;
    digests.push({
      id: source.id,
      title: source.title,
      url: source.url,
      digest,
      excerpt: text.slice(0, cut > 0 ? cut : DIGEST_CHARS).trimEnd(),
      truncated: text.length > DIGEST_CHARS,
      topics: topics.map(({ id, title, summary }) => ({ id, title, summary })),
    });
    if (digests.length === MAX_DIGESTS) break;
  }
  return digests;
}

function readTopics(course: Course, sourceId: string) {
  const file = ARTIFACTS.topics(sourceId);
  if (!existsSync(abs(course, file))) return [];
  try {
    return parseJsonlFile(TopicParser, abs(course, file), file);
  } catch {
    return []; // an invalid topics file is the topics phase's problem
  }
}

function readFailedRun(course: Course, id: string): FailedRun | null {
  const run = lastRun(course, id);
  if (run === null || run.passed) return null;
  return {
    run: run.run,
    argv: run.argv,
    cause: run.cause,
    evidence: failureEvidence(run.output_tail),
    tests: run.tests && { passed: run.tests.passed, failed: run.tests.failed, total: run.tests.total },
    timedOut: run.timed_out,
    file: `${ARTIFACTS.runsDir(id)}/${run.run}.json`,
  };
}

function readReview(course: Course, id: string): ReviewFacts | null {
  const rel = ARTIFACTS.lessonReview(id);
  const file = abs(course, rel);
  if (!existsSync(file)) return null;
  const writtenAt = statSync(file).mtime.toISOString();
  try {
    return {
      review: parseData(ReviewParser, parseFrontMatter(readTextFile(file, rel), rel).data, rel),
      problem: null,
      writtenAt,
    };
  } catch (error) {
    if (!(error instanceof CodelabgenError)) throw error;
    return { review: null, problem: error.message, writtenAt };
  }
}

/** `check`'s sections, each with the problems and warnings that name this lesson. */
async function lessonChecks(course: Course, lesson: LessonState): Promise<LessonFacts['checks']> {
  const report = await checkCourse(course, 'codelabgen brief');
  const mine = (line: string) => line.includes(`lesson ${lesson.id}`) || line.includes(lesson.dir);
  return report.checks.map((section) => ({
    name: section.name,
    problems: section.problems.filter(mine),
    warnings: (section.warnings ?? []).filter(mine),
  }));
}
