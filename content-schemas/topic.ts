// One line of `.codelabgen/topics/<source-id>.jsonl`: a topic extracted from an accepted source.
import { z } from 'zod';
import { LessonIdSchema } from './common.ts';

export const TopicSchema = z
  .strictObject({
    id: LessonIdSchema.describe('Topic id, unique within the course.'),
    source: LessonIdSchema.describe('Id of the source the topic was extracted from.'),
    title: z.string().min(1).max(300).describe('Topic title.'),
    summary: z.string().max(4000).describe('What a learner must understand about it.'),
    importance: z
      .enum(['core', 'useful', 'optional'])
      .default('useful')
      .describe('How central the topic is to the course.'),
  })
  .describe('A topic: one line of `.codelabgen/topics/<source-id>.jsonl`.');

export type Topic = z.infer<typeof TopicSchema>;
