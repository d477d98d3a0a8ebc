// The course's data as the site reads it: the course view (curriculum, state, config), lesson specs,
// reviews, verification, glossary, topics, sources and report, and the publish rule. Read-only;
// imported through pipeline/read/index.ts.
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type {
  Config,
  Curriculum,
  GlossaryEntry,
  LessonSpec,
  LessonState,
  Report,
  Review,
  RunResult,
  Source,
  Stage,
  State,
  Topic,
} from '../../content-schemas/index.ts';
import {
  STAGES,
  ConfigSchema,
  CurriculumSchema,
  GlossaryEntrySchema,
  LessonSpecSchema,
  ReportSchema,
  ReviewSchema,
  SourceSchema,
  TopicSchema,
  parseData,
  parseDataFile,
  parseFrontMatter,
  parseJsonlFile,
  readTextFile,
} from '../../content-schemas/index.ts';
import { isInside, realPathOf } from '../course/inside.ts';
import { loadConfig } from '../course/config.ts';
import { ARTIFACTS, courseAt, insideCourse, lessonDirName, lessonFolderPath, type Course } from '../course/course.ts';
import { codeDrift, runDrift, type CodeDrift } from '../artifacts/drift.ts';
import { refuse } from '../course/errors.ts';
import { lastRun } from '../verify/runs.ts';
import { readStateFile } from '../store/state-file.ts';

export interface SiteLesson {
  id: string;
  slug: string;
  title: string;
  summary: string;
  objectives: string[];
  module: { id: string; slug: string; title: string; summary: string; index: number };
  /** Lesson folder relative to the course root. */
  dir: string;
  /** Stage from state.json; null when the course has no state (counts as not done). */
  stage: Stage | null;
  state: LessonState | null;
}

export interface CourseView {
  course: Course;
  config: Config;
  curriculum: Curriculum;
  state: State | null;
  lessons: SiteLesson[];
}

/** Reads the course at `root`; an invalid data file throws DataFileError naming file and field. */
export function readCourse(root: string): CourseView {
  const course = courseAt(root);
  const file = courseFile(course, ARTIFACTS.curriculum);
  if (!existsSync(file))
    refuse(
      `${ARTIFACTS.curriculum} not found in ${course.root}: the site needs a curriculum`,
      'write the curriculum first (phase curriculum)',
    );
  const curriculum = parseDataFile(CurriculumSchema, file, ARTIFACTS.curriculum);
  const state = readStateFile(course);
  const lessons: SiteLesson[] = [];
  curriculum.modules.forEach((mod, index) => {
    for (const lesson of mod.lessons) {
      const lessonState = state?.lessons[lesson.id] ?? null;
      lessons.push({
        id: lesson.id,
        slug: lesson.slug,
        title: lesson.title,
        summary: lesson.summary,
        // A hand-written lesson's objectives are often in its spec only (new lesson writes one there).
        objectives:
          lesson.objectives.length > 0 ? lesson.objectives : (readLessonSpec(course, lesson.id)?.objectives ?? []),
        module: { id: mod.id, slug: mod.slug, title: mod.title, summary: mod.summary, index },
        dir: lessonState?.dir ?? lessonDirName(mod.id, mod.slug, lesson.id, lesson.slug),
        stage: lessonState?.stage ?? null,
        state: lessonState,
      });
    }
  });
  return { course, config: loadConfig(course), curriculum, state, lessons };
}

/**
 * The course before it has a curriculum (site dev from `init` on): no module, its title from
 * state.json, its config (the defaults while config.yaml does not parse). Never throws.
 */
export function emptyCourseView(root: string): CourseView {
  const course = courseAt(root);
  let state: State | null = null;
  let config: Config;
  try {
    state = readStateFile(course);
  } catch {
    // an unreadable state.json: dev-watch prints why; the page shows no state
  }
  try {
    config = loadConfig(course);
  } catch {
    config = ConfigSchema.parse({});
  }
  const curriculum: Curriculum = { title: state?.title ?? path.basename(root), summary: '', audience: '', modules: [] };
  return { course, config, curriculum, state, lessons: [] };
}

/**
 * A data file of `.codelabgen/` (every ARTIFACTS path the site reads), which must also resolve inside
 * `.codelabgen/`: a worker's symlink to elsewhere in the course (`.git/config` with the remote's
 * token, a git-ignored `.env`) would be published (a source digest is shown as written).
 */
function courseFile(course: Course, relative: string): string {
  const file = insideCourse(course, relative, relative);
  const real = realPathOf(file);
  if (!isInside(real, course.dir)) {
    refuse(
      `${relative} resolves outside ${path.basename(course.dir)}/ (to ` +
        `${path.relative(realPathOf(course.root), real).split(path.sep).join('/')}); a data file of the course ` +
        'is a file of its own',
      'replace the symbolic link with the file itself',
    );
  }
  return file;
}

/** Absolute lesson folder, refused when it resolves outside the course. */
export function lessonPath(course: Course, lesson: SiteLesson): string {
  return lessonFolderPath(course, lesson.dir, `lesson ${lesson.id} dir`);
}

/** The text of a data file of `.codelabgen/` (a gate's files to review), or null when it is not written yet. */
export function readCourseDataText(root: string, relative: string): string | null {
  const file = courseFile(courseAt(root), relative);
  return existsSync(file) ? readTextFile(file, relative) : null;
}

export function readLessonSpec(course: Course, id: string): LessonSpec | null {
  const file = courseFile(course, ARTIFACTS.lessonSpec(id));
  return existsSync(file) ? parseDataFile(LessonSpecSchema, file, ARTIFACTS.lessonSpec(id)) : null;
}

export function readReview(course: Course, id: string): { review: Review; body: string } | null {
  const rel = ARTIFACTS.lessonReview(id);
  const file = courseFile(course, rel);
  if (!existsSync(file)) return null;
  const { data, body } = parseFrontMatter(readTextFile(file, rel), rel);
  return { review: parseData(ReviewSchema, data, rel), body };
}

export interface Verification {
  run: RunResult | null;
  drift: CodeDrift | null;
  verified: LessonState['verified'];
}

/**
 * Whether a publish build shows the lesson, by the course's `site.publish` rule: `done` lessons at
 * stage done; `verified` also those whose tests passed (stage verified or later, or the last verify
 * run passed, as a hand author runs it); `all` every lesson.
 */
export function isPublished(view: CourseView, lesson: SiteLesson): boolean {
  const rule = view.config.site.publish;
  if (rule === 'all' || lesson.stage === 'done') return true;
  if (rule !== 'verified') return false;
  if (lesson.stage !== null && STAGES.indexOf(lesson.stage) >= STAGES.indexOf('verified')) return true;
  return lastRunPassed(view, lesson) === true;
}

/**
 * Whether the lesson's last recorded verify run passed on its code as it is now; null when it has
 * none. A pass of other code (edited since, or a run copied from elsewhere) is false: it vouches for
 * the code it ran on, not for this.
 */
export function lastRunPassed(view: CourseView, lesson: SiteLesson): boolean | null {
  const run = lastRun(view.course, lesson.id);
  if (run === null) return null;
  return run.passed && !runDrift(view.course, lesson, run).drifted;
}

/** Why a publish build leaves the lesson out (one line; isPublished is false for it). */
export function leftOutReason(view: CourseView, lesson: SiteLesson): string {
  const rule = view.config.site.publish;
  if (rule !== 'verified') return `at stage ${lesson.stage ?? 'none (no state)'}, not done (site.publish: ${rule})`;
  const run = lastRun(view.course, lesson.id);
  if (run === null) return 'no verify run of its tests (site.publish: verified)';
  if (run.passed)
    return `its code changed since verify run ${run.run} passed (site.publish: verified); verify it again`;
  return `tests failed in verify run ${run.run}${run.cause ? `: ${run.cause}` : ''}`;
}

/**
 * What a publish build that shows no lesson says, by the course's rule: `codelabgen site build`'s
 * refusal, or (`host`) a host site's `astro build` of the mounted course (pipeline/site/integration.ts),
 * whose way to every lesson is the integration's `drafts` option.
 */
export function nothingPublished(view: CourseView, host = false): string {
  const rule = view.config.site.publish;
  const some =
    view.lessons
      .slice(0, 5)
      .map((l) => `${l.id} (${l.stage ?? 'no state'})`)
      .join(', ') + (view.lessons.length > 5 ? ', ...' : '');
  const config = '.codelabgen/config.yaml';
  const start = host ? 'codelabgen: the mounted course has 0 lessons to publish' : 'site build: 0 lessons to publish';
  const drafts = host ? 'mount it with codelabgen({ drafts: true })' : 'build with --drafts';
  if (view.lessons.length === 0)
    return `${start}: the course has no lessons yet; add one with codelabgen new lesson, or ${drafts}`;
  if (rule === 'verified')
    return (
      `${start}: site.publish is verified and no lesson's tests have passed (${some}); ` +
      `run codelabgen verify --all, set site.publish: all in ${config}, or ${drafts}`
    );
  return (
    `${start}: site.publish is done and no lesson is at stage done (${some}); to ` +
    `publish lessons whose tests pass set site.publish: verified (or all) in ${config}, or ${drafts}`
  );
}

/**
 * Last verification run and code drift of a lesson (null parts when never verified): drift from the
 * verdict in the state when there is one, else from the code the last run ran on.
 */
export function readVerification(course: Course, lesson: SiteLesson): Verification {
  const run = lastRun(course, lesson.id);
  const verified = lesson.state?.verified ?? null;
  let drift: CodeDrift | null = null;
  if (lesson.state !== null && verified !== null) drift = codeDrift(course, lesson.state);
  else if (run !== null) drift = runDrift(course, lesson, run);
  return { run, drift, verified };
}

export function readGlossary(course: Course): GlossaryEntry[] {
  const file = courseFile(course, ARTIFACTS.glossary);
  return existsSync(file) ? parseJsonlFile(GlossaryEntrySchema, file, ARTIFACTS.glossary) : [];
}

/** Every topic of `.codelabgen/topics/*.jsonl` (what ties a lesson's topics to its sources). */
export function readTopics(course: Course): Topic[] {
  const dir = courseFile(course, '.codelabgen/topics');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => {
      const rel = ARTIFACTS.topics(name.replace(/\.jsonl$/, ''));
      const file = courseFile(course, rel);
      return lstatSync(file).isFile() ? parseJsonlFile(TopicSchema, file, rel) : [];
    });
}

export type AcceptedSource = Source & { digest: string | null };

/** Accepted sources with their digest markdown (null when not written). */
export function readSources(course: Course): AcceptedSource[] {
  const file = courseFile(course, ARTIFACTS.sources);
  if (!existsSync(file)) return [];
  return parseJsonlFile(SourceSchema, file, ARTIFACTS.sources)
    .filter((source) => source.status === 'accepted')
    .map((source) => {
      const digest = courseFile(course, ARTIFACTS.sourceDigest(source.id));
      return { ...source, digest: existsSync(digest) ? readTextFile(digest, ARTIFACTS.sourceDigest(source.id)) : null };
    });
}

export function readReport(course: Course): Report | null {
  const file = courseFile(course, ARTIFACTS.reportJson);
  return existsSync(file) ? parseDataFile(ReportSchema, file, ARTIFACTS.reportJson) : null;
}
