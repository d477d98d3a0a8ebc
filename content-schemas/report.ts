// `.codelabgen/report.json`: the course generation report computed from the event log by
// `codelabgen report` (report.md is its markdown rendering); the site renders this file.
import { z } from 'zod';
import { LessonIdSchema, ModuleIdSchema, PhaseSchema, RoleSchema, StageSchema, TimestampSchema } from './common.ts';
import { TestCountsSchema } from './run-result.ts';

const durationMs = z.number().min(0).nullable();

export const ReportPhaseSchema = z
  .strictObject({
    phase: PhaseSchema,
    started_at: TimestampSchema.describe('When the phase was entered.'),
    ended_at: TimestampSchema.nullable().describe('When the next phase was entered; null for the current phase.'),
    duration_ms: durationMs.describe('ended_at - started_at in milliseconds; null while the phase is current.'),
    approved: z.boolean().describe('True when leaving it was approved with --approved (gates).'),
  })
  .describe('One phase of the generation, in the order it was entered.');

export const ReportVerifySchema = z
  .strictObject({
    runs: z.int().min(0).describe('Verification runs recorded under .codelabgen/runs/<id>/.'),
    passed: z.int().min(0).describe('Runs that passed.'),
    failed: z.int().min(0).describe('Runs that failed or timed out.'),
    last_run: z.int().min(1).nullable().describe('Number of the last run, or null when none ran.'),
    last_passed: z.boolean().nullable().describe('Whether the last run passed; null when none ran.'),
    last_tests: TestCountsSchema.nullable().describe('Test counts of the last run; null when none ran or none were parsed.'),
    last_at: TimestampSchema.nullable().describe('When the last run started.'),
  })
  .describe('Verification runs of one lesson.');

export const ReportFailureSchema = z
  .strictObject({
    at: TimestampSchema,
    note: z.string().describe('One-line cause of the failure.'),
    via: z.enum(['state fail', 'verify']).describe('What recorded the failure.'),
    run: z.int().min(1).nullable().describe('Run number of the failing run-result, when verify recorded it.'),
    blocked: z.boolean().describe('True when this failure used up the fix budget and blocked the lesson.'),
  })
  .describe('A failed verification that used a fix attempt.');

export const ReportBlockSchema = z
  .strictObject({
    at: TimestampSchema.describe('When the lesson was blocked.'),
    reason: z.string().describe('Why it was blocked.'),
    by: z.enum(['user', 'fix-budget']).describe('`user`: `state block`; `fix-budget`: fix attempts used up.'),
    unblocked_at: TimestampSchema.nullable().describe('When it was unblocked; null while still blocked.'),
  })
  .describe('One period during which the lesson was blocked.');

export const ReportStaleSchema = z
  .strictObject({
    at: TimestampSchema.describe('When the lesson was marked stale.'),
    reason: z.string().describe('What changed upstream.'),
    cleared_at: TimestampSchema.nullable().describe('When a move back cleared it; null while still stale.'),
  })
  .describe('One stale mark of a done lesson.');

export const ReportLessonSchema = z
  .strictObject({
    id: LessonIdSchema,
    title: z.string().describe('Lesson title.'),
    module_id: ModuleIdSchema.describe('Id of the lesson\'s module.'),
    module_title: z.string().describe('Title of the lesson\'s module.'),
    dir: z.string().describe('Lesson folder relative to the course root.'),
    stage: StageSchema.describe('Stage at the time of the report.'),
    blocked: z.boolean().describe('True when the lesson is blocked now.'),
    stale: z.boolean().describe('True when the lesson is stale now.'),
    fix_attempts: z.int().min(0).describe('Failed verifications in all (every fix budget together).'),
    fix_budget_resets: z.int().min(0).describe('Fresh fix budgets given by unblock.'),
    review_rounds: z.int().min(0).describe('Review rounds used (moves back from notes or reviewed).'),
    reworks: z.int().min(0).describe('Moves back to an earlier stage in all, review rounds included.'),
    verify: ReportVerifySchema,
    failures: z.array(ReportFailureSchema).describe('Every failed verification, oldest first.'),
    blocks: z.array(ReportBlockSchema).describe('Every block, oldest first.'),
    stale_marks: z.array(ReportStaleSchema).describe('Every stale mark, oldest first.'),
    registered_at: TimestampSchema.describe('When the lesson was first registered (entered pending).'),
    done_at: TimestampSchema.nullable().describe('When it last reached done; null when not done.'),
    pending_to_done_ms: durationMs.describe('done_at - registered_at in milliseconds; null when not done.'),
  })
  .describe('One lesson in the report.');

export const ReportRoleSchema = z
  .strictObject({
    role: RoleSchema,
    count: z.int().min(0).describe('Tasks started with this role.'),
    done: z.int().min(0).describe('Tasks that ended done.'),
    failed: z.int().min(0).describe('Tasks that ended failed.'),
    reset: z.int().min(0).describe('Tasks that were reset.'),
    running: z.int().min(0).describe('Tasks still running at the time of the report.'),
    total_ms: z.number().min(0).describe('Sum of the durations of the finished tasks, in milliseconds.'),
    mean_ms: durationMs.describe('Mean duration of the finished tasks; null when none finished.'),
    max_ms: durationMs.describe('Longest finished task; null when none finished.'),
  })
  .describe('Tasks of one worker role.');

export const ReportFactSchema = z
  .strictObject({
    at: TimestampSchema,
    lesson: LessonIdSchema.nullable().describe('Lesson the fact is about, if any.'),
    data: z.record(z.string(), z.string()).describe('The key=value pairs given with --data.'),
  })
  .describe('One `state log` fact.');

export const ReportSchema = z
  .strictObject({
    schema_version: z.literal(1).describe('Version of this file\'s format.'),
    generated_at: TimestampSchema.describe('When `codelabgen report` wrote it.'),
    course: z
      .strictObject({ title: z.string().describe('Course title.'), topic: z.string().nullable().describe('Course topic.') })
      .describe('The course the report is about.'),
    phase: PhaseSchema.describe('Phase at the time of the report.'),
    last_seq: z.int().min(0).describe('Seq of the last event the report covers.'),
    phases: z.array(ReportPhaseSchema).describe('Every phase entered, in order.'),
    totals: z
      .strictObject({
        lessons: z.int().min(0).describe('Lessons registered.'),
        by_stage: z.record(StageSchema, z.int().min(0)).describe('Lessons per stage (every stage present).'),
        done: z.int().min(0).describe('Lessons done.'),
        blocked: z.int().min(0).describe('Lessons blocked now.'),
        stale: z.int().min(0).describe('Lessons stale now.'),
        fix_attempts: z.int().min(0).describe('Failed verifications in all.'),
        review_rounds: z.int().min(0).describe('Review rounds used in all.'),
        verify_runs: z.int().min(0).describe('Verification runs in all.'),
        tasks: z.int().min(0).describe('Tasks started in all.'),
      })
      .describe('Course-wide counts.'),
    lessons: z.array(ReportLessonSchema).describe('Every registered lesson in curriculum order.'),
    tasks: z.array(ReportRoleSchema).describe('Tasks grouped by role, roles sorted by name.'),
    facts: z
      .array(z.strictObject({ kind: z.string().describe('Kind given to `state log <kind>`.'), count: z.int().min(0), entries: z.array(ReportFactSchema) }))
      .describe('`state log` facts grouped by kind, kinds sorted by name, entries oldest first.'),
    site_build: z
      .strictObject({ at: TimestampSchema, pages: z.int().min(0).describe('Pages written.'), lessons: z.int().min(0).describe('Lessons published.') })
      .nullable()
      .describe('The last successful publish build, or null.'),
  })
  .describe('The course generation report: `.codelabgen/report.json` (report.md renders it).');

export type Report = z.infer<typeof ReportSchema>;
export type ReportLesson = z.infer<typeof ReportLessonSchema>;
export type ReportPhase = z.infer<typeof ReportPhaseSchema>;
export type ReportRole = z.infer<typeof ReportRoleSchema>;
