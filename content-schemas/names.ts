// The protocol's fixed names (the registries of the phases and of the worker roles, the stages, the
// state version), without zod: the CLI's hot path imports these and never loads zod unless a file
// fails the generated validators. docs/architecture.md, "Registries".
export const STATE_SCHEMA_VERSION = 1;

export const TASK_ID_PATTERN = '^t[1-9][0-9]{0,9}$';

/**
 * The registry of the phases (docs/protocol.md, "Phases"), in protocol order: leaving a `gate` needs
 * the user's approval (`state phase <next> --approved`); a phase with `tasks` has workers recorded as
 * phase tasks (`state task start --phase P`). Everything that lists phases reads them from here.
 */
export const PHASE_REGISTRY = [
  { name: 'init' },
  { name: 'recon', tasks: true },
  { name: 'sources', tasks: true },
  { name: 'gate_sources', gate: true },
  { name: 'topics', tasks: true },
  { name: 'curriculum', tasks: true },
  { name: 'gate_plan', gate: true },
  { name: 'scaffold', tasks: true },
  { name: 'lessons' },
  { name: 'assembly', tasks: true },
  { name: 'done' },
] as const satisfies readonly { name: string; gate?: true; tasks?: true }[];

type PhaseName = (typeof PHASE_REGISTRY)[number]['name'];
type NonEmpty<T> = readonly [T, ...T[]];

function phasesWhere(keep: (phase: { name: string; gate?: true; tasks?: true }) => boolean): NonEmpty<PhaseName> {
  const phases: readonly { name: PhaseName; gate?: true; tasks?: true }[] = PHASE_REGISTRY;
  return phases.filter(keep).map((phase) => phase.name) as unknown as NonEmpty<PhaseName>;
}

/** The phases' names, in protocol order. */
export const PHASES: NonEmpty<PhaseName> = phasesWhere(() => true);

/** The phases whose workers are recorded as phase tasks (`state task start --phase P`). */
export const TASK_PHASES: NonEmpty<PhaseName> = phasesWhere((phase) => phase.tasks === true);

/** The gates: leaving one needs the user's approval. */
export const GATE_PHASES: NonEmpty<PhaseName> = phasesWhere((phase) => phase.gate === true);

export const STAGES = ['pending', 'spec', 'code', 'verified', 'readalong', 'notes', 'reviewed', 'done'] as const;

/**
 * The registry of the worker roles (docs/agents.md, "Worker briefs"): a lesson role works on a lesson
 * at `stage` (its row of the stage table, `state stages`) and reports `reports` when its work is done
 * (the next stage unless given); a phase role works on a phase task of `phase` and may be briefed for
 * the phases of `alsoFor`. The orchestrator is no worker: it runs the final checks and the scaffold and
 * assembly commands itself.
 */
export const WORKER_ROLES: readonly WorkerRoleEntry[] = [
  { role: 'example-designer', stage: 'pending' },
  { role: 'code-author', stage: 'spec' },
  { role: 'code-fixer', stage: 'code', reports: 'code' },
  { role: 'readalong-writer', stage: 'verified' },
  { role: 'notes-writer', stage: 'readalong' },
  { role: 'lesson-reviewer', stage: 'notes' },
  { role: 'researcher', phase: 'recon', alsoFor: ['sources', 'topics', 'curriculum'] },
  { role: 'source-finder', phase: 'sources' },
  { role: 'topic-extractor', phase: 'topics' },
  { role: 'curriculum-designer', phase: 'curriculum' },
];

export type WorkerRoleEntry =
  | { role: string; stage: (typeof STAGES)[number]; reports?: (typeof STAGES)[number] }
  | { role: string; phase: PhaseName; alsoFor?: readonly PhaseName[] };

/** The phases whose workers write artifacts and get a brief: the phase roles' own, in protocol order. */
export const BRIEFED_PHASES: readonly PhaseName[] = PHASES.filter((phase) =>
  WORKER_ROLES.some((entry) => 'phase' in entry && entry.phase === phase),
);

/** Position of a stage in protocol order (pending = 0, done = 7). */
export function stageIndex(stage: (typeof STAGES)[number]): number {
  return STAGES.indexOf(stage);
}
