// `.codelabgen/report.json`: the course generation report computed from the event log alone by
// `codelabgen report` (report.md is its markdown rendering); the site renders this file.
import { z } from 'zod';
import { LessonIdSchema, ModuleIdSchema, PhaseSchema, RoleSchema, StageSchema, TimestampSchema } from './common.ts';
import { TestCountsSchema } from './run-result.ts';

const durationMs = z.number().min(0).nullable();
const rate = z.number().min(0).max(1).nullable();

export const STORY_LABELS = [
  'stage',
  'rework',
  'verify',
  'failure',
  'block',
  'unblock',
  'review',
  'stale',
  'drift',
  'task',
  'fact',
  'decision',
  'reopen',
  'event',
] as const;

export const ReportStoryEntrySchema = z
  .strictObject({
    seq: z.int().min(1).describe('Seq of the event the entry tells.'),
    at: TimestampSchema.describe('When the event was committed.'),
    kind: z
      .string()
      .describe(
        'The event kind (`lesson.stage`, `task.finish`, ...; kinds the report does not know are told generically).',
      ),
    label: z
      .enum(STORY_LABELS)
      .describe('What the entry is about: a move forward, a rework (move back), a verification, a failure, ...'),
    text: z.string().describe('The entry in one line.'),
    details: z.array(z.string()).describe('Further lines: failure evidence, review findings, notes; empty when none.'),
  })
  .describe("One entry of a lesson's (or the course's) timeline.");

export const NEEDS_HUMAN_KINDS = [
  'blocked',
  'budget-used-up',
  'drift',
  'stale',
  'task-failed',
  'task-interrupted',
  'task-needs-user',
] as const;

export const DECISION_KINDS = ['unblocked', 'decision', 'reopened'] as const;

export const ReportNeedsHumanSchema = z
  .strictObject({
    kind: z
      .enum(NEEDS_HUMAN_KINDS)
      .describe(
        'Why a person should look now: a lesson blocked (a user block, or its fix budget used up: then with ' +
          'the last failure), code changed after it was verified and not verified again, a stale mark not ' +
          'cleared, an open failed task (no later task on the same lesson or phase finished), a task that ended ' +
          'needs-user, a task interrupted (its lease ran out) and never resumed or reset. What was resolved is ' +
          'under decisions.',
      ),
    lesson: LessonIdSchema.nullable().describe('Lesson it is about; null for the course.'),
    at: TimestampSchema.describe('When it happened (the latest event it rests on).'),
    text: z.string().describe('What to look at, in one line.'),
  })
  .describe('One item of "What needs a human".');

export const ReportDecisionSchema = z
  .strictObject({
    kind: z
      .enum(DECISION_KINDS)
      .describe(
        "What was decided: a blocked lesson unblocked (with the user's note), a decision logged as the user's " +
          '(`state log decision` or data by=user), a course reopened (a lesson moved back with --reopen).',
      ),
    lesson: LessonIdSchema.nullable().describe('Lesson it is about; null for the course.'),
    at: TimestampSchema.describe('When it was decided.'),
    by: z.string().describe('Who decided: "user", or the name a `state log` gave with by=.'),
    text: z.string().describe('What was decided, in one line.'),
  })
  .describe('One item of "Decisions": what a person resolved, oldest first.');

export const ReportReviewSchema = z
  .strictObject({
    at: TimestampSchema.describe('When the stage move that recorded it was committed.'),
    verdict: z.enum(['pass', 'revise']).describe('The verdict of review.md at that move.'),
    reviewer: z.string().nullable().describe('Who reviewed, when review.md says.'),
    round: z.int().min(1).nullable().describe('Review round review.md names, if any.'),
    findings: z
      .array(
        z.strictObject({
          severity: z.string().describe('blocker, major, minor or nit.'),
          where: z.string().nullable().describe('File and line or section.'),
          text: z.string().describe('The finding.'),
        }),
      )
      .describe('What the reviewer found.'),
  })
  .describe('A review in force at a move to reviewed or back from notes or reviewed.');

export const ReportTaskSchema = z
  .strictObject({
    id: z.string().describe('Task id (t1, t2, ...).'),
    role: z.string().describe('Worker role.'),
    phase: PhaseSchema.nullable().describe(
      'Phase of a phase task (`state task start --phase`); null for a lesson task.',
    ),
    status: z.enum(['running', 'done', 'failed', 'reset']).describe('Status at the time of the report.'),
    worker_status: z
      .enum(['ok', 'failed', 'needs-user'])
      .nullable()
      .describe('The status the worker returned (--result), if any.'),
    started_at: TimestampSchema.describe('When it started.'),
    duration_ms: durationMs.describe(
      'Wall time from start until done, failed or reset (heartbeats do not change it); null while running.',
    ),
    heartbeats: z.int().min(0).describe('Heartbeats recorded (`state task heartbeat`), each renewing the lease.'),
    lease_until: TimestampSchema.nullable().describe(
      'When the lease of the last start or heartbeat ran out; null when the log records no lease.',
    ),
    note: z.string().nullable().describe("The note given when it ended, or the worker's own notes."),
  })
  .describe('One worker task, on a lesson or for a phase.');

export const ReportPhaseSchema = z
  .strictObject({
    phase: PhaseSchema.describe('The phase.'),
    started_at: TimestampSchema.describe('When the phase was entered.'),
    ended_at: TimestampSchema.nullable().describe('When the next phase was entered; null for the current phase.'),
    duration_ms: durationMs.describe('ended_at - started_at in milliseconds; null while the phase is current.'),
    approved: z.boolean().describe('True when leaving it was approved with --approved (gates).'),
    reopened_from: PhaseSchema.nullable().describe(
      'The phase (assembly or done) a `--reopen` moved the course back from to enter this phase; null when entered forward.',
    ),
  })
  .describe('One phase of the generation, in the order it was entered.');

export const ReportVerifySchema = z
  .strictObject({
    runs: z
      .int()
      .min(0)
      .describe(
        'Runs in all: the verdicts of `verify --update-state` in the log, plus the read-only runs their run numbers show.',
      ),
    passed: z.int().min(0).describe('Verdicts that passed.'),
    failed: z.int().min(0).describe('Verdicts that failed or timed out.'),
    read_only: z
      .int()
      .min(0)
      .optional()
      .describe(
        'Runs of `verify` without --update-state (no verdict, outcome not in the log), counted from the run numbers the verdicts carry.',
      ),
    last_run: z.int().min(1).nullable().describe('Number of the last run, or null when none ran.'),
    last_passed: z.boolean().nullable().describe('Whether the last run passed; null when none ran.'),
    last_tests: TestCountsSchema.nullable().describe(
      'Test counts of the last run; null when none ran or none were parsed.',
    ),
    last_at: TimestampSchema.nullable().describe('When the last verdict was committed.'),
  })
  .describe('Verification runs of one lesson.');

export const ReportFailureSchema = z
  .strictObject({
    at: TimestampSchema.describe('When the failure was recorded.'),
    note: z.string().describe('One-line cause of the failure.'),
    via: z.enum(['state fail', 'verify']).describe('What recorded the failure.'),
    run: z.int().min(1).nullable().describe('Run number of the failing run-result, when verify recorded it.'),
    blocked: z.boolean().describe('True when this failure used up the fix budget and blocked the lesson.'),
    tests: TestCountsSchema.nullable().describe('Test counts of the failing run, when verify recorded them.'),
    evidence: z
      .string()
      .nullable()
      .describe(
        'The first failing test and its message with actual and expected values, a few lines; null when none was found.',
      ),
    orchestrator_notes: z
      .array(z.string())
      .optional()
      .describe('Notes the orchestrator attached to this failure with `state fail --note` after verify counted it.'),
  })
  .describe('A failed verification that used a fix attempt.');

export const ReportBlockSchema = z
  .strictObject({
    at: TimestampSchema.describe('When the lesson was blocked.'),
    reason: z.string().describe('Why it was blocked.'),
    by: z.enum(['user', 'fix-budget']).describe('`user`: `state block`; `fix-budget`: fix attempts used up.'),
    unblocked_at: TimestampSchema.nullable().describe('When it was unblocked; null while still blocked.'),
    decision: z
      .string()
      .nullable()
      .describe(
        'The decision recorded with the unblock (its note, or a `decision` fact logged for the lesson in between); null when none.',
      ),
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
    id: LessonIdSchema.describe('Lesson id.'),
    title: z.string().describe('Lesson title.'),
    module_id: ModuleIdSchema.describe("Id of the lesson's module."),
    module_title: z.string().describe("Title of the lesson's module."),
    dir: z.string().describe('Lesson folder relative to the course root.'),
    stage: StageSchema.describe('Stage at the time of the report.'),
    blocked: z.boolean().describe('True when the lesson is blocked now.'),
    stale: z.boolean().describe('True when the lesson is stale now.'),
    fix_attempts: z.int().min(0).describe('Failed verifications in all (every fix budget together).'),
    fix_budget_resets: z.int().min(0).describe('Fresh fix budgets given by unblock.'),
    review_rounds: z.int().min(0).describe('Review rounds used (moves back from notes or reviewed).'),
    review_rounds_granted: z
      .int()
      .min(0)
      .describe('Extra review rounds the user granted (`state unblock --review-round`).'),
    reworks: z
      .int()
      .min(0)
      .describe(
        'Moves back to an earlier stage in all, review rounds included; a move back to verify drifted code again is no rework.',
      ),
    verify: ReportVerifySchema,
    failures: z.array(ReportFailureSchema).describe('Every failed verification, oldest first.'),
    blocks: z.array(ReportBlockSchema).describe('Every block, oldest first.'),
    stale_marks: z.array(ReportStaleSchema).describe('Every stale mark, oldest first.'),
    registered_at: TimestampSchema.describe('When the lesson was first registered (entered pending).'),
    done_at: TimestampSchema.nullable().describe('When it last reached done; null when not done.'),
    pending_to_done_ms: durationMs.describe('done_at - registered_at in milliseconds; null when not done.'),
    started_at: TimestampSchema.nullable()
      .optional()
      .describe(
        'When work on the lesson began: its first task, else its first event after registration; null when nothing happened yet.',
      ),
    wall_ms: z
      .number()
      .min(0)
      .describe('Wall time: started_at to done_at, or to generated_at while not done; 0 before the lesson started.'),
    tests: TestCountsSchema.nullable().describe('Test counts of the last passing verification; null when none passed.'),
    reviews: z.array(ReportReviewSchema).describe('Every review recorded with a stage move, oldest first.'),
    tasks: z.array(ReportTaskSchema).describe('Every worker task on the lesson, oldest first.'),
    smooth: z
      .boolean()
      .describe(
        'True when the lesson is done and nothing went wrong: no failure, block, rework, stale mark, drift, or failed or needs-user task.',
      ),
    summary: z.string().describe('The lesson in one line (all a smooth lesson shows).'),
    story: z
      .array(ReportStoryEntrySchema)
      .describe(
        'Every event about the lesson since it was registered, oldest first; empty for a smooth lesson (its summary is the whole story).',
      ),
  })
  .describe('One lesson in the report.');

export const ReportRoleSchema = z
  .strictObject({
    role: RoleSchema.describe('Worker role.'),
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

export const ReportPhaseTasksSchema = z
  .strictObject({
    phase: PhaseSchema.describe('The phase the tasks were started for.'),
    roles: z.array(RoleSchema).describe('Roles of those tasks, sorted by name.'),
    count: z.int().min(0).describe('Phase tasks started for this phase.'),
    done: z.int().min(0).describe('Tasks that ended done.'),
    failed: z.int().min(0).describe('Tasks that ended failed.'),
    reset: z.int().min(0).describe('Tasks that were reset.'),
    running: z.int().min(0).describe('Tasks still running at the time of the report.'),
    total_ms: z.number().min(0).describe('Sum of the durations of the finished tasks, in milliseconds.'),
  })
  .describe('Phase tasks (`state task start --phase`) of one phase.');

export const ReportFactSchema = z
  .strictObject({
    at: TimestampSchema.describe('When the fact was logged.'),
    lesson: LessonIdSchema.nullable().describe('Lesson the fact is about, if any.'),
    data: z.record(z.string(), z.string()).describe('The key=value pairs given with --data.'),
  })
  .describe('One `state log` fact.');

const count = (what: string) => z.number().min(0).describe(what);

export const ReportUsageSchema = z
  .strictObject({
    tasks: z.int().min(0).describe('Tasks counted (started).'),
    tasks_with_usage: z.int().min(0).describe('Of those, tasks that ended with a `usage` in their status.'),
    input_tokens: count('Input tokens billed at the full rate.'),
    output_tokens: count('Output tokens.'),
    cache_read_tokens: count('Input tokens read from the prompt cache.'),
    cache_write_tokens: count('Input tokens written to the prompt cache.'),
    tokens: count('All four token counts summed.'),
    cost_usd: count('US dollars, as the workers reported them.'),
    seconds: count('Wall-clock seconds the workers reported.'),
  })
  .describe('What a group of tasks used, summed from the `usage` of their worker status.');

export const ReportCostSchema = ReportUsageSchema.extend({
  cache_hit_rate: rate.describe(
    'cache_read_tokens / (input_tokens + cache_read_tokens + cache_write_tokens); null when no input was recorded.',
  ),
  cost_per_done_lesson_usd: z
    .number()
    .min(0)
    .nullable()
    .describe('cost_usd / lessons done; null before a lesson is done.'),
  rework: ReportUsageSchema.extend({
    share: rate.describe('Its share of cost_usd (of tokens when no cost was recorded); null when nothing was.'),
  }).describe('Lesson tasks started while the lesson was back at a stage it had already passed (a rework).'),
  failed_verify: ReportUsageSchema.extend({
    share: rate.describe('Its share of cost_usd (of tokens when no cost was recorded); null when nothing was.'),
  }).describe('Lesson tasks started after a failed verification of the lesson at its stage (fixing it).'),
  by_phase: z
    .array(ReportUsageSchema.extend({ phase: PhaseSchema }))
    .describe(
      'Per phase the tasks worked for (a phase task its phase, a lesson task the phase it started in), in protocol order.',
    ),
  by_role: z.array(ReportUsageSchema.extend({ role: RoleSchema })).describe('Per worker role, sorted by name.'),
  by_lesson: z
    .array(ReportUsageSchema.extend({ lesson: LessonIdSchema }))
    .describe('Per lesson with tasks, in curriculum order.'),
}).describe("What the generation cost: the workers' recorded usage, in total and grouped.");

export const ReportSchema = z
  .strictObject({
    schema_version: z.literal(3).describe("Version of this file's format."),
    generated_at: TimestampSchema.describe(
      'Time of the last event the report covers (the log is its only clock, so the same log gives the same report).',
    ),
    course: z
      .strictObject({
        title: z.string().describe('Course title.'),
        topic: z.string().nullable().describe('Course topic.'),
      })
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
        verify_runs: z.int().min(0).describe('Verification runs in all, read-only runs included.'),
        tasks: z.int().min(0).describe('Tasks started in all, lesson and phase tasks.'),
        phase_tasks: z.int().min(0).describe('Phase tasks started (`state task start --phase`).'),
        reopens: z.int().min(0).describe('Times a `--reopen` moved the course back to lessons.'),
        tests: z.int().min(0).describe("Tests in all: the sum of each lesson's last passing verification."),
        verify_passed: z.int().min(0).describe('Verdicts that passed.'),
        verify_pass_rate: rate.describe(
          'verify_passed / the runs with a verdict (read-only runs have none in the log); null when none ran.',
        ),
        lessons_reworked: z.int().min(0).describe('Lessons moved back at least once.'),
        rework_rate: rate.describe('lessons_reworked / lessons; null when there are none.'),
        wall_ms: z.number().min(0).describe('Wall time from course.init to the last event.'),
      })
      .describe('Course-wide counts.'),
    needs_human: z
      .array(ReportNeedsHumanSchema)
      .describe('What a person should look at now (only what is still open), most pressing kinds first, then by time.'),
    decisions: z
      .array(ReportDecisionSchema)
      .optional()
      .describe(
        'What people resolved: unblocks with their notes, logged decisions, reopens; oldest first. Absent in ' +
          'a report.json written before it existed (read as none).',
      ),
    lessons: z.array(ReportLessonSchema).describe('Every registered lesson in curriculum order.'),
    course_story: z
      .array(ReportStoryEntrySchema)
      .describe(
        'Events about no registered lesson that the rest of the report does not show (phase tasks, event kinds it does not know), oldest first.',
      ),
    tasks: z.array(ReportRoleSchema).describe('Tasks, lesson and phase tasks, grouped by role, roles sorted by name.'),
    phase_tasks: z
      .array(ReportTaskSchema)
      .describe('Every phase task, oldest first (lesson tasks are under their lesson).'),
    tasks_by_phase: z.array(ReportPhaseTasksSchema).describe('Phase tasks grouped by phase, in protocol order.'),
    cost: ReportCostSchema.optional().describe(
      'What the generation cost, from the usage workers reported (docs/protocol.md); absent in reports written before it was kept.',
    ),
    facts: z
      .array(
        z.strictObject({
          kind: z.string().describe('Kind given to `state log <kind>`.'),
          count: z.int().min(0).describe('Facts of this kind.'),
          entries: z.array(ReportFactSchema).describe('The facts, oldest first.'),
        }),
      )
      .describe('`state log` facts grouped by kind, kinds sorted by name, entries oldest first.'),
    site_build: z
      .strictObject({
        at: TimestampSchema.describe('When the build was recorded.'),
        pages: z.int().min(0).describe('Pages written.'),
        lessons: z.int().min(0).describe('Lessons published.'),
      })
      .nullable()
      .describe('The last successful publish build, or null.'),
  })
  .describe('The course generation report: `.codelabgen/report.json` (report.md renders it).');

export type Report = z.infer<typeof ReportSchema>;
export type ReportLesson = z.infer<typeof ReportLessonSchema>;
export type ReportPhase = z.infer<typeof ReportPhaseSchema>;
export type ReportRole = z.infer<typeof ReportRoleSchema>;
export type ReportPhaseTasks = z.infer<typeof ReportPhaseTasksSchema>;
export type ReportStoryEntry = z.infer<typeof ReportStoryEntrySchema>;
export type ReportNeedsHuman = z.infer<typeof ReportNeedsHumanSchema>;
export type ReportDecision = z.infer<typeof ReportDecisionSchema>;
export type ReportTask = z.infer<typeof ReportTaskSchema>;
export type ReportCost = z.infer<typeof ReportCostSchema>;
export type ReportUsage = z.infer<typeof ReportUsageSchema>;
export type ReportReview = z.infer<typeof ReportReviewSchema>;
export type ReportFailure = z.infer<typeof ReportFailureSchema>;
