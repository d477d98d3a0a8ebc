// The JSON block a worker agent ends its answer with (docs/protocol.md, "What a worker returns"):
// a lesson worker names its lesson and stage, a phase worker (recon, sources, ...) its phase.
import { z } from 'zod';
import { LessonIdSchema, RelPathSchema, StageSchema } from './common.ts';
import { TASK_PHASES } from './names.ts';

const status = z
  .enum(['ok', 'failed', 'needs-user'])
  .describe('ok: done; failed: could not finish (say why in notes); needs-user: a decision only the user can make.');
const artifacts = z.array(RelPathSchema).max(500).default([]).describe('Files written, relative to the course root.');
const notes = z.string().max(2000).optional().describe('One line, optional.');
const tokens = (what: string) => z.int().min(0).max(1e12).optional().describe(what);

/** What the worker's run cost, as its model host reported it (docs/protocol.md, "What a worker returns"). */
export const WorkerUsageSchema = z
  .strictObject({
    model: z.string().min(1).max(200).optional().describe('The model that did the work, e.g. "claude-sonnet-4".'),
    input_tokens: tokens('Input tokens billed at the full rate (cache reads and writes not included).'),
    output_tokens: tokens('Output tokens.'),
    cache_read_tokens: tokens('Input tokens read from the prompt cache.'),
    cache_write_tokens: tokens('Input tokens written to the prompt cache.'),
    cost_usd: z.number().min(0).max(1e6).optional().describe('What the run cost, in US dollars.'),
    seconds: z.number().min(0).max(1e7).optional().describe('Wall-clock seconds the worker ran.'),
  })
  .describe("What a worker's run used (every field optional); recorded with its task and summed in the report.");
const usage = WorkerUsageSchema.optional();

export const LessonWorkerStatusSchema = z
  .strictObject({
    lesson: LessonIdSchema.describe('Lesson the work was for.'),
    status,
    stage: StageSchema.describe('The stage the work completes; the orchestrator decides whether to record it.'),
    artifacts,
    notes,
    usage,
  })
  .describe('What a lesson worker returns.');

export const PhaseWorkerStatusSchema = z
  .strictObject({
    phase: z.enum(TASK_PHASES).describe("Phase the work was for (a phase task's phase)."),
    status,
    artifacts,
    notes,
    usage,
  })
  .describe(`What a phase worker (${TASK_PHASES.join(', ')}) returns.`);

export const WorkerStatusSchema = z
  .union([LessonWorkerStatusSchema, PhaseWorkerStatusSchema])
  .describe(
    'What a worker returns: the last JSON block of its answer; a lesson worker names `lesson` and `stage`, a phase worker `phase`.',
  );

export type WorkerStatus = z.infer<typeof WorkerStatusSchema>;
export type LessonWorkerStatus = z.infer<typeof LessonWorkerStatusSchema>;
export type PhaseWorkerStatus = z.infer<typeof PhaseWorkerStatusSchema>;
export type WorkerUsage = z.infer<typeof WorkerUsageSchema>;
