// The artifact checks of a lesson's forward stage moves (docs/protocol.md, "Lesson stages") and
// drift: they read the course, so they run before protocol/stages.ts decides (artifacts/facts.ts).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LessonState, Stage, State } from '../../content-schemas/index.ts';
import {
  docKindsOfStage,
  LessonSpecParser,
  ReviewParser,
  parseData,
  parseDataFile,
  loadLazily,
  parseFrontMatter,
  readTextFile,
  stageIndex,
  type DocKind,
} from '../../content-schemas/fast.ts';
import { listLessonCodeFiles } from './code-hash.ts';
import { ARTIFACTS, abs, insideCourse, printable, type Course } from '../course/course.ts';
import { lintDoc, mdxNotAllowed } from '../authoring/conventions.ts';
import { loadConfig } from '../course/config.ts';
import { codeDrift } from './drift.ts';
import { refuse } from '../course/errors.ts';
import { staleReview } from '../protocol/stages.ts';
import { nonEmptyFileProblems, problemsOf } from './problems.ts';
import type * as StageDocs from '../site/stage-docs.ts';

function lessonDirProblems(course: Course, lesson: LessonState): string[] {
  return problemsOf(() => {
    const dir = insideCourse(course, lesson.dir, `lesson ${lesson.id} dir`);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) refuse(`${lesson.dir}: lesson folder missing`);
    if (listLessonCodeFiles(dir, lesson.dir).length === 0)
      refuse(`${lesson.dir}: no code files (everything but docs/ is code)`);
  });
}

function specProblems(course: Course, id: string): string[] {
  const rel = ARTIFACTS.lessonSpec(id);
  if (!existsSync(abs(course, rel))) return [`${rel}: missing`];
  return problemsOf(() => {
    const spec = parseDataFile(LessonSpecParser, abs(course, rel), rel);
    if (spec.lesson !== id) refuse(`${rel}: lesson: is "${printable(spec.lesson)}", expected "${id}"`);
  });
}

function reviewProblems(course: Course, lesson: LessonState): string[] {
  const id = lesson.id;
  const rel = ARTIFACTS.lessonReview(id);
  if (!existsSync(abs(course, rel))) return [`${rel}: missing`];
  return problemsOf(() => {
    const review = parseData(ReviewParser, parseFrontMatter(readTextFile(abs(course, rel), rel), rel).data, rel);
    if (review.lesson !== id) refuse(`${rel}: lesson: is "${printable(review.lesson)}", expected "${id}"`);
    if (review.verdict !== 'pass')
      refuse(
        `${rel}: verdict: is "${review.verdict}"; moving to reviewed needs verdict pass (rework the lesson instead)`,
      );
    const stale = staleReview(lesson, review.round, statSync(abs(course, rel)).mtimeMs);
    if (stale) refuse(`${rel}: ${stale}`);
  });
}

/** docs/<name>.md, or docs/<name>.mdx when there is no .md one (refused without site.mdx: true). */
function lessonDoc(
  course: Course,
  lesson: LessonState,
  name: string,
): { rel: string; mdx: boolean; problems: string[] } {
  const md = path.posix.join(lesson.dir, 'docs', `${name}.md`);
  const mdx = `${md}x`;
  if (existsSync(abs(course, md)) || !existsSync(abs(course, mdx)))
    return { rel: md, mdx: false, problems: nonEmptyFileProblems(course, md) };
  if (loadConfig(course).site.mdx !== true)
    return { rel: mdx, mdx: true, problems: [mdxNotAllowed(lesson.id, `docs/${name}.mdx`)] };
  return { rel: mdx, mdx: true, problems: nonEmptyFileProblems(course, mdx) };
}

// The doc checks `check` runs, for the stage's own docs (pipeline/site/stage-docs.ts): loaded only
// for a move to a stage that owns docs, so the state commands' start-up path stays without them.
let stageDocs: typeof StageDocs | undefined;
const docChecks = () => (stageDocs ??= loadLazily<typeof StageDocs>('stage-docs', '../pipeline/site/stage-docs.ts'));

/**
 * A move to a stage that owns docs (content-schemas/doc-kinds.ts): each required doc of the stage
 * exists (with a code reference where its kind needs one), then every doc of the stage passes `check`'s
 * checks. The first kind that fails answers alone.
 */
function stageDocsProblems(course: Course, state: State, lesson: LessonState, stage: Stage): string[] {
  for (const kind of docKindsOfStage(stage)) {
    const problems = requiredDocProblems(course, lesson, kind);
    if (problems.length > 0) return problems;
  }
  return docChecks().stageDocProblems(course, state, lesson, stage);
}

function requiredDocProblems(course: Course, lesson: LessonState, kind: DocKind): string[] {
  if (!kind.required) return [];
  const { rel, mdx, problems } = lessonDoc(course, lesson, kind.name);
  if (problems.length > 0 || !kind.needsCodeReference) return problems;
  const text = readTextFile(abs(course, rel), rel);
  if (mdx ? /<CodeRef\b/.test(text) : lintDoc(text).references > 0) return [];
  const example = mdx
    ? '<CodeRef file="src/x.ts" lines="10-24" />'
    : 'an empty fence like ```ts file=src/x.ts lines=10-24';
  return [
    `${rel}: no code reference; a ${kind.noun} shows the lesson's code with ${example} ` +
      `(see: codelabgen conventions ${kind.conventions})`,
  ];
}

function doneProblems(course: Course, lesson: LessonState): string[] {
  if (lesson.verified === null)
    return [`lesson ${lesson.id}: no verification recorded; move it back to code and verify again`];
  const drift = codeDrift(course, lesson);
  return drift.drifted
    ? [
        `lesson ${lesson.id}: code changed since it was verified (${drift.current_hash ?? 'code missing'}); move it back to code and verify again`,
      ]
    : [];
}

/** Problems of the artifact that a forward move to `target` needs; empty when it may move. */
export function forwardProblems(course: Course, state: State, lesson: LessonState, target: Stage): string[] {
  if (docKindsOfStage(target).length > 0) return stageDocsProblems(course, state, lesson, target);
  switch (target) {
    case 'spec':
      return specProblems(course, lesson.id);
    case 'code':
      return lessonDirProblems(course, lesson);
    case 'reviewed':
      return reviewProblems(course, lesson);
    case 'done':
      return doneProblems(course, lesson);
    default:
      return [];
  }
}

/** Lessons verified (at verified or later) whose code changed since: docs/protocol.md, "check and drift". */
export function driftedLessons(course: Course, state: State): Set<string> {
  const drifted = new Set<string>();
  for (const id of state.lesson_order) {
    const lesson = state.lessons[id];
    if (
      lesson &&
      lesson.verified &&
      stageIndex(lesson.stage) >= stageIndex('verified') &&
      codeDrift(course, lesson).drifted
    )
      drifted.add(id);
  }
  return drifted;
}
