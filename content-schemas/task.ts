// A task: the orchestrator's record of one worker run, kept in state.json under `tasks`.
import { z } from 'zod';
import { LessonIdSchema, PhaseSchema, RoleSchema, TimestampSchema } from './common.ts';
import { WorkerStatusSchema } from './worker-status.ts';

import { TASK_ID_PATTERN, TASK_PHASES } from './names.ts';

export { TASK_ID_PATTERN } from './names.ts';
export const TaskIdSchema = z
  .string()
  .regex(new RegExp(TASK_ID_PATTERN), 'expected a task id like "t12"')
  .describe('Task id, "t" and a number given by `state task start`.');

export const TaskStatusSchema = z
  .enum(['running', 'done', 'failed', 'reset'])
  .describe('running until done, failed or reset.');

export const TaskSchema = z
  .strictObject({
    id: TaskIdSchema,
    lesson: LessonIdSchema.nullable().describe('Lesson the worker works on; null for a phase task.'),
    phase: PhaseSchema.optional().describe(`Phase a phase task works for (${TASK_PHASES.join(', ')}).`),
    role: RoleSchema,
    status: TaskStatusSchema,
    started_at: TimestampSchema.describe('When the task started.'),
    finished_at: TimestampSchema.nullable().describe('When it was done, failed or reset; null while running.'),
    note: z.string().max(2000).nullable().describe('One-line note given when it ended.'),
    result: WorkerStatusSchema.nullable().describe("The worker's status JSON, when given with --result."),
    lease_expires_at: TimestampSchema.optional().describe(
      'Until when a running task counts as running; renewed by `state task heartbeat`. A running task past it (or without one) is interrupted.',
    ),
    heartbeat_at: TimestampSchema.optional().describe('Time of the last `state task heartbeat`.'),
  })
  .describe('A task: one worker run recorded by the orchestrator.');

/**
 * A task as `state task list` shows it (and `{"tasks": [...]}` of its --json): a running task whose
 * lease has expired, or that has none, reads `interrupted`, as in `state next`. state.json never stores it.
 */
export const ListedTaskSchema = TaskSchema.extend({
  status: z
    .enum(['running', 'interrupted', 'done', 'failed', 'reset'])
    .describe('As stored, except a running task whose lease expired (or that has none): interrupted.'),
}).describe('A task as `state task list` shows it.');

export const TaskListSchema = z
  .strictObject({ tasks: z.array(ListedTaskSchema).describe('Tasks in id order.') })
  .describe('`state task list --json`.');

export type Task = z.infer<typeof TaskSchema>;
export type ListedTask = z.infer<typeof ListedTaskSchema>;
export type TaskStatus = z.infer<typeof TaskStatusSchema>;
