// The worker roles a brief is written for (docs/agents.md, "Worker briefs"): the lesson roles of the
// stage table (`state stages`) and the phase workers, with what each writes and the stage it reports.
// Pure data and lookups.
import type { Phase, Stage } from '../../content-schemas/index.ts';
import { refuse } from '../course/errors.ts';
import { printable } from '../course/course.ts';
import { STAGE_TABLE } from '../protocol/stages.ts';
import { BRIEFED_PHASES as BRIEFED_PHASE_NAMES, WORKER_ROLES } from '../../content-schemas/fast.ts';

/** A worker on one lesson: it works on lessons at `stage` and reports `reports` when its work is done. */
export interface LessonRole {
  kind: 'lesson';
  role: string;
  /** The stage the lesson is at when this worker runs (its row of the stage table). */
  stage: Stage;
  /** The stage its status JSON names on success (a code-fixer reports code: verify moves the lesson on). */
  reports: Stage;
  /** What it writes, in a line (the stage table's work). */
  work: string;
}

/** A worker of a phase task (`state task start --phase P --role R`). */
export interface PhaseRole {
  kind: 'phase';
  role: string;
  /** The phase it works in by default. */
  phase: Phase;
  /** Other phases it may be briefed for (`researcher` is the generic phase worker). */
  alsoFor: readonly Phase[];
}

export type WorkerRole = LessonRole | PhaseRole;

/** The lesson roles, from the roles' registry, with their row's work. */
export const LESSON_ROLES: readonly LessonRole[] = WORKER_ROLES.flatMap((entry) => {
  if (!('stage' in entry)) return [];
  const row = STAGE_TABLE.find((candidate) => candidate.stage === entry.stage)!;
  const reports = entry.reports ?? (row.next_stage as Stage);
  return [{ kind: 'lesson', role: entry.role, stage: entry.stage, reports, work: row.work }];
});

/** The phase roles, from the roles' registry. */
export const PHASE_ROLES: readonly PhaseRole[] = WORKER_ROLES.flatMap((entry) =>
  'phase' in entry ? [{ kind: 'phase', role: entry.role, phase: entry.phase, alsoFor: entry.alsoFor ?? [] }] : [],
);

/** Phases whose workers write artifacts (scaffold and assembly are the orchestrator's own commands). */
export const BRIEFED_PHASES: readonly Phase[] = BRIEFED_PHASE_NAMES;

export const ROLE_NAMES: readonly string[] = [...LESSON_ROLES, ...PHASE_ROLES].map((entry) => entry.role);

/** The role named `name`, or a refusal listing the roles. */
export function workerRole(name: string): WorkerRole {
  const found = [...LESSON_ROLES, ...PHASE_ROLES].find((entry) => entry.role === name);
  if (found === undefined)
    refuse(
      `brief: unknown role "${printable(name)}"; roles: ${ROLE_NAMES.join(', ')}`,
      'the orchestrator runs the final checks at reviewed and the scaffold and assembly commands itself: no brief',
    );
  return found;
}

/** The phase a phase worker is briefed for: `given`, else its own; refused when it has no work there. */
export function briefedPhase(role: PhaseRole, given: string | undefined): Phase {
  if (given === undefined) return role.phase;
  if (given === role.phase || (role.alsoFor as readonly string[]).includes(given)) return given as Phase;
  if (!(BRIEFED_PHASES as readonly string[]).includes(given))
    refuse(
      `brief ${role.role} --phase ${printable(given)}: phase workers write the artifacts of ${BRIEFED_PHASES.join(', ')}`,
      'the orchestrator runs codelabgen register in scaffold, and codelabgen site build and codelabgen report in assembly',
    );
  refuse(
    `brief ${role.role} --phase ${given}: a ${role.role} works in phase ${role.phase}`,
    `for phase ${given}: codelabgen brief ${PHASE_ROLES.find((entry) => entry.phase === given)?.role ?? 'researcher'} --phase ${given}`,
  );
}
