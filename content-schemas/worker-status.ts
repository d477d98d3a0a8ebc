// The JSON block a worker agent ends its answer with (docs/protocol.md, "What a worker returns").
import { z } from 'zod';
import { LessonIdSchema, RelPathSchema, StageSchema } from './common.ts';

export const WorkerStatusSchema = z
  .strictObject({
    lesson: LessonIdSchema.describe('Lesson the work was for.'),
    status: z.enum(['ok', 'failed', 'needs-user']).describe('ok: done; failed: could not finish (say why in notes); needs-user: a decision only the user can make.'),
    stage: StageSchema.describe('The stage the work completes; the orchestrator decides whether to record it.'),
    artifacts: z.array(RelPathSchema).max(500).default([]).describe('Files written, relative to the course root.'),
    notes: z.string().max(2000).optional().describe('One line, optional.'),
  })
  .describe('What a worker returns: the last JSON block of its answer.');

export type WorkerStatus = z.infer<typeof WorkerStatusSchema>;
