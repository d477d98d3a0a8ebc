// The named data-file schemas behind `codelabgen schema list|show`, and their JSON Schema export.
import { z } from 'zod';
import { ConfigSchema } from './config.ts';
import { CurriculumSchema } from './curriculum.ts';
import { EventSchema } from './event.ts';
import { GlossaryEntrySchema } from './glossary-entry.ts';
import { LessonSpecSchema } from './lesson-spec.ts';
import { ReportSchema } from './report.ts';
import { ReviewSchema } from './review.ts';
import { RunResultSchema } from './run-result.ts';
import { SourceSchema } from './source.ts';
import { StateSchema } from './state.ts';
import { TaskSchema } from './task.ts';
import { TopicSchema } from './topic.ts';
import { WorkerStatusSchema } from './worker-status.ts';

export interface SchemaEntry {
  name: string;
  file: string;
  schema: z.ZodType;
}

export const SCHEMA_ENTRIES: readonly SchemaEntry[] = [
  { name: 'config', file: '.codelabgen/config.yaml', schema: ConfigSchema },
  { name: 'source', file: '.codelabgen/sources.jsonl (one a line)', schema: SourceSchema },
  { name: 'topic', file: '.codelabgen/topics/<source-id>.jsonl (one a line)', schema: TopicSchema },
  { name: 'curriculum', file: '.codelabgen/curriculum.yaml', schema: CurriculumSchema },
  { name: 'lesson-spec', file: '.codelabgen/lessons/<id>/spec.yaml', schema: LessonSpecSchema },
  { name: 'run-result', file: '.codelabgen/runs/<id>/<n>.json', schema: RunResultSchema },
  { name: 'glossary-entry', file: '.codelabgen/glossary.jsonl (one a line)', schema: GlossaryEntrySchema },
  { name: 'review', file: '.codelabgen/lessons/<id>/review.md (YAML front matter)', schema: ReviewSchema },
  { name: 'worker-status', file: "the last JSON block of a worker's answer", schema: WorkerStatusSchema },
  { name: 'state', file: '.codelabgen/state.json', schema: StateSchema },
  { name: 'event', file: '.codelabgen/events.jsonl (one a line)', schema: EventSchema },
  { name: 'task', file: 'state.json tasks.<id>', schema: TaskSchema },
  { name: 'report', file: '.codelabgen/report.json', schema: ReportSchema },
];

export const SCHEMA_NAMES = SCHEMA_ENTRIES.map((entry) => entry.name);

export function findSchemaEntry(name: string): SchemaEntry | undefined {
  return SCHEMA_ENTRIES.find((entry) => entry.name === name);
}

/** JSON Schema (draft 2020-12) of a data file, as an author writes it (defaults optional). */
export function toJsonSchema(entry: SchemaEntry): Record<string, unknown> {
  const generated = singleTypes(z.toJSONSchema(entry.schema, { target: 'draft-2020-12', io: 'input' })) as Record<
    string,
    unknown
  >;
  const { $schema, ...rest } = generated;
  return { $schema, $id: `https://codelabgen.dev/schemas/${entry.name}.schema.json`, title: entry.name, ...rest };
}

/**
 * `schema` with every `type` that is an array (zod writes a plain nullable as `type: ["string", "null"]`)
 * split into `anyOf` branches of one type each: the same schema, in the form clients that map schemas onto
 * a single-`type` dialect take (the MCP Inspector's `--strict` warns of the array in a tool's outputSchema).
 */
export function singleTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(singleTypes);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && Array.isArray(value) && !('anyOf' in schema)) out.anyOf = value.map((type) => ({ type }));
    else out[key] = singleTypes(value);
  }
  return out;
}
