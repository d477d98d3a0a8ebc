// `codelabgen check`: the course checks, each a named section with its problems. Read-only.
// Other modules add checks to CHECKS (drift, artifacts, code references). A section's warnings
// are shown but never fail the check.
import type { State } from '../../content-schemas/index.ts';
import type { CheckSection } from './section.ts';
import type { Course } from '../course/course.ts';
import { RefusalError } from '../course/errors.ts';
import {
  dependenciesOutsideRepository,
  outsideDependencyFix,
  outsideDependencyProblem,
} from '../course/outside-dependencies.ts';
import { checkConventions } from './conventions-check.ts';
import { downloadNameWarnings } from '../artifacts/download-names.ts';
import { driftedLessons } from '../artifacts/lesson-artifacts.ts';
import { readPrerequisites } from '../artifacts/prerequisites.ts';
import { changedPrerequisites } from '../protocol/prerequisites.ts';
import { checkLessonDocs } from '../site/check-refs.ts';
import { checkReplay, loadState } from '../store/index.ts';

export type { CheckSection } from './section.ts';

export interface CheckReport {
  ok: boolean;
  problems: number;
  warnings: number;
  checks: CheckSection[];
  /** What recovery did while loading the state (a torn line moved aside, events replayed). */
  notices: string[];
}

/** A check; `state` is null when state.json could not be loaded (the replay check says why). */
export type CourseCheck = (
  course: Course,
  state: State | null,
) => CheckSection | CheckSection[] | Promise<CheckSection | CheckSection[]>;

export const CHECKS: CourseCheck[] = [
  (course) => {
    const replay = checkReplay(course);
    return { name: 'event log replays to state.json', detail: `${replay.events} events`, problems: replay.problems };
  },
  (course, state) => ({
    name: 'verified code unchanged (drift)',
    problems: state
      ? [...driftedLessons(course, state)].map(
          (id) => `lesson ${id}: code changed since it was verified; move it back to code and verify again`,
        )
      : [],
  }),
  checkLessonDocs,
  checkConventions,
  (course) => ({
    name: "dependencies a fresh clone can install (the deploy workflow's npm ci)",
    problems: dependenciesOutsideRepository(course.root).map(
      (dep) => `${outsideDependencyProblem(dep, course.root)}; ${outsideDependencyFix(dep)}`,
    ),
  }),
  (course, state) => ({
    name: 'done lessons whose prerequisites changed',
    problems: [],
    warnings: state
      ? changedPrerequisites(state, readPrerequisites(course), driftedLessons(course, state)).map(
          (flag) => `${flag.message}; ${flag.fix}`,
        )
      : [],
  }),
  (course, state) => ({
    name: 'lesson downloads: file names safe on every system',
    problems: [],
    warnings: state ? downloadNameWarnings(course, state) : [],
  }),
];

/** Checks that start work in another process: run before the others (reported in CHECKS order). */
export const STARTED_FIRST = new Set<CourseCheck>([checkLessonDocs]);

export async function checkCourse(course: Course, command: string): Promise<CheckReport> {
  let state: State | null = null;
  const checks: CheckSection[] = [];
  let notices: string[] = [];
  try {
    ({ state, notices } = await loadState(course, command));
  } catch (error) {
    if (!(error instanceof RefusalError)) throw error;
    checks.push({ name: 'state loads', problems: [error.message] });
  }
  // Every check is started, then awaited in CHECKS order. A check that returns a promise (the diagram
  // parse in its child process, pipeline/site/check-refs.ts) goes on while the later checks run; the
  // ones in STARTED_FIRST start before the others, so that more of `check` runs beside them.
  const first = (index: number) => (STARTED_FIRST.has(CHECKS[index]!) ? 0 : 1);
  const order = CHECKS.map((_, index) => index).sort((a, b) => first(a) - first(b) || a - b);
  const started: Array<ReturnType<CourseCheck>> = [];
  try {
    for (const index of order) {
      const section = CHECKS[index]!(course, state);
      if (section instanceof Promise) section.catch(() => {}); // awaited below, in its turn
      started[index] = section;
    }
  } catch (error) {
    await Promise.allSettled(started);
    throw error;
  }
  for (const section of started) checks.push(...[await section].flat());
  const problems = checks.reduce((sum, section) => sum + section.problems.length, 0);
  const warnings = checks.reduce((sum, section) => sum + (section.warnings?.length ?? 0), 0);
  return { ok: problems === 0, problems, warnings, checks, notices };
}
