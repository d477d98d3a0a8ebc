// The pipeline's entry into content-schemas without zod: fixed names, the parse helpers and one parser
// per schema that tries the generated validator (validators.generated.ts) first and asks zod only
// when it answers FAIL, so a refusal reads exactly as zod words it. zod loads on that first FAIL.
import type { z } from 'zod';
import type * as Schemas from './index.ts';
import { loadLazily } from './lazy-load.ts';
import type { SafeParser } from './safe-parser.ts';
import { FAIL, VALIDATORS } from './validators.generated.ts';

export * from './names.ts';
export * from './registries.ts';
export * from './errors.ts';
export * from './parse.ts';
export * from './regular-file.ts';
export { loadLazily } from './lazy-load.ts';

export type { SafeParser } from './safe-parser.ts';

let schemas: typeof Schemas | undefined;

/** The zod schemas, loaded on first need: synchronously, as the store's reads are synchronous. */
export function zodSchemas(): typeof Schemas {
  schemas ??= loadLazily<typeof Schemas>('schemas', './index.ts');
  return schemas;
}

type Name = keyof typeof VALIDATORS;

function fastParser<N extends Name>(name: N): SafeParser<z.output<(typeof Schemas)[N]>> {
  type T = z.output<(typeof Schemas)[N]>;
  const validate: (value: unknown) => unknown = VALIDATORS[name];
  const schema = () => zodSchemas()[name] as unknown as z.ZodType<T>;
  return {
    safeParse(data, params) {
      const out = validate(data);
      return out === FAIL ? schema().safeParse(data, params) : { success: true, data: out as T };
    },
    parse(data) {
      const out = validate(data);
      return out === FAIL ? schema().parse(data) : (out as T);
    },
  };
}

export const ConfigParser = fastParser('ConfigSchema');
export const SourceParser = fastParser('SourceSchema');
export const TopicParser = fastParser('TopicSchema');
export const CurriculumParser = fastParser('CurriculumSchema');
export const LessonSpecParser = fastParser('LessonSpecSchema');
export const RunResultParser = fastParser('RunResultSchema');
export const GlossaryEntryParser = fastParser('GlossaryEntrySchema');
export const ReviewParser = fastParser('ReviewSchema');
export const WorkerStatusParser = fastParser('WorkerStatusSchema');
export const StateParser = fastParser('StateSchema');
export const EventParser = fastParser('EventSchema');
export const TaskParser = fastParser('TaskSchema');
export const ReportParser = fastParser('ReportSchema');
export const RoleParser = fastParser('RoleSchema');
export const LessonIdParser = fastParser('LessonIdSchema');
