// `.codelabgen/lessons/<id>/spec.yaml`: what the example-designer asks the code-author to build.
import { z } from 'zod';
import { ArgvSchema, LessonIdSchema, RelPathSchema, RuntimeSchema } from './common.ts';

export const LessonSpecSchema = z
  .strictObject({
    lesson: LessonIdSchema.describe('Id of the lesson this spec belongs to.'),
    title: z.string().min(1).max(300).describe('Lesson title.'),
    goal: z.string().min(1).max(4000).describe('What the example demonstrates, in a few sentences.'),
    objectives: z.array(z.string().min(1).max(500)).max(20).default([]).describe('What a learner can do afterwards.'),
    runtime: RuntimeSchema.optional().describe('Overrides the course runtime for this lesson.'),
    test_command: ArgvSchema.optional().describe(
      "Argv for the `custom` runtime, or to override the runtime's default command.",
    ),
    network: z
      .boolean()
      .default(false)
      .describe(
        'Let every step of the lesson (npm ci and its install scripts, the tests) use the network inside the ' +
          'sandbox, a network of its own through slirp4netns that never reaches the loopback of the host ' +
          '(default: no network at all); a lesson whose lock file has dependencies needs it for npm ci to ' +
          'download them.',
      ),
    install_scripts: z
      .boolean()
      .default(false)
      .describe(
        "Let npm ci run install scripts (the lesson's own preinstall, install, postinstall and prepare, and its " +
          "dependencies') and uv and pip build source distributions; default: npm ci --ignore-scripts, uv run " +
          '--no-build (UV_NO_BUILD) and PIP_ONLY_BINARY=:all:. They run in the sandbox like the tests.',
      ),
    max_processes: z
      .int()
      .min(16)
      .max(1_000_000)
      .optional()
      .describe(
        "Processes and threads each step of this lesson may have at once; default: the course's verify.max_processes (1024).",
      ),
    files: z
      .array(
        z.strictObject({
          path: RelPathSchema.describe('Path relative to the lesson folder.'),
          purpose: z.string().max(1000).default('').describe('What the file holds.'),
        }),
      )
      .max(100)
      .default([])
      .describe('Files the code-author is to write.'),
    tests: z.array(z.string().min(1).max(1000)).max(100).default([]).describe('Behaviours the tests must check.'),
  })
  .describe('A lesson spec: `.codelabgen/lessons/<id>/spec.yaml`.');

export type LessonSpec = z.infer<typeof LessonSpecSchema>;
