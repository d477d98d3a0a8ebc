// One line of `.codelabgen/glossary.jsonl`: a term, its definition and the lessons that use it.
import { z } from 'zod';
import { LessonIdSchema, SlugSchema } from './common.ts';

export const GlossaryEntrySchema = z
  .strictObject({
    term: z.string().min(1).max(200).describe('The term as readers see it.'),
    slug: SlugSchema.optional().describe('Anchor on the glossary page; derived from the term when absent.'),
    definition: z.string().min(1).max(4000).describe('Definition in one to three sentences (markdown inline).'),
    aliases: z.array(z.string().min(1).max(200)).max(20).default([]).describe('Other spellings that link to the term.'),
    lessons: z.array(LessonIdSchema).max(500).default([]).describe('Lessons that use the term.'),
  })
  .describe('A glossary entry: one line of `.codelabgen/glossary.jsonl`.');

export type GlossaryEntry = z.infer<typeof GlossaryEntrySchema>;
