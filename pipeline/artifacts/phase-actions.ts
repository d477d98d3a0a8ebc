// Each phase's required actions checked against the course (docs/protocol.md, "Phases"): what
// `state next` lists and the facts `state phase` decides on.
import { existsSync, statSync } from 'node:fs';
import type { Curriculum, Phase, Source, State } from '../../content-schemas/index.ts';
import { checkCurriculum } from './curriculum.ts';
import {
  CurriculumParser,
  DataFileError,
  SourceParser,
  TopicParser,
  parseDataFile,
  parseJsonlFile,
} from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, insideCourse, printable, type Course } from '../course/course.ts';
import { codeDrift } from './drift.ts';
import type { PhaseAction } from '../protocol/phases.ts';
import { nonEmptyFileProblems, problemsOf } from './problems.ts';

function action(id: string, description: string, path: string | null, problems: string[]): PhaseAction {
  return { id, description, path, done: problems.length === 0, problems };
}

function acceptedSources(course: Course): { sources: Source[]; problems: string[] } {
  if (!existsSync(abs(course, ARTIFACTS.sources))) return { sources: [], problems: [`${ARTIFACTS.sources}: missing`] };
  let sources: Source[] = [];
  const problems = problemsOf(() => {
    sources = parseJsonlFile(SourceParser, abs(course, ARTIFACTS.sources), ARTIFACTS.sources).filter(
      (source) => source.status === 'accepted',
    );
  });
  if (problems.length === 0 && sources.length === 0)
    problems.push(`${ARTIFACTS.sources}: no source has status "accepted"`);
  return { sources, problems };
}

function sourcesActions(course: Course): PhaseAction[] {
  const { sources, problems } = acceptedSources(course);
  const digests = sources.flatMap((source) => nonEmptyFileProblems(course, ARTIFACTS.sourceDigest(source.id)));
  return [
    action('sources.accepted', 'at least one accepted, valid source in sources.jsonl', ARTIFACTS.sources, problems),
    action(
      'sources.digests',
      'a digest .codelabgen/sources/<id>.md for each accepted source',
      `${ARTIFACTS.sources.replace('.jsonl', '')}/`,
      problems.length > 0 ? ['needs a valid sources.jsonl first'] : digests,
    ),
  ];
}

function topicsActions(course: Course): PhaseAction[] {
  const { sources, problems } = acceptedSources(course);
  const topicProblems = sources.flatMap((source) => {
    const rel = ARTIFACTS.topics(source.id);
    if (!existsSync(abs(course, rel))) return [`${rel}: missing`];
    return problemsOf(() => {
      if (parseJsonlFile(TopicParser, abs(course, rel), rel).length === 0) throw new DataFileError(rel, ['no topics']);
    });
  });
  return [
    action(
      'topics.files',
      'a valid topics file .codelabgen/topics/<source-id>.jsonl for each accepted source',
      '.codelabgen/topics/',
      problems.length > 0 ? problems : topicProblems,
    ),
  ];
}

/** curriculum.yaml valid against its schema, then checked as `register` checks it (ids, prerequisites, folders). */
function curriculumProblems(course: Course): string[] {
  if (!existsSync(abs(course, ARTIFACTS.curriculum))) return [`${ARTIFACTS.curriculum}: missing`];
  let curriculum: Curriculum | undefined;
  const parse = problemsOf(() => {
    curriculum = parseDataFile(CurriculumParser, abs(course, ARTIFACTS.curriculum), ARTIFACTS.curriculum);
  });
  return curriculum === undefined ? parse : checkCurriculum(course, curriculum).problems;
}

function curriculumActions(course: Course): PhaseAction[] {
  const curriculum = curriculumProblems(course);
  return [
    action('curriculum.yaml', 'a valid curriculum.yaml', ARTIFACTS.curriculum, curriculum),
    action('curriculum.plan', 'plan.md written', ARTIFACTS.plan, nonEmptyFileProblems(course, ARTIFACTS.plan)),
  ];
}

function scaffoldActions(course: Course, state: State): PhaseAction[] {
  const problems: string[] = [];
  if (!existsSync(abs(course, ARTIFACTS.curriculum))) problems.push(`${ARTIFACTS.curriculum}: missing`);
  else {
    problems.push(
      ...problemsOf(() => {
        const curriculum = parseDataFile(CurriculumParser, abs(course, ARTIFACTS.curriculum), ARTIFACTS.curriculum);
        for (const lesson of curriculum.modules.flatMap((module) => module.lessons)) {
          if (!state.lesson_order.includes(lesson.id))
            problems.push(`lesson ${lesson.id}: in the curriculum but not registered (run: codelabgen register)`);
        }
      }),
    );
  }
  for (const id of state.lesson_order) {
    const lesson = state.lessons[id];
    if (lesson && !isDir(course, lesson.dir))
      problems.push(`lesson ${id}: folder ${lesson.dir} missing (run: codelabgen register)`);
  }
  if (state.lesson_order.length === 0 && problems.length === 0)
    problems.push('no lessons registered (run: codelabgen register)');
  return [
    action(
      'scaffold.registered',
      'every curriculum lesson registered and its folder created',
      ARTIFACTS.curriculum,
      problems,
    ),
  ];
}

function isDir(course: Course, rel: string): boolean {
  try {
    return statSync(insideCourse(course, rel, 'lesson dir')).isDirectory();
  } catch {
    return false; // missing or outside the course
  }
}

/** Why the lessons phase is not finished: lessons not done, stale, or drifted. */
export function lessonsDoneProblems(course: Course, state: State): string[] {
  const problems: string[] = [];
  for (const id of state.lesson_order) {
    const lesson = state.lessons[id];
    if (!lesson) continue;
    if (lesson.stage !== 'done')
      problems.push(`lesson ${id}: at ${lesson.stage}, not done${lesson.blocked ? ' (blocked)' : ''}`);
    else if (lesson.stale)
      problems.push(
        `lesson ${id}: stale (${printable(lesson.stale.reason, 100)}); move it back with: codelabgen state set ${id} <stage> --note "..."`,
      );
    else if (codeDrift(course, lesson).drifted)
      problems.push(`lesson ${id}: code changed since it was verified; move it back to code and verify again`);
  }
  if (state.lesson_order.length === 0) problems.push('no lessons registered');
  return problems;
}

function assemblyActions(course: Course, state: State): PhaseAction[] {
  return [
    action(
      'assembly.site_build',
      'a successful site build recorded (codelabgen site build)',
      null,
      state.last_site_build ? [] : ['no successful site build recorded yet'],
    ),
    action(
      'assembly.report',
      'report.md written (codelabgen report, after the site build; state phase done refreshes it)',
      ARTIFACTS.reportMd,
      nonEmptyFileProblems(course, ARTIFACTS.reportMd),
    ),
  ];
}

/** The required actions of `phase`, each checked against the course now. */
export function phaseActions(course: Course, state: State, phase: Phase = state.phase): PhaseAction[] {
  switch (phase) {
    case 'recon':
      return [
        action(
          'recon.overview',
          'research overview written',
          ARTIFACTS.overview,
          nonEmptyFileProblems(course, ARTIFACTS.overview),
        ),
      ];
    case 'sources':
      return sourcesActions(course);
    case 'topics':
      return topicsActions(course);
    case 'curriculum':
      return curriculumActions(course);
    case 'scaffold':
      return scaffoldActions(course, state);
    case 'lessons':
      return [
        action('lessons.done', 'every lesson done, none stale, none drifted', null, lessonsDoneProblems(course, state)),
      ];
    case 'assembly':
      return assemblyActions(course, state);
    default:
      return []; // init, gates and done have no artifacts to check
  }
}
