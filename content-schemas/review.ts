// The YAML front matter of `.codelabgen/lessons/<id>/review.md`; the body is the review in markdown.
import { z } from 'zod';
import { LessonIdSchema } from './common.ts';

export const ReviewSchema = z
  .strictObject({
    lesson: LessonIdSchema.describe('Id of the reviewed lesson.'),
    verdict: z.enum(['pass', 'revise']).describe('`pass` lets the lesson move to `reviewed`; `revise` sends it back.'),
    reviewer: z.string().max(200).optional().describe('Who reviewed (agent role or person).'),
    round: z.int().min(1).max(100).optional().describe('Review round this verdict belongs to.'),
    findings: z
      .array(
        z.strictObject({
          severity: z.enum(['blocker', 'major', 'minor', 'nit']).describe('How much the finding matters.'),
          where: z.string().max(500).optional().describe('File and line or section the finding is about.'),
          text: z.string().min(1).max(4000).describe('The finding.'),
        }),
      )
      .max(200)
      .default([])
      .describe('What the reviewer found.'),
  })
  .describe('A lesson review: the YAML front matter of `.codelabgen/lessons/<id>/review.md`.');

export type Review = z.infer<typeof ReviewSchema>;
