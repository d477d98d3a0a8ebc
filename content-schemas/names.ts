// The protocol's fixed names (phases, stages, state version), without zod: the CLI's hot path
// imports these and never loads zod unless a file fails the generated validators.
export const STATE_SCHEMA_VERSION = 1;

export const TASK_ID_PATTERN = '^t[1-9][0-9]{0,9}$';

export const PHASES = [
  'init',
  'recon',
  'sources',
  'gate_sources',
  'topics',
  'curriculum',
  'gate_plan',
  'scaffold',
  'lessons',
  'assembly',
  'done',
] as const;

/** The phases whose workers are recorded as phase tasks (`state task start --phase P`). */
export const TASK_PHASES = ['recon', 'sources', 'topics', 'curriculum', 'scaffold', 'assembly'] as const;

export const STAGES = ['pending', 'spec', 'code', 'verified', 'readalong', 'notes', 'reviewed', 'done'] as const;

/** Position of a stage in protocol order (pending = 0, done = 7). */
export function stageIndex(stage: (typeof STAGES)[number]): number {
  return STAGES.indexOf(stage);
}
