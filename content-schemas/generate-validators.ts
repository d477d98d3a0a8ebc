// Emits content-schemas/validators.generated.ts: one plain function per data-file schema, compiled
// from the zod definitions, so the CLI's hot path validates without importing zod. A validator may
// only say "valid, here is zod's output" or FAIL; on FAIL the caller asks zod itself (content-schemas/fast.ts).
import * as schemas from './index.ts';
import type { Node } from './validator-emit-context.ts';
import { Emitter } from './validator-emitter.ts';
import { HEADER, HELPERS } from './validator-runtime.ts';

/** The schemas the pipeline validates with (exports of content-schemas/index.ts). */
export const FAST_SCHEMAS = [
  'ConfigSchema',
  'SourceSchema',
  'TopicSchema',
  'CurriculumSchema',
  'LessonSpecSchema',
  'RunResultSchema',
  'GlossaryEntrySchema',
  'ReviewSchema',
  'WorkerStatusSchema',
  'StateSchema',
  'EventSchema',
  'TaskSchema',
  'ReportSchema',
  'RoleSchema',
  'LessonIdSchema',
] as const;
export type FastSchemaName = (typeof FAST_SCHEMAS)[number];

/** The whole generated module: a validator for each of FAST_SCHEMAS (or of `only`, in tests). */
export function renderValidators(only?: Record<string, Node>): string {
  const emitter = new Emitter();
  const named = only ?? Object.fromEntries(FAST_SCHEMAS.map((name) => [name, schemas[name] as Node]));
  const table = Object.entries(named).map(([name, schema]) => `  ${name}: ${emitter.fn(schema)},`);
  const imports = emitter.usesRefinements ? "import { REFINEMENTS } from './refinements.ts';\n" : '';
  return `${HEADER}${imports}${HELPERS}\n${emitter.source()}\n\nexport const VALIDATORS = {\n${table.join('\n')}\n};\n`;
}
