// Building blocks shared by every data-file schema: ids, slugs, safe paths, enums.
// Imported only by the other files of content-schemas/.
import { z } from 'zod';
import { PHASES, STAGES, WORKER_ROLES } from './names.ts';
import { RUNTIMES } from './runtimes.ts';

export { PHASES, STAGES, stageIndex } from './names.ts';

export const LESSON_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
// Relative, no `..` segment, no NUL or backslash, not absolute, not home-relative.
export const REL_PATH_PATTERN = '^(?![/~])(?![A-Za-z]:)(?!(?:.*/)?\\.\\.(?:/|$))[^\\u0000\\\\]{1,512}$';

export const LessonIdSchema = z
  .string()
  .regex(
    new RegExp(LESSON_ID_PATTERN),
    'expected a lesson id: a dotted number like "2.1" or letters, digits, ".", "_", "-" (at most 64, starting with a letter or digit)',
  )
  .describe('Lesson id: a dotted number like "2.1", or [A-Za-z0-9][A-Za-z0-9._-]* (at most 64 characters).');

export const ModuleIdSchema = LessonIdSchema.describe('Module id: a number like "1", or [A-Za-z0-9][A-Za-z0-9._-]*.');

export const SlugSchema = z
  .string()
  .max(80)
  .regex(new RegExp(SLUG_PATTERN), 'expected a lowercase kebab-case slug like "readable-streams"')
  .describe('Lowercase kebab-case slug used in folder names and URLs.');

export const RelPathSchema = z
  .string()
  .regex(new RegExp(REL_PATH_PATTERN), 'expected a relative path inside the course, without ".." segments')
  .describe('Path relative to the course root (or the lesson folder where stated); no ".." segments.');

export const TimestampSchema = z.iso.datetime({ offset: true }).describe('ISO 8601 time, UTC.');

export const PhaseSchema = z.enum(PHASES).describe('Course generation phase, in protocol order.');
export type Phase = z.infer<typeof PhaseSchema>;

export const StageSchema = z.enum(STAGES).describe('Last completed lesson stage, in protocol order.');
export type Stage = z.infer<typeof StageSchema>;

export const RuntimeSchema = z.enum(RUNTIMES).describe("How a lesson's tests are run.");
export type Runtime = z.infer<typeof RuntimeSchema>;

export const ArgvSchema = z
  .array(z.string().min(1).max(4096))
  .min(1)
  .describe('A command as an argv list, run without a shell; the first item is the program.');

/** The worker roles' names, from their registry (names.ts). */
export const ROLES: readonly string[] = WORKER_ROLES.map((entry) => entry.role);
export const RoleSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,63}$/, 'expected a worker role in kebab-case like "code-author"')
  .describe(`Worker role, kebab-case; the usual ones: ${ROLES.join(', ')}.`);
