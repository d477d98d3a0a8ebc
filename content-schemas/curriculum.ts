// `.codelabgen/curriculum.yaml`: modules and lessons in teaching order; `register` reads it.
import { z } from 'zod';
import { LessonIdSchema, ModuleIdSchema, SlugSchema } from './common.ts';

export const CurriculumLessonSchema = z
  .strictObject({
    id: LessonIdSchema,
    slug: SlugSchema.describe('Lesson slug; the lesson folder is `<lesson-id>-<slug>`.'),
    title: z.string().min(1).max(300).describe('Lesson title.'),
    summary: z.string().max(2000).default('').describe('One or two sentences on what the lesson teaches.'),
    objectives: z
      .array(z.string().min(1).max(500))
      .max(20)
      .default([])
      .describe('What a learner can do after the lesson.'),
    prerequisites: z.array(LessonIdSchema).max(50).default([]).describe('Ids of earlier lessons this one builds on.'),
    topics: z
      .array(LessonIdSchema.describe('Topic id: the `id` of a topic in `.codelabgen/topics/<source-id>.jsonl`.'))
      .max(50)
      .default([])
      .describe('Ids of the topics the lesson covers.'),
  })
  .describe('A lesson in the curriculum.');

export const CurriculumModuleSchema = z
  .strictObject({
    id: ModuleIdSchema,
    slug: SlugSchema.describe('Module slug; the module folder is `<module-id>-<slug>`.'),
    title: z.string().min(1).max(300).describe('Module title.'),
    summary: z.string().max(2000).default('').describe('What the module covers.'),
    lessons: z.array(CurriculumLessonSchema).min(1).max(500).describe('Lessons in teaching order.'),
  })
  .describe('A module: an ordered group of lessons.');

export const CurriculumSchema = z
  .strictObject({
    title: z.string().min(1).max(300).describe('Course title shown on the site.'),
    summary: z.string().max(4000).default('').describe('What the course is about.'),
    audience: z.string().max(2000).default('').describe('Who the course is for and what they should know.'),
    modules: z.array(CurriculumModuleSchema).min(1).max(200).describe('Modules in teaching order.'),
  })
  .describe('The curriculum: `.codelabgen/curriculum.yaml`.');

export type Curriculum = z.infer<typeof CurriculumSchema>;
export type CurriculumModule = z.infer<typeof CurriculumModuleSchema>;
export type CurriculumLesson = z.infer<typeof CurriculumLessonSchema>;
