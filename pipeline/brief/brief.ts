// `codelabgen brief <role> [<lesson>|--phase P]` and the MCP prompts of the same roles: the brief a
// worker is started with, assembled from the course. Facts are read at the edge (facts.ts,
// phase-brief.ts); the text is rendered from them without touching the disk.
import type { Phase, Stage, State } from '../../content-schemas/index.ts';
import { printable, type Course } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { requireLesson } from '../protocol/lessons.ts';
import { readLessonFacts, type LessonFacts } from './facts.ts';
import { phaseArtifacts, readPhaseFacts, renderPhaseBrief, type PhaseFacts } from './phase-brief.ts';
import { filesToWrite, renderLessonBrief } from './render-lesson.ts';
import { briefedPhase, workerRole } from './roles.ts';
import { commandLine } from './text.ts';

export { LESSON_ROLES, PHASE_ROLES, ROLE_NAMES, BRIEFED_PHASES } from './roles.ts';
export { courseSentence } from './text.ts';

export interface BriefRequest {
  role: string;
  lesson: string | undefined;
  phase: string | undefined;
}

/** What `brief --json` prints: the text and the facts an orchestrator checks the answer against. */
export interface Brief {
  /** The course's root folder (absolute). */
  course: string;
  role: string;
  lesson: string | null;
  phase: Phase | null;
  /** The lesson's stage now, or null for a phase worker. */
  stage: Stage | null;
  /** The stage the worker's status names on success, or null for a phase worker. */
  reports: Stage | null;
  /** Course-relative files the worker writes (its status's artifacts). */
  files: string[];
  /** The lesson's test command and the folder it runs in (course-relative), or null. */
  test_command: { command: string; cwd: string } | null;
  text: string;
}

export type BriefFacts = LessonFacts | PhaseFacts;

/** Reads what the brief of `request` needs; refuses an unknown role, a lesson or phase it does not take. */
export async function readBriefFacts(
  course: Course,
  state: State,
  request: BriefRequest,
  env: NodeJS.ProcessEnv,
): Promise<BriefFacts> {
  const role = workerRole(request.role);
  if (role.kind === 'phase') {
    if (request.lesson !== undefined)
      refuse(
        `brief ${role.role}: a ${role.role} works on a phase, not a lesson ("${printable(request.lesson)}")`,
        `codelabgen brief ${role.role} --phase ${role.phase}`,
      );
    return readPhaseFacts(course, state, role, briefedPhase(role, request.phase));
  }
  if (request.phase !== undefined)
    refuse(`brief ${role.role}: a ${role.role} works on one lesson; give its id instead of --phase`);
  if (request.lesson === undefined)
    refuse(`brief ${role.role}: give the lesson id (e.g. codelabgen brief ${role.role} 1.2)`);
  return readLessonFacts(course, state, requireLesson(state, request.lesson), role, env);
}

/** The brief of `facts`, for the course at `root`. Pure. */
export function buildBrief(facts: BriefFacts, root: string): Brief {
  if (facts.kind === 'phase')
    return {
      course: root,
      role: facts.role.role,
      lesson: null,
      phase: facts.phase,
      stage: null,
      reports: null,
      files: phaseArtifacts(facts.phase),
      test_command: null,
      text: renderPhaseBrief(facts, root),
    };
  const command = facts.testCommand;
  return {
    course: root,
    role: facts.role.role,
    lesson: facts.lesson.id,
    phase: null,
    stage: facts.lesson.stage,
    reports: facts.role.reports,
    files: filesToWrite(facts),
    test_command: 'problem' in command ? null : { command: commandLine(command.argv), cwd: command.cwd },
    text: renderLessonBrief(facts, root),
  };
}
