// `.codelabgen/state.json`: the materialized view of the event log (events.jsonl is the truth).
import { z } from 'zod';
import {
  LessonIdSchema,
  ModuleIdSchema,
  PhaseSchema,
  RelPathSchema,
  SlugSchema,
  StageSchema,
  TimestampSchema,
} from './common.ts';
import { STATE_SCHEMA_VERSION } from './names.ts';
import { TaskSchema } from './task.ts';

export { STATE_SCHEMA_VERSION } from './names.ts';

export const LessonStateSchema = z
  .strictObject({
    id: LessonIdSchema,
    title: z.string().max(300).describe('Lesson title from the curriculum.'),
    slug: SlugSchema,
    module_id: ModuleIdSchema.describe("Id of the lesson's module."),
    module_slug: SlugSchema.describe("Slug of the lesson's module."),
    module_title: z.string().max(300).describe("Title of the lesson's module."),
    dir: RelPathSchema.describe('Lesson folder: `<module-id>-<module-slug>/<lesson-id>-<lesson-slug>`.'),
    stage: StageSchema,
    blocked: z
      .strictObject({
        reason: z.string().max(2000).describe('Why the lesson is blocked.'),
        by: z.enum(['user', 'fix-budget']).describe('`user`: `state block`; `fix-budget`: fix attempts used up.'),
        at: TimestampSchema,
      })
      .nullable()
      .describe('Set while the lesson is blocked; it refuses set and fail until unblocked.'),
    stale: z
      .strictObject({ reason: z.string().max(2000).describe('What changed upstream.'), at: TimestampSchema })
      .nullable()
      .describe('Set on a done lesson whose upstream changed; cleared by moving it back.'),
    fix_attempts_used: z.int().min(0).describe('Failed verifications since the last fresh fix budget.'),
    fix_budget_resets: z.int().min(0).describe('Times `unblock` gave a fresh fix budget.'),
    review_rounds_used: z.int().min(0).describe('Moves back from notes or reviewed.'),
    review_rounds_granted: z
      .int()
      .min(0)
      .optional()
      .describe(
        'Extra review rounds the user granted (`state unblock --review-round`), on top of budgets.review_rounds.',
      ),
    rework: z
      .strictObject({
        from: StageSchema.describe('Stage the lesson was moved back from.'),
        to: StageSchema.describe('Stage it was moved back to.'),
        note: z.string().max(100_000).describe('Why (the --note of the move back).'),
        at: TimestampSchema,
      })
      .nullable()
      .optional()
      .describe(
        "The last move back; `state next` shows it on the lesson's work item until the lesson is at `from` again.",
      ),
    verified: z
      .strictObject({
        code_hash: z.string().describe('Hash of the lesson code that passed.'),
        at: TimestampSchema,
        run: z.int().min(1).nullable().describe('Run number of the passing run-result.'),
      })
      .nullable()
      .describe('The last passing verification while the lesson is at `verified` or later.'),
    last_failure: z.string().max(2000).nullable().describe('One-line cause of the last failed verification.'),
    last_verify_failure: z
      .strictObject({
        run: z.int().min(1).nullable().describe('Run number of the failing run-result.'),
        code_hash: z.string().describe('Hash of the code that failed.'),
        note: z
          .string()
          .max(2000)
          .optional()
          .describe(
            "The orchestrator's note on this failure (`state fail --note` after the verify), the last one given.",
          ),
      })
      .nullable()
      .optional()
      .describe(
        'The failure `verify --update-state` counted last, until a pass or a `state fail`; `state fail` of the same code is refused.',
      ),
    done_at: TimestampSchema.optional().describe('When the lesson last reached `done`.'),
    updated_at: TimestampSchema.describe('Time of the last event that changed the lesson.'),
  })
  .describe("One lesson's progress.");

export const StateSchema = z
  .strictObject({
    schema_version: z.literal(STATE_SCHEMA_VERSION).describe('Version of the state format; a newer one is refused.'),
    title: z.string().min(1).max(200).describe('Course title given to `init`.'),
    topic: z.string().max(500).nullable().describe('Course topic given to `init`.'),
    created_at: TimestampSchema,
    phase: PhaseSchema.describe('Current phase.'),
    phase_history: z
      .array(
        z.strictObject({
          phase: PhaseSchema,
          entered_at: TimestampSchema,
          seq: z.int().min(1).describe('Seq of the event that entered it.'),
        }),
      )
      .describe('Every phase entered, in order.'),
    last_seq: z.int().min(0).describe('Seq of the last event applied.'),
    log_bytes: z
      .int()
      .min(0)
      .describe(
        'Size of events.jsonl in bytes after the last applied event; any other size makes the next command scan and check the whole log.',
      ),
    lesson_order: z.array(LessonIdSchema).describe('Lesson ids in curriculum order.'),
    lessons: z.record(LessonIdSchema, LessonStateSchema).describe('Lessons by id.'),
    tasks: z.record(z.string(), TaskSchema).describe('Tasks by id.'),
    task_counter: z.int().min(0).describe('Number of the last task started.'),
    last_site_build: z
      .strictObject({
        at: TimestampSchema,
        seq: z.int().min(1),
        out: z.string().max(1024).describe('Output folder of the build.'),
        pages: z.int().min(0).describe('Pages written.'),
        lessons: z.array(LessonIdSchema).describe('Lessons published.'),
      })
      .nullable()
      .describe('The last successful publish build.'),
  })
  .describe('Course state: `.codelabgen/state.json`, the materialized view of events.jsonl.');

export type State = z.infer<typeof StateSchema>;
export type LessonState = z.infer<typeof LessonStateSchema>;
