// One line of `.codelabgen/sources.jsonl`: a candidate source and the gate's decision on it.
import { z } from 'zod';
import { LessonIdSchema, TimestampSchema } from './common.ts';

export const SOURCE_KINDS = [
  'official-docs',
  'official-blog',
  'package-internals',
  'github-repo',
  'article',
  'book',
  'course',
  'paper',
  'spec',
  'talk',
  'qa',
  'university',
  'other',
] as const;

export const SourceSchema = z
  .strictObject({
    id: LessonIdSchema.describe('Source id, used for its digest `.codelabgen/sources/<id>.md` and topics file.'),
    title: z.string().min(1).max(500).describe('Title of the source.'),
    url: z.url({ protocol: /^https?$/ }).describe('Where the source lives (http or https).'),
    kind: z.enum(SOURCE_KINDS).describe('What kind of source it is.'),
    status: z
      .enum(['candidate', 'accepted', 'rejected'])
      .describe('Gate decision: only accepted sources need a digest and topics.'),
    reason: z.string().max(2000).optional().describe('Why it was accepted or rejected, in a line.'),
    summary: z.string().max(4000).optional().describe('What the source covers, in a few sentences.'),
    retrieved_at: TimestampSchema.optional().describe('When the source was read.'),
  })
  .describe('A source candidate: one line of `.codelabgen/sources.jsonl`.');

export type Source = z.infer<typeof SourceSchema>;
