// One line of `.codelabgen/events.jsonl`. Every event carries what replay needs (outcomes included).
import { z } from 'zod';
import {
  LessonIdSchema,
  ModuleIdSchema,
  PhaseSchema,
  RelPathSchema,
  RoleSchema,
  SlugSchema,
  StageSchema,
  TimestampSchema,
} from './common.ts';
import { ReviewSchema } from './review.ts';
import { TestCountsSchema } from './run-result.ts';
import { TaskIdSchema } from './task.ts';
import { WorkerStatusSchema } from './worker-status.ts';

const base = {
  seq: z.int().min(1).describe('Gapless sequence number, 1 for the first event.'),
  ts: TimestampSchema.describe('When the event was committed.'),
  pid: z.int().min(0).optional().describe('Process that committed it.'),
  command: z.string().max(500).optional().describe('The codelabgen command that committed it.'),
};
const lesson = LessonIdSchema.describe('Lesson the event is about.');
const approval = z
  .enum(['command', 'elicitation'])
  .optional()
  .describe(
    "How the user's decision came (a gate left, a user block lifted, a lesson reopened, lessons dropped): " +
      'with the command (--approved, the unblock itself, --reopen, --allow-drop; MCP: the same arguments), or as ' +
      "the user's answer to an MCP elicitation.",
  );
const note = z.string().max(100_000).nullable().describe('Free-text note or reason.');
// Evidence kept for the report (optional: older logs lack it; replay ignores it).
const tests = TestCountsSchema.nullable()
  .optional()
  .describe('Test counts of the verification run, when verify recorded it.');
const review = ReviewSchema.pick({ verdict: true, reviewer: true, round: true, findings: true })
  .optional()
  .describe(
    'The review (review.md front matter) in force when the lesson moved to reviewed or back from notes or reviewed.',
  );

export const RegisteredLessonSchema = z.strictObject({
  id: LessonIdSchema,
  title: z.string().max(300),
  slug: SlugSchema,
  module_id: ModuleIdSchema,
  module_slug: SlugSchema,
  module_title: z.string().max(300),
  dir: RelPathSchema,
});

export const EventSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      ...base,
      kind: z.literal('course.init'),
      title: z.string().min(1).max(200),
      topic: z.string().max(500).nullable(),
    }),
    z.strictObject({
      ...base,
      kind: z.literal('phase.advance'),
      from: PhaseSchema,
      to: PhaseSchema,
      approved: z.boolean().describe('Given --approved (gates).'),
      approval,
    }),
    z.strictObject({
      ...base,
      kind: z.literal('lessons.register'),
      lessons: z.array(RegisteredLessonSchema).describe('Every curriculum lesson, in order.'),
      removed: z.array(LessonIdSchema).describe('Lessons dropped from state.'),
      approval,
    }),
    z.strictObject({
      ...base,
      kind: z.literal('lesson.stage'),
      lesson,
      from: StageSchema,
      to: StageSchema,
      note,
      review_round_used: z.boolean().describe('True when the move back used a review round.'),
      review,
      reopened: PhaseSchema.optional().describe(
        'Set by `--reopen`: the phase (assembly or done) the course moved back from to `lessons` in this same event.',
      ),
      drifted: z
        .literal(true)
        .optional()
        .describe(
          'On a move back to code or earlier: the code had changed since it was verified (drift), so the move is to verify it again, not a rework.',
        ),
      approval,
    }),
    z.strictObject({
      ...base,
      kind: z.literal('lesson.verified'),
      lesson,
      code_hash: z.string(),
      run: z.int().min(1).nullable(),
      tests,
    }),
    z.strictObject({
      ...base,
      kind: z.literal('lesson.fail'),
      lesson,
      note: z.string().max(100_000),
      fix_attempts_used: z.int().min(1).describe('Fix attempts used after this failure.'),
      blocked: z.boolean().describe('True when this failure used up the fix budget and blocked the lesson.'),
      via: z.enum(['state fail', 'verify']).describe('What recorded the failure.'),
      run: z.int().min(1).nullable(),
      tests,
      evidence: z
        .string()
        .max(4000)
        .nullable()
        .optional()
        .describe('The first failing test and its message, a few lines, when verify found one.'),
      code_hash: z
        .string()
        .nullable()
        .optional()
        .describe(
          'Hash of the code that failed (verify only); a `state fail` of the same code is refused as already counted.',
        ),
    }),
    z
      .strictObject({
        ...base,
        kind: z.literal('lesson.fail_note'),
        lesson,
        note: z.string().max(100_000).describe("The orchestrator's note on the failure (`state fail --note`)."),
        run: z.int().min(1).nullable().describe('The verify run that already counted the failure.'),
      })
      .describe(
        'A `state fail` of a failure `verify --update-state` already counted: the note is attached to that failure; no fix attempt is used.',
      ),
    z.strictObject({ ...base, kind: z.literal('lesson.block'), lesson, reason: z.string().max(100_000) }),
    z.strictObject({
      ...base,
      kind: z.literal('lesson.unblock'),
      lesson,
      fix_budget_reset: z.boolean().describe('True when the block was the fix budget, which is renewed.'),
      note: z.string().max(100_000).nullable().optional().describe("The user's decision, given with --note."),
      review_round_granted: z
        .boolean()
        .optional()
        .describe('True when the user granted one more review round (--review-round).'),
      approval,
    }),
    z.strictObject({ ...base, kind: z.literal('lesson.stale'), lesson, reason: z.string().max(100_000) }),
    z.strictObject({
      ...base,
      kind: z.literal('task.start'),
      task: TaskIdSchema,
      lesson: LessonIdSchema.nullable().describe('Lesson the worker works on; null for a phase task.'),
      phase: PhaseSchema.optional().describe(
        'Phase of a phase task (`state task start --phase`), for workers that are not about one lesson.',
      ),
      role: RoleSchema,
      lease_seconds: z
        .int()
        .min(1)
        .optional()
        .describe('The task counts as running this long after the event (and after each heartbeat).'),
    }),
    z.strictObject({
      ...base,
      kind: z.literal('task.heartbeat'),
      task: TaskIdSchema,
      lease_seconds: z.int().min(1).describe('The lease is renewed to this long after the event.'),
    }),
    z.strictObject({
      ...base,
      kind: z.literal('task.finish'),
      task: TaskIdSchema,
      status: z.enum(['done', 'failed']),
      note,
      result: WorkerStatusSchema.nullable(),
    }),
    z.strictObject({ ...base, kind: z.literal('task.reset'), task: TaskIdSchema, note }),
    z.strictObject({
      ...base,
      kind: z.literal('log'),
      fact: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
        .describe('Kind of fact given to `state log <kind>`.'),
      lesson: LessonIdSchema.nullable(),
      data: z.record(z.string(), z.string()).describe('The key=value pairs given with --data.'),
    }),
    z.strictObject({
      ...base,
      kind: z.literal('site.build'),
      out: z.string().max(1024),
      pages: z.int().min(0),
      lessons: z.array(LessonIdSchema),
    }),
  ])
  .describe('An event: one line of `.codelabgen/events.jsonl`.');

export type Event = z.infer<typeof EventSchema>;
export type EventKind = Event['kind'];
export type EventOf<K extends EventKind> = Extract<Event, { kind: K }>;
/** What a command proposes; the store adds seq, ts, pid and command. */
export type EventDraft = Event extends infer E
  ? E extends Event
    ? Omit<E, 'seq' | 'ts' | 'pid' | 'command'>
    : never
  : never;
export type RegisteredLesson = z.infer<typeof RegisteredLessonSchema>;
