// The JSON Schemas hosts see for a tool: its input schema (strict, with a worker's status typed) and,
// for a tool that answers JSON, its output schema (documents of content-schemas/ where there is one).
import { z } from 'zod';
import { findSchemaEntry, PHASES, singleTypes, toJsonSchema } from '../../content-schemas/index.ts';
import { STATE_COMMANDS } from '../commands-state.ts';
import { DOCUMENT_HELP } from './tool-params.ts';
import type { McpTool } from './tool-types.ts';

const INPUT_SCHEMAS = new WeakMap<McpTool, z.ZodObject>();

/**
 * What checks a tool's arguments: strict, so an unknown or misspelled argument is refused, not dropped.
 * Built once per tool: zod compiles an object schema's checks on its first parse, so a schema made per
 * call would be compiled per call.
 */
export function inputSchema(tool: McpTool): z.ZodObject {
  let schema = INPUT_SCHEMAS.get(tool);
  if (schema === undefined)
    INPUT_SCHEMAS.set(
      tool,
      (schema = z.strictObject(Object.fromEntries(tool.params.map((param) => [param.name, param.schema])))),
    );
  return schema;
}

/** A schema of content-schemas/ as a JSON Schema to embed (no $schema, $id). */
function embeddedSchema(name: string): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = toJsonSchema(findSchemaEntry(name)!);
  return rest;
}

/** The JSON Schema hosts see: inputSchema's, with a worker's status typed and state_task_start's lesson-or-phase rule. */
export function inputJsonSchema(tool: McpTool): Record<string, unknown> {
  // One `type` per schema, as the data files' (content-schemas/registry.ts singleTypes).
  const { $schema: _schema, ...json } = singleTypes(
    z.toJSONSchema(inputSchema(tool), { target: 'draft-2020-12', io: 'input' }),
  ) as Record<string, unknown>;
  const properties = json.properties as Record<string, Record<string, unknown>>;
  for (const param of tool.params) {
    if (param.to.kind === 'document')
      properties[param.name] = {
        description: DOCUMENT_HELP,
        anyOf: [embeddedSchema('worker-status'), { type: 'string', maxLength: 1_000_000 }],
      };
  }
  if (tool.command.name === 'state task start') {
    json.oneOf = [
      { required: ['lesson'], not: { required: ['phase'] } },
      { required: ['phase', 'role'], not: { required: ['lesson'] } },
    ];
  }
  return json;
}

/** Commands whose JSON answer is one document of content-schemas/ (or holds one). */
const OUTPUT_DOCUMENTS: Readonly<Record<string, () => Record<string, unknown>>> = {
  'state show': () => embeddedSchema('state'),
  report: () => embeddedSchema('report'),
  'status check': () => embeddedSchema('worker-status'),
  'schema show': () => ({ type: 'object', description: 'a JSON Schema (draft 2020-12)' }),
  'state next': () => ({
    type: 'object',
    properties: {
      phase: { enum: [...PHASES] },
      next_phase: { anyOf: [{ enum: [...PHASES] }, { type: 'null' }] },
      approval_needed: { type: 'boolean' },
      ready: { type: 'boolean' },
      done: { type: 'boolean' },
      next_step: { type: 'string', description: 'what to do now, in tool terms' },
      next_call: {
        description:
          'the tool call that takes the next step once its work is done (a gate: after the user approved), or null when the next step is work or a decision',
        anyOf: [
          {
            type: 'object',
            properties: { tool: { type: 'string' }, arguments: { type: 'object' } },
            required: ['tool', 'arguments'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
      actions: { type: 'array' },
      lessons: { type: 'array' },
      blocked: { type: 'array' },
      running: { type: 'array' },
      interrupted: { type: 'array' },
    },
    required: ['phase', 'next_phase', 'next_step', 'next_call', 'lessons'],
  }),
  // Every `state task` command but list prints the task it started or changed.
  ...Object.fromEntries(
    STATE_COMMANDS.filter((spec) => spec.name.startsWith('state task ') && spec.name !== 'state task list').map(
      (spec) => [
        spec.name,
        () => ({ type: 'object', properties: { task: embeddedSchema('task') }, required: ['task'] }),
      ],
    ),
  ),
  'state task list': () => ({
    type: 'object',
    properties: { tasks: { type: 'array', items: embeddedSchema('task') } },
    required: ['tasks'],
  }),
};

/** The outputSchema of a tool that answers JSON (structuredContent is that JSON); undefined for text answers (conventions). */
export function outputJsonSchema(tool: McpTool): Record<string, unknown> | undefined {
  const document = OUTPUT_DOCUMENTS[tool.command.name];
  // MCP clients (the SDK's among them) refuse a tools/list whose outputSchema is not `type: object` at the top (status_check's is an anyOf).
  if (document) return { type: 'object', ...document() };
  return tool.command.options?.json || tool.command.name === 'schema list' ? { type: 'object' } : undefined;
}
