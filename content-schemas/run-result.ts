// `.codelabgen/runs/<id>/<n>.json`: one verification run of a lesson's tests.
import { z } from 'zod';
import { ArgvSchema, LessonIdSchema, RuntimeSchema, TimestampSchema } from './common.ts';

export const TestCountsSchema = z
  .strictObject({
    passed: z.int().min(0).describe('Tests that passed.'),
    failed: z.int().min(0).describe('Tests that failed.'),
    skipped: z.int().min(0).describe('Tests skipped or marked todo.'),
    total: z.int().min(0).describe('All tests the runner reported.'),
  })
  .describe("Test counts parsed from the runner's output.");

export const RunResultSchema = z
  .strictObject({
    schema_version: z.literal(1).describe("Version of this file's format."),
    lesson: LessonIdSchema.describe('Lesson whose tests ran.'),
    run: z.int().min(1).describe('Run number; the file is `<run>.json`.'),
    runtime: RuntimeSchema,
    argv: ArgvSchema.describe('The command that ran, without a shell.'),
    cwd: z.string().max(1024).describe('Working directory, relative to the course root.'),
    started_at: TimestampSchema.describe('When the run started.'),
    duration_ms: z.number().min(0).describe('Wall time of the run, in milliseconds.'),
    exit_code: z.int().nullable().describe('Exit code, or null when the process ended by a signal.'),
    signal: z.string().max(32).nullable().describe('Signal that ended the process, or null.'),
    timed_out: z.boolean().describe('True when the timeout killed the process group.'),
    passed: z.boolean().describe('True when the command exited 0 without timing out.'),
    tests: TestCountsSchema.nullable().describe('Parsed counts, or null when the output had none (never guessed).'),
    output_tail: z.string().describe('The last part of stdout and stderr, interleaved as they came.'),
    output_bytes: z.int().min(0).describe('Bytes of output the command produced in all.'),
    output_truncated: z.boolean().describe('True when output_tail is only the tail of the output.'),
    code_hash: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/)
      .describe('Hash of the lesson code (every file but docs/, dependency and cache folders).'),
    sandbox: z
      .enum(['bwrap', 'none'])
      .optional()
      .describe(
        'Where the tests ran: `bwrap` inside the bubblewrap sandbox, `none` without one (absent in runs written before the sandbox existed).',
      ),
    cause: z
      .string()
      .max(500)
      .nullable()
      .describe('One-line cause of a failure drawn from the output, or null when it passed.'),
  })
  .describe('A verification run: `.codelabgen/runs/<id>/<n>.json`.');

export type RunResult = z.infer<typeof RunResultSchema>;
export type TestCounts = z.infer<typeof TestCountsSchema>;
