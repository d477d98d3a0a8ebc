// `.codelabgen/config.yaml`: course-wide settings, budgets and the default test runtime.
import { z } from 'zod';
import { ArgvSchema, RuntimeSchema } from './common.ts';

export const BudgetsSchema = z
  .strictObject({
    fix_attempts: z.int().min(1).max(100).default(3).describe('Failed verifications a lesson may use before it is blocked automatically.'),
    review_rounds: z.int().min(0).max(100).default(2).describe('Moves back from `notes` or `reviewed` a lesson may use.'),
    parallel: z.int().min(1).max(64).default(3).describe('Modules worked on in parallel in the lessons phase.'),
  })
  .describe('Budgets that bound rework.');

export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;

export const VerifySettingsSchema = z
  .strictObject({
    sandbox: z
      .enum(SANDBOX_MODES)
      .default('auto')
      .describe('Run lesson tests inside bubblewrap (docs/verify.md): `auto` when it is usable (the run-result says which), `required` refuses to run tests without it, `off` never uses it.'),
  })
  .describe('How `verify` runs lesson tests.');

export const ConfigSchema = z
  .strictObject({
    schema_version: z.literal(1).default(1).describe('Version of this file\'s format.'),
    title: z.string().min(1).max(200).optional().describe('Course title (state.json keeps the one given to `init`).'),
    topic: z.string().max(500).optional().describe('What the course is about, in a phrase.'),
    language: z.string().max(40).optional().describe('Language of the lesson code, e.g. "typescript".'),
    runtime: RuntimeSchema.default('node').describe('Default runtime for lesson tests; a lesson spec may override it.'),
    test_command: ArgvSchema.optional().describe('Default argv for the `custom` runtime (or to override a runtime\'s default command).'),
    verify_timeout_seconds: z.int().min(1).max(86400).default(300).describe('Seconds before a test run is killed (with its whole process group).'),
    task_lease: z
      .string()
      .regex(/^[1-9][0-9]{0,5}[smh]$/, 'expected a duration like "20m", "90s" or "2h"')
      .default('20m')
      .describe('How long a task counts as running without a heartbeat (`state task heartbeat`); `state task start --lease` overrides it. After it, `state next` lists the task as interrupted.'),
    budgets: BudgetsSchema.default({ fix_attempts: 3, review_rounds: 2, parallel: 3 }),
    verify: VerifySettingsSchema.default({ sandbox: 'auto' }),
  })
  .describe('Course configuration: `.codelabgen/config.yaml`.');

export type Config = z.infer<typeof ConfigSchema>;
export type Budgets = z.infer<typeof BudgetsSchema>;
export type SandboxMode = z.infer<typeof VerifySettingsSchema>['sandbox'];
